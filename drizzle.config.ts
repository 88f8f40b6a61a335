import { defineConfig } from "drizzle-kit";

// Only generates SQL from db/schema.ts (`npm run db:generate -- --name what_changed`);
// migrations are applied by db/migrate.ts at start-up and by `npm run db:migrate`.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema.ts",
  out: "./db/migrations",
});
