CREATE TABLE "access_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"uuid" text NOT NULL,
	"token_hash" text NOT NULL,
	"label" text NOT NULL,
	"scopes" text NOT NULL,
	"created_at" bigint NOT NULL,
	"last_used_at" bigint,
	"expires_at" bigint,
	CONSTRAINT "access_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_uuid_accounts_uuid_fk" FOREIGN KEY ("uuid") REFERENCES "public"."accounts"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_tokens_uuid_idx" ON "access_tokens" USING btree ("uuid","created_at");