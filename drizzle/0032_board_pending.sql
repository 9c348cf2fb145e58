CREATE TABLE "board_pending" (
	"uuid" text NOT NULL,
	"profile_id" text NOT NULL,
	"board" text NOT NULL,
	"window" text NOT NULL,
	"cute_name" text,
	"at" bigint NOT NULL,
	CONSTRAINT "board_pending_uuid_profile_id_board_window_pk" PRIMARY KEY("uuid","profile_id","board","window")
);
