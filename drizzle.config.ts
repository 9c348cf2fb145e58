import { defineConfig } from "drizzle-kit";

// drizzle-kit generate writes SQL migrations into drizzle/; scripts/embed-migrations.ts then lists
// them in src/db/migrations.gen.ts so the binary carries them (bun run db:generate does both).
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema.ts",
  out: "./drizzle",
});
