import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../helpers/app.js";
import { startTestApp } from "../helpers/app.js";
import { CHROMIUM, launchChromium } from "../helpers/chromium.js";
import { useTestDatabase } from "../helpers/setup.js";

/**
 * The API reference in a real browser: Debian's Chromium, headless, driven by playwright-core
 * (never `playwright install`: no browser download). Without Chromium the test is skipped on a
 * developer machine and fails in CI, which installs it (.ci/run).
 */
const ARTIFACT = fileURLToPath(new URL("../../../../test-artifacts/docs.png", import.meta.url));
const haveChromium = existsSync(CHROMIUM);

type Operation = { method: string; path: string; summary: string };
const openApi = createRequire(import.meta.url)("@gmi/contract/openapi.json") as {
  paths: Record<string, Record<string, { summary: string }>>;
};
const operations: Operation[] = Object.entries(openApi.paths).flatMap(([p, methods]) =>
  Object.entries(methods).map(([method, op]) => ({ method, path: p, summary: op.summary })),
);

/** What a reader sees (Playwright's rendered text, not the DOM's textContent, which includes hidden nodes). */
// biome-ignore lint/performance/useDomNodeTextContent: Playwright's locator API, not the DOM property
const visibleText = (page: Page) => page.locator("body").innerText();

it.runIf(!haveChromium && process.env.CI === "true")("Chromium is installed in CI", () => {
  expect.fail(`${CHROMIUM} is missing: .ci/run installs it with apt-get`);
});

describe.skipIf(!haveChromium)("the API reference at /docs, in Chromium", () => {
  const db = useTestDatabase({ catalog: false });
  let server: TestApp;
  let base: string;
  let userDataDir: string;
  let context: BrowserContext;
  let page: Page;
  const foreignRequests: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    server = await startTestApp(db().pool);
    base = await server.app.listen({ host: "127.0.0.1", port: 0 });
    userDataDir = await mkdtemp(path.join(tmpdir(), "gmi-chromium-"));
    context = await launchChromium(userDataDir, { width: 1440, height: 900 });
    page = context.pages()[0] ?? (await context.newPage());
    page.on("request", (request) => {
      const url = request.url();
      if (!url.startsWith(base) && !url.startsWith("data:") && !url.startsWith("blob:")) {
        foreignRequests.push(url);
      }
    });
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    // Generous bounds: on a loaded 2-core machine the renderer's first load took over 30 s.
    await page.goto(`${base}/docs`, { waitUntil: "load", timeout: 90_000 });
    // The page is rendered in the browser from the OpenAPI document: wait for the document's title.
    await page
      .getByRole("heading", { name: "Game Market Intelligence API" })
      .first()
      .waitFor({ timeout: 60_000 });
    await page
      .getByText(operations.at(-1)?.summary ?? "", { exact: true })
      .first()
      .waitFor({ timeout: 60_000 });
  }, 240_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  });

  it("lists every endpoint of the contract", async () => {
    expect(page.url()).toBe(`${base}/docs/`);
    const missing: string[] = [];
    for (const op of operations) {
      if ((await page.getByText(op.summary, { exact: true }).count()) === 0) {
        missing.push(`${op.method.toUpperCase()} ${op.path} (${op.summary})`);
      }
    }
    expect(missing).toEqual([]);
    expect(operations.length).toBeGreaterThanOrEqual(18);
  });

  it("shows the bearer authentication scheme and the error codes table", async () => {
    const text = await visibleText(page);
    // The scheme from components.securitySchemes, preselected in the authentication panel.
    expect(text).toContain("bearerAuth");
    expect(text).toMatch(/Bearer Token/i);
    expect(text).toContain("Authorization: Bearer <API key>");
    for (const code of [
      "unauthorized",
      "insufficient_scope",
      "rate_limit_exceeded",
      "idempotency_key_reuse",
    ]) {
      await expect.poll(() => page.locator("td", { hasText: code }).count()).toBeGreaterThan(0);
    }
  });

  it("shows the curl example of an operation", async () => {
    const batch = operations.find((op) => op.path === "/api/v1/signals/batch");
    if (!batch) throw new Error("the contract has no signals batch");
    await page.getByText(batch.summary, { exact: true }).first().click();
    await expect
      .poll(async () => page.getByText("curl", { exact: false }).count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await expect
      .poll(async () => (await visibleText(page)).includes("$GMI_API_KEY"), {
        timeout: 15_000,
      })
      .toBe(true);
  });

  it("shows readable tags, parameter texts and the contract's examples, not placeholders", async () => {
    const text = await visibleText(page);
    expect(text).toContain("Search demand");
    expect(text).not.toContain("demandIntent");
    await page.getByText("Liquidity profile of one game", { exact: true }).first().click();
    await expect
      .poll(async () => (await visibleText(page)).includes("How many days up to"), {
        timeout: 15_000,
      })
      .toBe(true);
    await expect
      .poll(async () => (await visibleText(page)).includes('"Chrono Trigger"'), { timeout: 15_000 })
      .toBe(true);
    expect(await visibleText(page)).not.toMatch(/"rank": 0\b/);
  });

  it("shows ids as int32, not a maximum of 2147483647", async () => {
    await page.getByText("Liquidity profile of one game", { exact: true }).first().click();
    await expect
      .poll(async () => (await visibleText(page)).includes("int32"), { timeout: 15_000 })
      .toBe(true);
    expect(await visibleText(page)).not.toContain("2147483647");
  });

  it("writes the plan limits readably: whole words and figures, thousands separators, nothing cut off", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const limits = page.locator(".introduction-description .markdown table", { hasText: "Monthly quota" });
    await limits.scrollIntoViewIfNeeded();
    const layout = await limits.evaluate((table) => {
      // A cell's lines: one per distinct top of its text's boxes.
      const cells = [...table.querySelectorAll("th, td")];
      const lines = (cell: (typeof cells)[number]) => {
        const range = table.ownerDocument.createRange();
        range.selectNodeContents(cell);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      };
      return {
        hidden: table.scrollWidth - table.clientWidth,
        split: cells
          .filter((cell) => lines(cell) > (cell.textContent ?? "").trim().split(/\s+/).length)
          .map((cell) => cell.textContent),
      };
    });
    expect(layout).toEqual({ hidden: 0, split: [] });
    // biome-ignore lint/performance/useDomNodeTextContent: what a reader sees, as rendered
    const text = await limits.innerText();
    for (const figure of ["1,000", "20,000", "2,500,000", "2,000,000", "unmetered"])
      expect(text).toContain(figure);
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it("lets every response tab of an operation be seen and chosen, 503 included", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const batch = operations.find((op) => op.path === "/api/v1/intelligence/batch");
    if (!batch) throw new Error("the contract has no intelligence batch");
    await page.getByText(batch.summary, { exact: true }).first().click();
    const section = page
      .locator("section", { has: page.getByRole("heading", { name: batch.summary }) })
      .last();
    const tabs = section.locator(".tab-list").first();
    await tabs.waitFor();
    const layout = await tabs.evaluate((list) => {
      const box = list.getBoundingClientRect();
      return {
        hidden: list.scrollWidth - list.clientWidth,
        outside: [...list.querySelectorAll('[role="tab"]')]
          .filter((tab) => tab.getBoundingClientRect().right > box.right + 1)
          .map((tab) => tab.textContent),
        count: list.querySelectorAll('[role="tab"]').length,
      };
    });
    expect(layout).toMatchObject({ hidden: 0, outside: [] });
    expect(layout.count).toBeGreaterThanOrEqual(10);
    await tabs.getByRole("tab", { name: /503/ }).click();
    // biome-ignore lint/performance/useDomNodeTextContent: the chosen tab's panel, as rendered
    await expect.poll(() => section.innerText(), { timeout: 15_000 }).toContain("service_unavailable");
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it("loads nothing from other hosts and breaks no rule of its content policy", async () => {
    expect(foreignRequests).toEqual([]);
    expect(consoleErrors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
  });

  it("saves a screenshot as a test artifact", async () => {
    await mkdir(path.dirname(ARTIFACT), { recursive: true });
    await page.getByText("Game Market Intelligence API").first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: ARTIFACT });
    expect(existsSync(ARTIFACT)).toBe(true);
  });
});
