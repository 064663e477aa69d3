import { defineConfig } from "vitest/config";

export const config = defineConfig({ test: { include: ["src/**/*.test.ts", "test/**/*.test.ts"] } });
export default config;
