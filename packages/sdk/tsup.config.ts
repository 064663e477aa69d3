import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

export const config = defineConfig({
  entry: { index: "src/index.ts", validate: "src/validate/index.ts", msw: "src/msw/index.ts" },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
  // Dependencies and peers stay imports; the main entry only has type imports of the contract.
  external: ["@gmi/contract", "msw", "zod"],
  // The version the client names in its identification header (src/internal/platform.ts).
  define: { __GMI_SDK_VERSION__: JSON.stringify(version) },
});

export default config;
