CREATE TABLE "player_group_members" (
	"group_id" text NOT NULL,
	"uuid" text NOT NULL,
	"joined_at" bigint NOT NULL,
	CONSTRAINT "player_group_members_group_id_uuid_pk" PRIMARY KEY("group_id","uuid")
);
--> statement-breakpoint
CREATE TABLE "player_groups" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"owner" text NOT NULL,
	"invite_code" text NOT NULL,
	"public" boolean DEFAULT false NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "player_groups_invite_code_unique" UNIQUE("invite_code")
);
--> statement-breakpoint
CREATE INDEX "player_group_members_uuid_idx" ON "player_group_members" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "player_groups_owner_idx" ON "player_groups" USING btree ("owner");