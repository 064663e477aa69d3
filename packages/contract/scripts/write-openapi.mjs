// Build step: writes dist/openapi.json from the built contract, so the server and docs serve a file.
import { readFileSync, writeFileSync } from "node:fs";
import { buildOpenApiDocument } from "../dist/openapi.js";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const document = buildOpenApiDocument(version);
writeFileSync(new URL("../dist/openapi.json", import.meta.url), `${JSON.stringify(document, null, 2)}\n`);
