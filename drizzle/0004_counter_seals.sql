CREATE TABLE "counter_seals" (
	"uuid" text NOT NULL,
	"profile_id" text NOT NULL,
	"key" text NOT NULL,
	"day" date NOT NULL,
	"value" bigint NOT NULL,
	CONSTRAINT "counter_seals_uuid_profile_id_key_pk" PRIMARY KEY("uuid","profile_id","key")
);
