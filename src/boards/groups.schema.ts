// Bodies and answers of the player groups' routes.
import { Type as T } from "@sinclair/typebox";
import { BoardPageAnswer, BoardQuery } from "./boards.schema.ts";
import { GROUP_ID_PATTERN, INVITE_CODE_PATTERN, TITLE_MAX } from "./groups.ts";

const strict = { additionalProperties: false } as const;

export const GroupParams = T.Object(
  { id: T.String({ maxLength: 16, description: "The group's id (16 characters), as GET /v1/groups lists it" }) },
  strict,
);
export const GroupBoardParams = T.Object(
  { id: GroupParams.properties.id, board: T.String({ maxLength: 48, description: "A board's id" }) },
  strict,
);
export const GroupMemberParams = T.Object(
  { id: GroupParams.properties.id, name: T.String({ maxLength: 16, description: "The member's player name" }) },
  strict,
);
export const GroupBoardQuery = BoardQuery;

export const CreateGroupBody = T.Object(
  {
    title: T.String({
      minLength: 1,
      maxLength: TITLE_MAX * 2,
      description: `1 to ${TITLE_MAX} characters once trimmed`,
    }),
    public: T.Optional(T.Boolean({ description: "Anyone may see its boards (default: members only)" })),
  },
  strict,
);
export const ChangeGroupBody = T.Object(
  {
    title: T.Optional(CreateGroupBody.properties.title),
    public: T.Optional(T.Boolean()),
  },
  strict,
);
export const JoinGroupBody = T.Object(
  { code: T.String({ maxLength: 64, description: `The invite code (${INVITE_CODE_PATTERN})` }) },
  strict,
);

const GroupFields = {
  id: T.String({ pattern: GROUP_ID_PATTERN }),
  title: T.String({ maxLength: TITLE_MAX }),
  public: T.Boolean(),
  members: T.Integer({ minimum: 0 }),
  maxMembers: T.Integer({ minimum: 0 }),
  yours: T.Boolean({ description: "You created it: you rename it, rotate its code, remove members" }),
  inviteCode: T.Union([T.String({ pattern: INVITE_CODE_PATTERN }), T.Null()], {
    description: "Shown to the creator only; whoever holds it may join",
  }),
  createdAt: T.Integer(),
};
export const GroupAnswer = T.Object(GroupFields, strict);
export const GroupsAnswer = T.Object({ groups: T.Array(GroupAnswer) }, strict);
export const GroupDetailAnswer = T.Object(
  {
    ...GroupFields,
    list: T.Array(
      T.Object(
        { name: T.String({ maxLength: 16 }), creator: T.Boolean(), you: T.Boolean(), joinedAt: T.Integer() },
        strict,
      ),
    ),
  },
  strict,
);
export const GroupBoardAnswer = T.Object(
  {
    group: T.Object({ id: GroupFields.id, title: GroupFields.title, public: T.Boolean() }, strict),
    ...BoardPageAnswer.properties,
  },
  strict,
);
