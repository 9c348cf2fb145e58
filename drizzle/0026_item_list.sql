CREATE TABLE "item_list" (
	"id" smallint PRIMARY KEY NOT NULL,
	"names" jsonb NOT NULL,
	"items" bigint NOT NULL,
	"fetched_at" bigint NOT NULL,
	"last_updated" bigint
);
