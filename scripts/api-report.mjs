// The public API of the published packages, as API Extractor reports it from their built
// declarations: one report per entry point, checked in under packages/<name>/api/.
//   node scripts/api-report.mjs          fails when a report differs from the API (CI)
//   node scripts/api-report.mjs --update rewrites the reports (commit them with a changeset)
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Extractor, ExtractorConfig } from "@microsoft/api-extractor";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const update = process.argv.includes("--update");

/**
 * Every published entry point: package folder, declaration, report name. The SDK's are its built
 * declarations. The contract's are emitted by tsc here: tsup's bundled ones list the properties of
 * zod's inferred types in an order that changes from build to build (same source, three orders in
 * four builds), which would fail the check at random; tsc's are the same every time.
 */
const CONTRACT_DTS = "test-artifacts/api-dts";
export const ENTRIES = [
  ["packages/sdk", "dist/index.d.ts", "sdk"],
  ["packages/sdk", "dist/validate.d.ts", "sdk-validate"],
  ["packages/sdk", "dist/msw.d.ts", "sdk-msw"],
  ["packages/contract", `${CONTRACT_DTS}/src/index.d.ts`, "contract"],
  ["packages/contract", `${CONTRACT_DTS}/src/openapi.d.ts`, "contract-openapi"],
];

const contract = path.join(root, "packages/contract");
rmSync(path.join(contract, CONTRACT_DTS), { recursive: true, force: true });
const tsc = createRequire(path.join(contract, "package.json")).resolve("typescript/bin/tsc");
execFileSync(
  process.execPath,
  [
    tsc,
    "-p",
    contract,
    "--noEmit",
    "false",
    "--declaration",
    "--emitDeclarationOnly",
    "--outDir",
    path.join(contract, CONTRACT_DTS),
  ],
  { stdio: "inherit" },
);

let failed = 0;
for (const [pkg, entry, name] of ENTRIES) {
  const projectFolder = path.join(root, pkg);
  const tempFolder = path.join(root, "test-artifacts", "api-report");
  mkdirSync(tempFolder, { recursive: true });
  mkdirSync(path.join(projectFolder, "api"), { recursive: true });
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder,
      mainEntryPointFilePath: path.join(projectFolder, entry),
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            module: "nodenext",
            moduleResolution: "nodenext",
            target: "es2022",
            lib: ["es2023", "dom", "dom.iterable"],
            types: [],
            skipLibCheck: true,
          },
          files: [path.join(projectFolder, entry)],
        },
      },
      apiReport: {
        enabled: true,
        reportFileName: name,
        reportFolder: path.join(projectFolder, "api"),
        reportTempFolder: tempFolder,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        // Release tags (@public, @beta) are not how these packages mark what is public: the exports are.
        extractorMessageReporting: {
          "ae-missing-release-tag": { logLevel: "none", addToApiReportFile: false },
        },
      },
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: path.join(projectFolder, "package.json"),
  });
  const result = Extractor.invoke(config, {
    localBuild: update,
    showVerboseMessages: false,
    messageCallback: (m) => {
      // Only what concerns the report itself is worth a line here.
      if (m.category !== "Extractor" && m.logLevel !== "error") m.handled = true;
    },
  });
  if (result.apiReportChanged && !update) {
    failed++;
    console.error(`api-report: the public API of ${pkg} (${entry}) differs from ${pkg}/api/${name}.api.md`);
  } else if (!result.succeeded) {
    failed++;
    console.error(`api-report: API Extractor failed on ${pkg} (${entry})`);
  }
}
if (failed) {
  console.error(
    "api-report: run `./scripts/pnpm api:update`, review the report's diff, and add a changeset (`./scripts/pnpm changeset`).",
  );
  process.exit(1);
}
console.log(`api-report: ${ENTRIES.length} reports ${update ? "written" : "match the public API"}`);
