CREATE TABLE "recaps" (
	"uuid" text NOT NULL,
	"period" text NOT NULL,
	"closed_at" bigint NOT NULL,
	"body" jsonb NOT NULL,
	"share_key" text,
	CONSTRAINT "recaps_uuid_period_pk" PRIMARY KEY("uuid","period")
);
--> statement-breakpoint
CREATE INDEX "recaps_share_key_idx" ON "recaps" USING btree ("share_key");--> statement-breakpoint
CREATE INDEX "counter_marks_last_day_idx" ON "counter_marks" USING btree ("last_day");