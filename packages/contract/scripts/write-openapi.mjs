// Build step: writes dist/openapi.json from the built contract, so the server and docs serve a file
// (compact: it is read by tools; `jq . dist/openapi.json` pretty-prints it).
import { readFileSync, writeFileSync } from "node:fs";
import { buildOpenApiDocument } from "../dist/openapi.js";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const document = buildOpenApiDocument(version);
writeFileSync(new URL("../dist/openapi.json", import.meta.url), `${JSON.stringify(document)}\n`);
