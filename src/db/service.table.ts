// Facts about this database itself (when it was created, which instance last migrated it).
import { pgTable, text, bigint } from "drizzle-orm/pg-core";

export const serviceMeta = pgTable("service_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
});
