import { defineConfig } from "prisma/config";

// Used by the Prisma CLI only (`prisma migrate deploy` in production if preferred to `gmi migrate`);
// the server reads its configuration from src/config.ts.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost/unused" },
});
