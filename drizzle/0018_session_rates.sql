CREATE TABLE "session_rates" (
	"uuid" text NOT NULL,
	"profile_id" text NOT NULL,
	"day" date NOT NULL,
	"activity" text NOT NULL,
	"side" text NOT NULL,
	"key" text NOT NULL,
	"amount" numeric NOT NULL,
	"sessions" integer NOT NULL,
	CONSTRAINT "session_rates_uuid_profile_id_day_activity_side_key_pk" PRIMARY KEY("uuid","profile_id","day","activity","side","key")
);
--> statement-breakpoint
CREATE INDEX "sessions_profile_start_idx" ON "sessions" USING btree ("uuid","profile_id","started_at");--> statement-breakpoint
CREATE INDEX "timeline_events_profile_at_idx" ON "timeline_events" USING btree ("uuid","profile_id","at");--> statement-breakpoint
INSERT INTO "session_rates" ("uuid", "profile_id", "day", "activity", "side", "key", "amount", "sessions")
SELECT uuid, profile_id, day, activity, '', '', sum(ended_at - started_at), count(*) FROM sessions GROUP BY 1, 2, 3, 4
UNION ALL
SELECT s.uuid, s.profile_id, s.day, s.activity, 'gain', a->>'k', sum((a->>'v')::numeric), count(*)
FROM sessions s CROSS JOIN jsonb_array_elements(s.gains) a GROUP BY 1, 2, 3, 4, 5, 6
UNION ALL
SELECT s.uuid, s.profile_id, s.day, s.activity, 'cost', a->>'k', sum((a->>'v')::numeric), count(*)
FROM sessions s CROSS JOIN jsonb_array_elements(s.costs) a GROUP BY 1, 2, 3, 4, 5, 6;
