import { defineConfig } from "vitest/config";

export const config = defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 20_000,
  },
});
export default config;
