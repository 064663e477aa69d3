import { defineConfig } from "vitest/config";

/**
 * Built into dist/ and served by the server at /app (apps/server/src/plugins/dashboard.ts), so the
 * dashboard and the API share an origin and need no CORS. `pnpm dev:web` runs Vite's dev server and
 * forwards /api to the server on GMI_API_URL (default http://127.0.0.1:3000).
 */
export const config = defineConfig({
  base: "/app/",
  build: { outDir: "dist", sourcemap: true, target: "es2022" },
  server: {
    port: 5173,
    proxy: { "/api": { target: process.env.GMI_API_URL ?? "http://127.0.0.1:3000", changeOrigin: true } },
  },
  test: {
    testTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: {
          name: "components",
          environment: "happy-dom",
          include: ["test/**/*.test.{ts,tsx}"],
          exclude: ["test/e2e/**"],
        },
      },
      {
        extends: true,
        // The built dashboard in Debian's Chromium against the real server (test/e2e).
        test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 240_000 },
      },
    ],
  },
});
export default config;
