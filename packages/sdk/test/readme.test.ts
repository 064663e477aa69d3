import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";

/** The README's TypeScript examples compile against the SDK as published names (`@gmi/sdk`). */
it("every ts block of the README type-checks", { timeout: 120_000 }, () => {
  const root = new URL("..", import.meta.url).pathname;
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  expect(blocks.length).toBeGreaterThanOrEqual(6);

  const dir = join(root, "test-artifacts", "readme");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // Each block is its own module (`export {}` keeps top-level await legal in the ones without exports).
  const files = blocks.map((code, i) => {
    const file = join(dir, `block-${i}.ts`);
    writeFileSync(file, `${code}\nexport {};\n`);
    return file;
  });

  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  );
  const program = ts.createProgram(files, { ...config?.options, noEmit: true });
  const problems = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && files.includes(d.file.fileName))
    .map(
      (d) => `${d.file?.fileName.split("/").pop()}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
    );
  expect(problems).toEqual([]);
});
