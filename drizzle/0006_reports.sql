CREATE TABLE "report_outbox" (
	"problem_id" integer PRIMARY KEY NOT NULL,
	"seq" integer NOT NULL,
	"due_at" bigint NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_problems" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "report_problems_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"fingerprint" text NOT NULL,
	"tool" text NOT NULL,
	"kind" text NOT NULL,
	"exception_type" text,
	"signature" text NOT NULL,
	"title" text NOT NULL,
	"count" integer NOT NULL,
	"first_seen_at" bigint NOT NULL,
	"last_seen_at" bigint NOT NULL,
	"min_version" text NOT NULL,
	"max_version" text NOT NULL,
	"last_minecraft" text NOT NULL,
	"chat_thread_id" text,
	"chat_message_id" text,
	"chat_count" integer DEFAULT 0 NOT NULL,
	"chat_threshold" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_problems_fingerprint_unique" UNIQUE("fingerprint")
);
--> statement-breakpoint
CREATE TABLE "report_samples" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "report_samples_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"problem_id" integer NOT NULL,
	"received_at" bigint NOT NULL,
	"mod_version" text NOT NULL,
	"minecraft" text NOT NULL,
	"loader" text,
	"title" text NOT NULL,
	"message" text,
	"steps" text,
	"stack_trace" text
);
--> statement-breakpoint
ALTER TABLE "report_outbox" ADD CONSTRAINT "report_outbox_problem_id_report_problems_id_fk" FOREIGN KEY ("problem_id") REFERENCES "public"."report_problems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_samples" ADD CONSTRAINT "report_samples_problem_id_report_problems_id_fk" FOREIGN KEY ("problem_id") REFERENCES "public"."report_problems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_outbox_due_idx" ON "report_outbox" USING btree ("due_at");--> statement-breakpoint
CREATE INDEX "report_problems_count_idx" ON "report_problems" USING btree ("count");--> statement-breakpoint
CREATE INDEX "report_samples_problem_idx" ON "report_samples" USING btree ("problem_id","id");