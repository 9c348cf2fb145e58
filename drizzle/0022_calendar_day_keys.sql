CREATE TABLE "counter_day_keys" (
	"uuid" text NOT NULL,
	"profile_id" text NOT NULL,
	"day" date NOT NULL,
	"keys" integer NOT NULL,
	CONSTRAINT "counter_day_keys_uuid_profile_id_day_pk" PRIMARY KEY("uuid","profile_id","day")
);
--> statement-breakpoint
-- Every account's closed days counted once from their day rows (issue 40); from here on the writes
-- that change a closed day keep its count.
INSERT INTO "counter_day_keys" ("uuid", "profile_id", "day", "keys")
SELECT d."uuid", d."profile_id", d."day", count(DISTINCT d."key")
FROM "counter_days" d JOIN "counter_marks" m ON m."uuid" = d."uuid"
WHERE d."day" <= m."closed_through"
GROUP BY d."uuid", d."profile_id", d."day";
