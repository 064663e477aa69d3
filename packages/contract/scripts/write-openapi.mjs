// Build step: writes openapi.json from the built contract, so the server and docs serve a file
// (compact: it is read by tools; `jq . openapi.json` pretty-prints it). At the package's root, not in
// dist/, so that `@gmi/contract/openapi.json` resolves without the exports map too (node10).
import { readFileSync, writeFileSync } from "node:fs";
import { buildOpenApiDocument } from "../dist/openapi.js";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const document = buildOpenApiDocument(version);
writeFileSync(new URL("../openapi.json", import.meta.url), `${JSON.stringify(document)}\n`);
