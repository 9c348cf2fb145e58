CREATE TABLE "counter_rollups" (
	"uuid" text NOT NULL,
	"profile_id" text NOT NULL,
	"key" text NOT NULL,
	"sum" bigint NOT NULL,
	"max" bigint NOT NULL,
	"min" bigint NOT NULL,
	"first_day" date NOT NULL,
	"last_day" date NOT NULL,
	"last_value" bigint NOT NULL,
	"last_sent_at" bigint NOT NULL,
	"last_install" text NOT NULL,
	"stale" boolean DEFAULT false NOT NULL,
	CONSTRAINT "counter_rollups_uuid_profile_id_key_pk" PRIMARY KEY("uuid","profile_id","key")
);
--> statement-breakpoint
-- Rollups of the day rows already stored (none before this table on a new database).
INSERT INTO "counter_rollups" ("uuid", "profile_id", "key", "sum", "max", "min", "first_day", "last_day", "last_value", "last_sent_at", "last_install", "stale")
SELECT d."uuid", d."profile_id", d."key", sum(d."value"), max(d."value"), min(d."value"), min(d."day"), max(d."day"),
  (array_agg(d."value" ORDER BY d."day" DESC, d."sent_at" DESC, d."install_id" DESC))[1],
  (array_agg(d."sent_at" ORDER BY d."day" DESC, d."sent_at" DESC, d."install_id" DESC))[1],
  (array_agg(d."install_id" ORDER BY d."day" DESC, d."sent_at" DESC, d."install_id" DESC))[1],
  false
FROM "counter_days" d
GROUP BY d."uuid", d."profile_id", d."key";
