import { configDefaults, defineConfig } from "vitest/config";

/**
 * Two projects: `unit` (src/**, no database, beside the code) and `integration` (test/** and the
 * database layer's own tests: real PostgreSQL from TEST_DATABASE_URL, Redis from TEST_REDIS_URL).
 * In CI a missing service fails the run instead of skipping suites (test/required-services.ts).
 * Two workers at most: the machines have two cores and each integration file owns a database.
 */
export const config = defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "unit", include: ["src/**/*.test.ts"], exclude: ["src/db/**"] } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts", "src/db/**/*.test.ts"],
          // Fixtures are data for tests (test/fixtures/layers holds a deliberately broken tree).
          exclude: [...configDefaults.exclude, "test/fixtures/**"],
          globalSetup: ["test/required-services.ts", "test/log-scan.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
export default config;
