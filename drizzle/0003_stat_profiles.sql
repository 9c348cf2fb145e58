CREATE TABLE "stat_profiles" (
	"uuid" text NOT NULL,
	"profile_id" text NOT NULL,
	"cute_name" text NOT NULL,
	"first_seen_at" bigint NOT NULL,
	"last_seen_at" bigint NOT NULL,
	CONSTRAINT "stat_profiles_uuid_profile_id_pk" PRIMARY KEY("uuid","profile_id")
);
