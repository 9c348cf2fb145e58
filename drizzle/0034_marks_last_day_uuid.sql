DROP INDEX "counter_marks_last_day_idx";--> statement-breakpoint
CREATE INDEX "counter_marks_last_day_idx" ON "counter_marks" USING btree ("last_day","uuid");