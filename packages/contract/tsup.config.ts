import { defineConfig } from "tsup";

export const config = defineConfig({
  entry: ["src/index.ts", "src/openapi.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
});

export default config;
