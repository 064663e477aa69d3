import { defineConfig } from "vitest/config";

/** Unit tests of the suite's own parts (the comparison); the suite itself is `pnpm test:parity`. */
export const config = defineConfig({ test: { include: ["src/**/*.test.ts"] } });
export default config;
