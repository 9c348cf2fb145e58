CREATE TABLE "board_buckets" (
	"board" text NOT NULL,
	"window" text NOT NULL,
	"level" smallint NOT NULL,
	"bucket" integer NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "board_buckets_board_window_level_bucket_pk" PRIMARY KEY("board","window","level","bucket")
);
--> statement-breakpoint
CREATE TABLE "board_exclusions" (
	"uuid" text PRIMARY KEY NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "board_held" (
	"uuid" text NOT NULL,
	"board" text NOT NULL,
	"window" text NOT NULL,
	"profile_id" text NOT NULL,
	"value" bigint NOT NULL,
	"at" bigint NOT NULL,
	CONSTRAINT "board_held_uuid_board_window_profile_id_pk" PRIMARY KEY("uuid","board","window","profile_id")
);
--> statement-breakpoint
CREATE TABLE "board_optins" (
	"uuid" text NOT NULL,
	"grp" text NOT NULL,
	"at" bigint NOT NULL,
	CONSTRAINT "board_optins_uuid_grp_pk" PRIMARY KEY("uuid","grp")
);
--> statement-breakpoint
CREATE TABLE "board_scores" (
	"board" text NOT NULL,
	"window" text NOT NULL,
	"uuid" text NOT NULL,
	"profile_id" text NOT NULL,
	"value" bigint NOT NULL,
	"sort_value" bigint NOT NULL,
	"bucket" integer NOT NULL,
	"reached_at" bigint NOT NULL,
	"cute_name" text,
	CONSTRAINT "board_scores_uuid_board_window_profile_id_pk" PRIMARY KEY("uuid","board","window","profile_id")
);
--> statement-breakpoint
CREATE INDEX "board_scores_rank_idx" ON "board_scores" USING btree ("board","window","bucket","sort_value","reached_at","uuid","profile_id");