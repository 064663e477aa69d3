import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { globalPlugin } from "./plugin.js";

/** The contract's OpenAPI document, read once at start and served as is (public, no key). */
export const openApiPlugin = globalPlugin("openapi", async (app) => {
  const file = createRequire(import.meta.url).resolve("@gmi/contract/openapi.json");
  const document = readFileSync(file, "utf8");
  app.get("/api/v1/openapi.json", async (_request, reply) =>
    reply.type("application/json; charset=utf-8").send(document),
  );
});
