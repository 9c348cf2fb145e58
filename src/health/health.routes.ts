// GET /v1/health: what the mod reads once per launch (contract 4.2, 9.1): the schema versions this
// service accepts and the catalogue version. It answers without touching any upstream; it does ask
// the database, so a load balancer sees 503 while the database is gone.
import { Elysia } from "elysia";
import { Type as T } from "@sinclair/typebox";
import type { Db } from "../db/database.ts";
import type { Log } from "../log.ts";
import { ACCEPTED_SCHEMAS, CURRENT_SCHEMA } from "../wire/schema-version.ts";
import { pingDatabase } from "./health.query.ts";

export const HealthAnswer = T.Object(
  {
    status: T.Union([T.Literal("ok"), T.Literal("unavailable")]),
    service: T.Literal("tally"),
    version: T.String(),
    schema: T.Object({ current: T.Integer(), accepted: T.Array(T.Integer()) }, { additionalProperties: false }),
    catalogueVersion: T.Integer(),
    database: T.Union([T.Literal("ok"), T.Literal("unavailable")]),
  },
  { additionalProperties: false },
);

export function healthRoutes(deps: { db: Db; log: Log; version: string; catalogueVersion: number }) {
  return new Elysia({ name: "tally.health" }).get(
    "/v1/health",
    async ({ set }) => {
      let database: "ok" | "unavailable" = "ok";
      try {
        await pingDatabase(deps.db);
      } catch (error) {
        deps.log.warn("health: database unavailable", { error });
        database = "unavailable";
        set.status = 503;
        set.headers["retry-after"] = "5";
      }
      set.headers["cache-control"] = "no-store";
      return {
        status: database,
        service: "tally" as const,
        version: deps.version,
        schema: { current: CURRENT_SCHEMA, accepted: [...ACCEPTED_SCHEMAS] },
        catalogueVersion: deps.catalogueVersion,
        database,
      };
    },
    {
      response: { 200: HealthAnswer, 503: HealthAnswer },
      detail: { summary: "Accepted schema versions and catalogue version", tags: ["health"] },
    },
  );
}
