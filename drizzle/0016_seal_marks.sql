CREATE TABLE "counter_seal_marks" (
	"uuid" text PRIMARY KEY NOT NULL,
	"sealed_before" date NOT NULL
);
