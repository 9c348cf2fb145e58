CREATE TABLE "lifetime_snapshots" (
	"uuid" text NOT NULL,
	"profile_id" text NOT NULL,
	"state" text NOT NULL,
	"labels" text NOT NULL,
	"read_at" bigint NOT NULL,
	"figures" text NOT NULL,
	CONSTRAINT "lifetime_snapshots_uuid_profile_id_pk" PRIMARY KEY("uuid","profile_id")
);
