CREATE TABLE "report_chat_status" (
	"webhook_key" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"since" bigint NOT NULL,
	"detail" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_days" (
	"problem_id" integer NOT NULL,
	"day" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "report_days_problem_id_day_pk" PRIMARY KEY("problem_id","day")
);
--> statement-breakpoint
CREATE TABLE "report_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "report_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"problem_id" integer NOT NULL,
	"at" bigint NOT NULL,
	"action" text NOT NULL,
	"version" text,
	"actor" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_versions" (
	"problem_id" integer NOT NULL,
	"version" text NOT NULL,
	"count" integer NOT NULL,
	"last_seen_at" bigint NOT NULL,
	CONSTRAINT "report_versions_problem_id_version_pk" PRIMARY KEY("problem_id","version")
);
--> statement-breakpoint
ALTER TABLE "report_problems" ADD COLUMN "state" text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_problems" ADD COLUMN "resolved_in" text;--> statement-breakpoint
ALTER TABLE "report_problems" ADD COLUMN "regressed_in" text;--> statement-breakpoint
ALTER TABLE "report_problems" ADD COLUMN "event_seq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_problems" ADD COLUMN "chat_event_seen" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_days" ADD CONSTRAINT "report_days_problem_id_report_problems_id_fk" FOREIGN KEY ("problem_id") REFERENCES "public"."report_problems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_events" ADD CONSTRAINT "report_events_problem_id_report_problems_id_fk" FOREIGN KEY ("problem_id") REFERENCES "public"."report_problems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_versions" ADD CONSTRAINT "report_versions_problem_id_report_problems_id_fk" FOREIGN KEY ("problem_id") REFERENCES "public"."report_problems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_events_problem_idx" ON "report_events" USING btree ("problem_id","id");--> statement-breakpoint
CREATE INDEX "report_versions_version_idx" ON "report_versions" USING btree ("version");