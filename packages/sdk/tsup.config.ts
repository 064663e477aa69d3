import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

export const config = defineConfig({
  entry: { index: "src/index.ts", validate: "src/validate/index.ts", msw: "src/msw/index.ts" },
  format: ["esm", "cjs"],
  dts: { resolve: [/^@gmi\/rules/], compilerOptions: { paths: { "@gmi/rules/*": ["../rules/src/*.ts"] } } },
  clean: true,
  sourcemap: true,
  target: "es2022",
  // Dependencies and peers stay imports; the main entry only has type imports of the contract.
  external: ["@gmi/contract", "msw", "zod"],
  // The shared rules (a private workspace package) are bundled into the msw entry, code and types:
  // the published SDK gains no dependency.
  noExternal: [/^@gmi\/rules/],
  // The version the client names in its identification header (src/internal/platform.ts).
  define: { __GMI_SDK_VERSION__: JSON.stringify(version) },
});

export default config;
