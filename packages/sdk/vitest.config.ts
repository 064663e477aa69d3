import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

export const config = defineConfig({
  // As tsup does for the build (src/internal/platform.ts).
  define: { __GMI_SDK_VERSION__: JSON.stringify(version) },
  test: {
    testTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["test/**/*.test.ts", "src/**/*.test.ts"], exclude: ["test/e2e/**"] },
      },
      {
        extends: true,
        // The real server of this repository, started once for the e2e files.
        test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], globalSetup: ["test/e2e/start-server.ts"] },
      },
    ],
  },
});
export default config;
