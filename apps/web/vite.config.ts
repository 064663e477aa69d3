import { msw } from "msw/vite";
import { defineConfig } from "vitest/config";

/** `pnpm dev:web --mock` (scripts/dev.ts): the dashboard on the SDK's msw mocks, with no server. */
export const MOCK_MODE = "mock";

/**
 * Built into dist/ and served by the server at /app (apps/server/src/plugins/dashboard.ts), so the
 * dashboard and the API share an origin and need no CORS. `pnpm dev:web` runs Vite's dev server and
 * forwards /api to the server on GMI_API_URL (default http://127.0.0.1:3000). In mock mode nothing
 * is forwarded: msw's service worker answers /api in the browser, its script served by msw's own
 * Vite plugin (`worker-only`: our src/mock/ starts the worker) and never part of a production build.
 */
export const config = defineConfig(({ mode }) => ({
  base: "/app/",
  plugins: mode === MOCK_MODE ? [msw({ mode: "worker-only" })] : [],
  build: { outDir: "dist", sourcemap: true, target: "es2022" },
  server: {
    port: 5173,
    ...(mode === MOCK_MODE
      ? {}
      : {
          proxy: {
            "/api": { target: process.env.GMI_API_URL ?? "http://127.0.0.1:3000", changeOrigin: true },
          },
        }),
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
        // The dashboard in Debian's Chromium: built, against the real server; and in mock mode, on
        // Vite's dev server with no server at all (test/e2e).
        // One file at a time: two Chromiums and a dev server beside the rest of `pnpm test` on two
        // cores slowed the real-server file past its time-outs.
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
    ],
  },
}));
export default config;
