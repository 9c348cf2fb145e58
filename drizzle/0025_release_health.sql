CREATE TABLE "report_install_days" (
	"day" text NOT NULL,
	"version" text NOT NULL,
	"install" text NOT NULL,
	CONSTRAINT "report_install_days_day_version_install_pk" PRIMARY KEY("day","version","install")
);
--> statement-breakpoint
CREATE TABLE "report_release_posts" (
	"version" text PRIMARY KEY NOT NULL,
	"reached_day" text NOT NULL,
	"posted" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"due_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_version_days" (
	"version" text NOT NULL,
	"day" text NOT NULL,
	"installs" integer DEFAULT 0 NOT NULL,
	"reports" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_version_days_version_day_pk" PRIMARY KEY("version","day")
);
--> statement-breakpoint
ALTER TABLE "report_problems" ADD COLUMN "number" integer;--> statement-breakpoint
UPDATE "report_problems" SET "number" = n."number" FROM (SELECT "id", row_number() OVER (ORDER BY "id") AS "number" FROM "report_problems") n WHERE n."id" = "report_problems"."id";--> statement-breakpoint
ALTER TABLE "report_problems" ALTER COLUMN "number" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "report_version_days_day_idx" ON "report_version_days" USING btree ("day");--> statement-breakpoint
ALTER TABLE "report_problems" ADD CONSTRAINT "report_problems_number_unique" UNIQUE("number");