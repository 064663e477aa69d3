import { defineConfig } from "tsup";

export const config = defineConfig({
  entry: { index: "src/index.ts", validate: "src/validate/index.ts", msw: "src/msw/index.ts" },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
  // Dependencies and peers stay imports; the main entry only has type imports of the contract.
  external: ["@gmi/contract", "msw", "zod"],
});

export default config;
