ALTER TABLE "counter_marks" ADD COLUMN "pos_bound" numeric;--> statement-breakpoint
ALTER TABLE "counter_marks" ADD COLUMN "neg_bound" numeric;--> statement-breakpoint
-- Every account's bounds as they stand: the largest and smallest parts of any of its count keys
-- over its rollups and its open days (after its mark). An account with nothing gets 0.
UPDATE "counter_marks" m SET "pos_bound" = coalesce(b.pos, 0), "neg_bound" = coalesce(b.neg, 0)
FROM (
  SELECT k.uuid, max(k.pos) AS pos, min(k.neg) AS neg FROM (
    SELECT p.uuid, p.profile_id, p.key, sum(p.pos) AS pos, sum(p.neg) AS neg FROM (
      SELECT r.uuid, r.profile_id, r.key, r.pos::numeric AS pos, r.neg::numeric AS neg FROM counter_rollups r
      UNION ALL
      SELECT d.uuid, d.profile_id, d.key, greatest(d.value, 0)::numeric, least(d.value, 0)::numeric
      FROM counter_days d
        JOIN counter_marks mm ON mm.uuid = d.uuid AND d.day > mm.closed_through
        JOIN counter_keys ck ON ck.key = d.key AND ck.kind = 'count'
    ) p GROUP BY p.uuid, p.profile_id, p.key
  ) k GROUP BY k.uuid
) b
WHERE b.uuid = m.uuid;
--> statement-breakpoint
UPDATE "counter_marks" SET "pos_bound" = 0, "neg_bound" = 0 WHERE "pos_bound" IS NULL;
