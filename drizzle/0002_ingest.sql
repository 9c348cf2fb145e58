CREATE TABLE "counter_backfills" (
	"uuid" text NOT NULL,
	"profile_id" text NOT NULL,
	"key" text NOT NULL,
	"install_id" text NOT NULL,
	"day" date NOT NULL,
	"value" bigint NOT NULL,
	"sent_at" bigint NOT NULL,
	CONSTRAINT "counter_backfills_uuid_profile_id_key_install_id_pk" PRIMARY KEY("uuid","profile_id","key","install_id")
);
--> statement-breakpoint
CREATE TABLE "counter_days" (
	"uuid" text NOT NULL,
	"profile_id" text NOT NULL,
	"key" text NOT NULL,
	"day" date NOT NULL,
	"install_id" text NOT NULL,
	"value" bigint NOT NULL,
	"low" bigint,
	"high" bigint,
	"sent_at" bigint NOT NULL,
	CONSTRAINT "counter_days_uuid_profile_id_key_day_install_id_pk" PRIMARY KEY("uuid","profile_id","key","day","install_id")
);
--> statement-breakpoint
CREATE TABLE "counter_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"unit" text NOT NULL,
	"category" text NOT NULL,
	"first_seen_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ingest_batches" (
	"uuid" text NOT NULL,
	"batch_id" text NOT NULL,
	"received_at" bigint NOT NULL,
	"answer" text,
	CONSTRAINT "ingest_batches_uuid_batch_id_pk" PRIMARY KEY("uuid","batch_id")
);
--> statement-breakpoint
CREATE TABLE "mirror_sections" (
	"uuid" text NOT NULL,
	"profile_id" text NOT NULL,
	"section" text NOT NULL,
	"install_id" text NOT NULL,
	"observed_at" bigint NOT NULL,
	"values" jsonb NOT NULL,
	CONSTRAINT "mirror_sections_uuid_profile_id_section_pk" PRIMARY KEY("uuid","profile_id","section")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"uuid" text NOT NULL,
	"id" text NOT NULL,
	"profile_id" text NOT NULL,
	"install_id" text NOT NULL,
	"activity" text NOT NULL,
	"day" date NOT NULL,
	"started_at" bigint NOT NULL,
	"ended_at" bigint NOT NULL,
	"gains" jsonb NOT NULL,
	"costs" jsonb NOT NULL,
	CONSTRAINT "sessions_uuid_id_pk" PRIMARY KEY("uuid","id")
);
--> statement-breakpoint
CREATE TABLE "timeline_events" (
	"uuid" text NOT NULL,
	"id" text NOT NULL,
	"profile_id" text NOT NULL,
	"install_id" text NOT NULL,
	"kind" text NOT NULL,
	"day" date NOT NULL,
	"at" bigint NOT NULL,
	"key" text,
	"value" bigint,
	CONSTRAINT "timeline_events_uuid_id_pk" PRIMARY KEY("uuid","id")
);
--> statement-breakpoint
CREATE INDEX "ingest_batches_received_idx" ON "ingest_batches" USING btree ("received_at");