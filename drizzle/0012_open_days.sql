CREATE TABLE "counter_marks" (
	"uuid" text PRIMARY KEY NOT NULL,
	"closed_through" date NOT NULL
);
--> statement-breakpoint
CREATE INDEX "counter_days_uuid_day_idx" ON "counter_days" USING btree ("uuid","day");--> statement-breakpoint
-- Every existing rollup folds all of its account's days: close each account through its latest
-- day, so the rollups hold exactly the closed days (the invariant) from the start.
INSERT INTO "counter_marks" ("uuid", "closed_through") SELECT "uuid", max("day") FROM "counter_days" GROUP BY "uuid";
