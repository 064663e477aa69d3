import { defineConfig } from "vitest/config";

export const config = defineConfig({ test: { include: ["test/**/*.test.ts", "src/**/*.test.ts"] } });
export default config;
