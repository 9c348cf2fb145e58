CREATE TABLE "accounts" (
	"uuid" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"zone" text NOT NULL,
	"zone_changed_at" bigint,
	"created_at" bigint NOT NULL,
	"settings_version" integer DEFAULT 1 NOT NULL,
	"consented" text[] DEFAULT '{}'::text[] NOT NULL,
	"retention_days" integer NOT NULL,
	"findable" boolean DEFAULT false NOT NULL,
	"share_key" text,
	"share_key_created_at" bigint,
	"last_upload_at" bigint,
	CONSTRAINT "accounts_share_key_unique" UNIQUE("share_key")
);
--> statement-breakpoint
CREATE TABLE "page_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"uuid" text NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_challenges" (
	"server_id" text PRIMARY KEY NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"uuid" text NOT NULL,
	"token_hash" text NOT NULL,
	"device" text NOT NULL,
	"created_at" bigint NOT NULL,
	"last_seen_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	CONSTRAINT "device_sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"bucket" text PRIMARY KEY NOT NULL,
	"window_start" bigint NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "page_tokens" ADD CONSTRAINT "page_tokens_uuid_accounts_uuid_fk" FOREIGN KEY ("uuid") REFERENCES "public"."accounts"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_sessions" ADD CONSTRAINT "device_sessions_uuid_accounts_uuid_fk" FOREIGN KEY ("uuid") REFERENCES "public"."accounts"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "page_tokens_expires_idx" ON "page_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "auth_challenges_expires_idx" ON "auth_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "device_sessions_uuid_idx" ON "device_sessions" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "device_sessions_expires_idx" ON "device_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "rate_limits_window_idx" ON "rate_limits" USING btree ("window_start");