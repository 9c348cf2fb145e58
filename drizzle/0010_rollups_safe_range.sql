ALTER TABLE "counter_rollups" ADD COLUMN "pos" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "counter_rollups" ADD COLUMN "neg" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Sums are kept for count keys only now; a count's positive and negative parts are rebuilt from its
-- day rows (capped at bigint: a part past the safe range already breaks the check below).
UPDATE "counter_rollups" r SET
  "sum" = CASE WHEN k."kind" = 'count' THEN r."sum" ELSE 0 END,
  "pos" = CASE WHEN k."kind" = 'count' THEN coalesce((SELECT least(sum(greatest(d."value", 0)), 9223372036854775807) FROM "counter_days" d
            WHERE d."uuid" = r."uuid" AND d."profile_id" = r."profile_id" AND d."key" = r."key"), 0) ELSE 0 END,
  "neg" = CASE WHEN k."kind" = 'count' THEN coalesce((SELECT greatest(sum(least(d."value", 0)), -9223372036854775808) FROM "counter_days" d
            WHERE d."uuid" = r."uuid" AND d."profile_id" = r."profile_id" AND d."key" = r."key"), 0) ELSE 0 END
FROM "counter_keys" k WHERE k."key" = r."key";--> statement-breakpoint
-- NOT VALID: a total stored before this check may already be past the safe range. Start-up must
-- not stop on it; such a row is refused at its next write (422 total_out_of_range), never lost.
ALTER TABLE "counter_rollups" ADD CONSTRAINT "counter_rollups_pos_safe" CHECK ("pos" <= 9007199254740991) NOT VALID;--> statement-breakpoint
ALTER TABLE "counter_rollups" ADD CONSTRAINT "counter_rollups_neg_safe" CHECK ("neg" >= -9007199254740991) NOT VALID;--> statement-breakpoint
ALTER TABLE "counter_seals" ADD CONSTRAINT "counter_seals_value_safe" CHECK ("value" between -9007199254740991 and 9007199254740991) NOT VALID;
