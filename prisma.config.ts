try {
  process.loadEnvFile(".env");
} catch {
  // no .env: configuration comes from the environment
}
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

// Prisma 6.19 offline recipe (see README "Database"): the JS engine with a
// driver adapter. `prisma generate` only needs a DATABASE_URL to exist; it is
// never connected to during generate.
process.env.DATABASE_URL ??= "postgresql://localhost:5432/unused";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL });
  },
});
