ALTER TABLE "accounts" ADD COLUMN "mod_version" text;--> statement-breakpoint
CREATE INDEX "accounts_mod_version_idx" ON "accounts" USING btree ("mod_version");