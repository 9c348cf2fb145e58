-- Page links are spent by their first use and page cookies are their own kind, each tied to the
-- device session that asked for the link. Rows from before cannot say which they were or which
-- session asked: they go (a link lives 10 minutes, a cookie an hour; the player asks for a new link).
DELETE FROM "page_tokens";--> statement-breakpoint
ALTER TABLE "page_tokens" ADD COLUMN "kind" text NOT NULL;--> statement-breakpoint
ALTER TABLE "page_tokens" ADD COLUMN "session_id" text NOT NULL;
