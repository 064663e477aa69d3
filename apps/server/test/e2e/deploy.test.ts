import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * CI builds the image with podman and runs it (scripts/deploy/image-check.sh), and also runs its
 * build script into a scratch folder (scripts/deploy/smoke.sh, seconds, no containers). Both prove
 * the image only while the Dockerfile builds through that very script and starts the very same
 * entry points: this keeps them in step, and the operations page in step with the configuration.
 */
const root = fileURLToPath(new URL("../../../../", import.meta.url));
const read = (file: string) => readFileSync(`${root}${file}`, "utf8");

const dockerfile = read("apps/server/Dockerfile");
const smoke = read("scripts/deploy/smoke.sh");
const compose = read("compose.yaml");
const toolchain = read("scripts/toolchain.sh");
const imageCheck = read("scripts/deploy/image-check.sh");
const instructions = dockerfile
  .replace(/\\\n\s*/g, " ")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith("#"));
const stages = instructions.reduce<Array<{ from: string; lines: string[] }>>((acc, line) => {
  if (line.startsWith("FROM ")) acc.push({ from: line, lines: [] });
  else acc.at(-1)?.lines.push(line);
  return acc;
}, []);
const [build, runtime] = stages;

describe("the Dockerfile and the CI smoke build the same thing", () => {
  it("has a build stage that runs build-image-contents.sh and a runtime stage that copies its folder", () => {
    expect(stages).toHaveLength(2);
    const run = build?.lines.find((l) => l.includes("scripts/deploy/build-image-contents.sh"));
    const out = run?.match(/build-image-contents\.sh\s+(\S+)$/)?.[1];
    expect(out, "RUN bash scripts/deploy/build-image-contents.sh <folder>").toBeTruthy();
    expect(runtime?.lines).toContain(`COPY --from=build ${out} /app`);
    // Nothing else is copied into the runtime: the folder is the whole image content.
    expect(runtime?.lines.filter((l) => l.startsWith("COPY ") || l.startsWith("ADD "))).toHaveLength(1);
  });

  it("is smoke-tested through the same script and the same entry points", () => {
    expect(smoke).toContain('bash "$root/scripts/deploy/build-image-contents.sh" "$app"');
    expect(runtime?.lines).toContain('CMD ["node", "dist/main.js"]');
    expect(smoke).toContain("run node dist/main.js");
    // `gmi` in the image is bin/gmi on PATH; the smoke migrates and creates keys with it.
    expect(runtime?.lines.some((l) => /^ENV .*PATH=\/app\/bin:\$PATH/.test(l))).toBe(true);
    expect(smoke).toContain("run bin/gmi migrate");
    expect(compose).toMatch(/command: \["gmi", "migrate"\]/);
    expect(smoke).toMatch(/NODE_ENV=production/);
    expect(runtime?.lines.some((l) => /^ENV .*NODE_ENV=production/.test(l))).toBe(true);
  });

  it("uses the toolchain's Node.js and pnpm versions", () => {
    const node = toolchain.match(/^NODE_VERSION=(\S+)$/m)?.[1];
    const pnpm = toolchain.match(/^PNPM_VERSION=(\S+)$/m)?.[1];
    expect(instructions).toContain(`ARG NODE_VERSION=${node}`);
    expect(build?.lines).toContain(`ARG PNPM_VERSION=${pnpm}`);
    expect(JSON.parse(read("package.json")).packageManager).toBe(`pnpm@${pnpm}`);
    for (const stage of stages) expect(stage.from).toMatch(/^FROM node:\$\{NODE_VERSION\}-bookworm-slim AS /);
  });

  it("runs as a non-root user with a health check, and bakes in no secret", () => {
    expect(runtime?.lines).toContain("USER node");
    expect(runtime?.lines.some((l) => l.startsWith("HEALTHCHECK ") && l.includes("/healthz"))).toBe(true);
    const env = instructions.filter((l) => l.startsWith("ENV ") || l.startsWith("ARG ")).join(" ");
    expect(env).not.toMatch(/SECRET|TOKEN|PASSWORD|DATABASE_URL|REDIS_URL/);
    const ignored = read(".dockerignore").split("\n");
    for (const entry of [".git", ".tools", "**/node_modules", "**/.env", "**/.env.*"]) {
      expect(ignored).toContain(entry);
    }
  });

  it("deploys the bundle and the migrations the server reads at run time", () => {
    const pkg = JSON.parse(read("apps/server/package.json")) as { files?: string[] };
    expect(pkg.files).toEqual(expect.arrayContaining(["dist", "prisma"]));
  });
});

describe("the image check (scripts/deploy/image-check.sh)", () => {
  it("builds this Dockerfile as it is, keeping its HEALTHCHECK, and runs in CI", () => {
    expect(imageCheck).toMatch(
      /podman build --format docker [^\n]*\\\n[^\n]*\n\s+-f apps\/server\/Dockerfile -t "\$image" \./,
    );
    expect(read(".ci/run")).toContain("bash scripts/deploy/image-check.sh");
  });

  it("starts compose.yaml's services from compose.yaml itself", () => {
    for (const query of [
      "command redis",
      "command migrate",
      "replicas server",
      "config nginx",
      "published proxy",
    ]) {
      expect(imageCheck).toContain(`compose ${query}`);
    }
    expect(imageCheck).toContain('server_env="$(env_file server)"');
  });

  it("runs an image that names its own CLI and needs no writable folder", () => {
    expect(runtime?.lines.some((l) => /^ENV .*GMI_CLI_NAME=gmi/.test(l))).toBe(true);
    expect(runtime?.lines.some((l) => l.startsWith("RUN "))).toBe(false);
    expect(compose).toMatch(/x-server: &server\n(?:\s{2}.*\n)*?\s{2}read_only: true/);
  });
});

describe("compose.yaml", () => {
  it("runs two replicas behind one port, after an explicit migration, with secrets from outside", () => {
    expect(compose).toMatch(/dockerfile: apps\/server\/Dockerfile/);
    expect(compose).toMatch(/server:\n(?:\s{4}.*\n)*?\s{4}deploy:\n\s{6}replicas: 2/);
    expect(compose).toMatch(/migrate:\n\s{8}condition: service_completed_successfully/);
    expect(compose).toMatch(/CURSOR_SECRET: \$\{CURSOR_SECRET:\?/);
    expect(compose).toMatch(/POSTGRES_PASSWORD: \$\{POSTGRES_PASSWORD:\?/);
    expect(compose.match(/^\s+ports:/gm)).toHaveLength(1);
  });
});

describe("docs/operations.md", () => {
  it("documents every environment variable that config.ts reads", () => {
    const config = read("apps/server/src/config.ts");
    const schema = config.slice(
      config.indexOf("const EnvSchema"),
      config.indexOf("\n});", config.indexOf("const EnvSchema")),
    );
    const variables = [...schema.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]);
    expect(variables.length).toBeGreaterThan(10);
    const operations = read("docs/operations.md");
    const undocumented = variables.filter((v) => !operations.includes(`| \`${v}\` |`));
    expect(undocumented).toEqual([]);
  });
});
