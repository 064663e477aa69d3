import { defineConfig } from "vitest/config";

export const config = defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: "unit", include: ["src/**/*.test.ts"], exclude: ["src/db/**"] } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts", "src/db/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
export default config;
