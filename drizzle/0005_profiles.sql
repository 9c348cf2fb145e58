CREATE TABLE "upstream_backoff" (
	"upstream" text PRIMARY KEY NOT NULL,
	"until" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "player_names" (
	"name_key" text PRIMARY KEY NOT NULL,
	"uuid" text NOT NULL,
	"name" text NOT NULL,
	"fetched_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profile_cache" (
	"uuid" text PRIMARY KEY NOT NULL,
	"profiles" jsonb NOT NULL,
	"fetched_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "asset_cache" (
	"kind" text NOT NULL,
	"id" text NOT NULL,
	"png" "bytea" NOT NULL,
	"etag" text NOT NULL,
	"fetched_at" bigint NOT NULL,
	CONSTRAINT "asset_cache_kind_id_pk" PRIMARY KEY("kind","id")
);
