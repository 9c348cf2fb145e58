// Player groups (issue 35): a guild or a few friends with boards of their own. A group has a public
// id (in its pages' addresses), a title, its creator, and an invite code others join with; its
// boards rank the scores its members hold on the service's boards (each opted in themselves).
import { pgTable, text, bigint, boolean, primaryKey, index } from "drizzle-orm/pg-core";

export const playerGroups = pgTable(
  "player_groups",
  {
    /** 16 random characters (base64url): the group's pages' address; knowing it shows nothing of a private group. */
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    owner: text("owner").notNull(),
    /** 32 random characters (base64url, 192 bits): whoever holds it may join. */
    inviteCode: text("invite_code").notNull().unique(),
    /** Anyone may see the group's boards (members' names only where their page is findable). */
    public: boolean("public").notNull().default(false),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [index("player_groups_owner_idx").on(t.owner)],
);

export const playerGroupMembers = pgTable(
  "player_group_members",
  {
    groupId: text("group_id").notNull(),
    uuid: text("uuid").notNull(),
    joinedAt: bigint("joined_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.uuid] }), index("player_group_members_uuid_idx").on(t.uuid)],
);
