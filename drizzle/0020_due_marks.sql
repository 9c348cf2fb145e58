ALTER TABLE "counter_marks" ADD COLUMN "first_day" date;--> statement-breakpoint
ALTER TABLE "counter_marks" ADD COLUMN "last_day" date;--> statement-breakpoint
ALTER TABLE "counter_marks" ADD COLUMN "unsealed_from" date;--> statement-breakpoint
-- Every account's rows as they lie: its first and last day, and its first per-install day from its
-- seal mark on (none before the mark, by the mark's rule; no mark: from its first day). Each one
-- range read of the (uuid, day) index per account, once. An account with a mark has a counter_marks
-- row (its first upload wrote one before any day row); null where it has no such row.
UPDATE "counter_marks" m SET
  "first_day" = (SELECT d.day FROM counter_days d WHERE d.uuid = m.uuid ORDER BY d.day LIMIT 1),
  "last_day" = (SELECT d.day FROM counter_days d WHERE d.uuid = m.uuid ORDER BY d.day DESC LIMIT 1),
  "unsealed_from" = (
    SELECT d.day FROM counter_days d
    WHERE d.uuid = m.uuid AND d.install_id <> ''
      AND d.day >= coalesce((SELECT s.sealed_before FROM counter_seal_marks s WHERE s.uuid = m.uuid), '-infinity'::date)
    ORDER BY d.day LIMIT 1
  );--> statement-breakpoint
DROP TABLE "counter_seal_marks";--> statement-breakpoint
CREATE INDEX "counter_marks_first_day_idx" ON "counter_marks" USING btree ("first_day");--> statement-breakpoint
CREATE INDEX "counter_marks_unsealed_from_idx" ON "counter_marks" USING btree ("unsealed_from");--> statement-breakpoint
CREATE INDEX "counter_marks_open_idx" ON "counter_marks" USING btree ("uuid") WHERE "counter_marks"."last_day" > "counter_marks"."closed_through";
