import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "./helpers/app.js";
import { startTestApp } from "./helpers/app.js";
import { useTestDatabase } from "./helpers/setup.js";

const db = useTestDatabase({ catalog: false });

describe("the dashboard at /app", () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "gmi-dashboard-"));
    await mkdir(path.join(dir, "assets"));
    await writeFile(path.join(dir, "index.html"), "<!doctype html><title>GMI</title>");
    await writeFile(path.join(dir, "assets", "index-abc123.js"), "console.log(1)");
    await writeFile(path.join(dir, "secret.txt.bak"), "outside the assets, still inside the build");
    await writeFile(path.join(path.dirname(dir), "gmi-dashboard-outside.txt"), "TOP-SECRET-CONTENT");
    t = await startTestApp(db().pool, { env: { DASHBOARD_DIR: dir } });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
    await rm(path.join(path.dirname(dir), "gmi-dashboard-outside.txt"), { force: true });
  });

  it("serves the page without a key, never cached, under a strict content policy", async () => {
    expect((await t.app.inject({ url: "/app" })).headers.location).toBe("/app/");
    const page = await t.app.inject({ url: "/app/" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.headers["cache-control"]).toBe("no-cache");
    expect(page.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(page.body).toContain("<title>GMI</title>");
  });

  it("caches hashed assets for a year and answers a missing asset 404", async () => {
    const asset = await t.app.inject({ url: "/app/assets/index-abc123.js" });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["content-type"]).toContain("text/javascript");
    expect(asset.headers["cache-control"]).toContain("immutable");
    expect((await t.app.inject({ url: "/app/assets/nope.js" })).statusCode).toBe(404);
  });

  it("answers the page for any other path, and never a file outside the build", async () => {
    expect((await t.app.inject({ url: "/app/game/101" })).body).toContain("<title>GMI</title>");
    const traversal = await t.app.inject({ url: "/app/../gmi-dashboard-outside.txt" });
    expect(traversal.body).not.toContain("TOP-SECRET-CONTENT");
    const encoded = await t.app.inject({ url: "/app/%2e%2e/gmi-dashboard-outside.txt" });
    expect(encoded.body).not.toContain("TOP-SECRET-CONTENT");
  });
});

describe("without a build", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(db().pool, { env: { DASHBOARD_DIR: path.join(tmpdir(), "gmi-no-such-build") } });
  });
  afterAll(() => t?.close());

  it("says how to build it", async () => {
    const response = await t.app.inject({ url: "/app/" });
    expect(response.statusCode).toBe(404);
    expect(response.body).toMatch(/pnpm build/);
  });
});
