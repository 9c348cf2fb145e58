-- Level 2 of board_buckets (src/boards/buckets.ts): each exact-value bucket's scores counted by the
-- time slot they were reached in (an hour in a week, 4 hours in a month, a day all-time), so a
-- crowd of equal figures ranks without counting the crowd. Counted here from the scores kept so far.
INSERT INTO "board_buckets" ("board", "window", "level", "bucket", "n")
SELECT "board", "window", 2,
  "bucket" * 2097152 + least(greatest(floor("reached_at"::float8 / CASE WHEN "window" LIKE 'week:%' THEN 3600000
    WHEN "window" LIKE 'month:%' THEN 14400000 ELSE 86400000 END), 0), 2097151)::int,
  count(*)
FROM "board_scores" WHERE "bucket" > -1000 AND "bucket" < 1000 GROUP BY 1, 2, 3, 4;
