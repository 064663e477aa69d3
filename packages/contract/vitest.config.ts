import { defineConfig } from "vitest/config";

// Compiling the document's schemas (ajv) takes seconds on a loaded 2-core machine: not a hang.
export const config = defineConfig({
  test: { include: ["test/**/*.test.ts", "src/**/*.test.ts"], testTimeout: 30_000 },
});
export default config;
