-- A day row is rewritten by every upload of its day. With room left on each page (80%) the new
-- version fits beside the old one, a heap-only update that leaves the primary key's index alone.
ALTER TABLE "counter_days" SET (fillfactor = 80);
