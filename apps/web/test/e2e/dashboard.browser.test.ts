import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RealServer, startRealServer } from "../../../../packages/sdk/test/e2e/real-server.js";
import { CHROMIUM, launchChromium } from "../../../server/test/helpers/chromium.js";

/**
 * The built dashboard, served by the real server at /app, in Debian's Chromium (playwright-core,
 * no browser download): the server runs as a new user starts it, on a PostgreSQL database of its
 * own (TEST_DATABASE_URL) with the demo marketplace it generates on first start. Screenshots land
 * in test-artifacts/dashboard/ for a reviewer to open.
 */
const SHOTS = fileURLToPath(new URL("../../../../test-artifacts/dashboard/", import.meta.url));
const DIST = fileURLToPath(new URL("../../dist/index.html", import.meta.url));
const haveChromium = existsSync(CHROMIUM);
const adminUrl = process.env.TEST_DATABASE_URL;

it.runIf(!haveChromium && process.env.CI === "true")("Chromium is installed in CI", () => {
  expect.fail(`${CHROMIUM} is missing: .ci/run installs it with apt-get`);
});

describe.skipIf(!haveChromium)("the dashboard in Chromium against the real server", () => {
  let server: RealServer;
  let userDataDir: string;
  let context: BrowserContext;
  let page: Page;
  const foreignRequests: string[] = [];
  const consoleErrors: string[] = [];
  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    expect(existsSync(DIST), "build the dashboard first (turbo runs `build` before `test`)").toBe(true);
    await mkdir(SHOTS, { recursive: true });
    server = await startRealServer(adminUrl ? { postgresAdminUrl: adminUrl } : {});
    // The first start rolls up only the latest date; ten dates give the history charts a line.
    await server.gmi(["rollup", "--days", "10"]);
    userDataDir = await mkdtemp(path.join(tmpdir(), "gmi-web-chromium-"));
    context = await launchChromium(userDataDir, { width: 1280, height: 860 });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(15_000);
    page.on("request", (request) => {
      const url = request.url();
      if (!url.startsWith(server.baseUrl) && !url.startsWith("data:")) foreignRequests.push(url);
    });
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
  });

  afterAll(async () => {
    await context?.close();
    await server?.stop();
    if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  });

  it("refuses a wrong key with a way back to the key form", async () => {
    await page.goto(`${server.baseUrl}/app/`, { waitUntil: "load" });
    await page.getByRole("heading", { name: "Sign in with your API key" }).waitFor();
    await shot("01-key-form");
    await page.getByLabel("API key", { exact: true }).fill(`gmi_live_${"x".repeat(43)}`);
    await page.getByRole("button", { name: "Open the dashboard" }).click();
    await page.getByText("This API key was not accepted").waitFor();
    await shot("02-wrong-key");
    await page.getByRole("button", { name: "Enter another key" }).click();
    await page.getByLabel("API key", { exact: true }).waitFor();
    // The refused request was a real 401; it logs a network error in the console, which is expected.
    consoleErrors.splice(0);
  });

  it("signs in with the keyboard alone and shows the leaderboard", async () => {
    await page.getByLabel("API key", { exact: true }).focus();
    await page.keyboard.type(server.apiKey);
    await page.keyboard.press("Enter");
    const rows = page.locator("table tbody tr");
    await rows.first().waitFor();
    expect(await rows.count()).toBe(20);
    await expect.poll(() => page.getByTestId("limit-badge").textContent()).toMatch(/\d+\/\d+ this minute/);
    await shot("03-leaderboard");
  });

  it("filters by console and period, and pages", async () => {
    await page.getByLabel("Console").selectOption({ index: 1 });
    const chosen = (await page.getByLabel("Console").locator("option:checked").textContent()) ?? "";
    await page.getByLabel("Period").selectOption("30d");
    await expect
      .poll(async () => {
        const texts = await page.locator("table tbody tr td:nth-child(2) small").allTextContents();
        return texts.length > 0 && texts.every((t) => t === chosen);
      })
      .toBe(true);
    await page.getByLabel("Console").selectOption("");
    await page.getByText(/^Page 1 of/).waitFor();
    await page.getByRole("button", { name: "Next →" }).click();
    await page.getByText(/^Page 2 of/).waitFor();
    expect(await page.locator("table tbody tr").first().locator("td").first().textContent()).toBe("21");
  });

  it("opens a game: score, its parts, the condition advice and the history charts", async () => {
    await page.getByRole("button", { name: "← Previous" }).click();
    await page.getByText(/^Page 1 of/).waitFor();
    const first = page.locator("table tbody tr td:nth-child(2) a").first();
    const name = (await first.textContent()) ?? "";
    await first.click();
    await page.getByRole("heading", { name, level: 2 }).waitFor();
    await page.getByText(/^List it|No catalog price/).waitFor();
    const charts = page.locator("figure.chart svg");
    await charts.first().waitFor();
    expect(await charts.count()).toBe(5);
    // One point per computed date (the ten rolled up above).
    expect(await page.locator("figure.chart").first().locator("circle").count()).toBeGreaterThanOrEqual(10);
    expect(await page.getByText(/computed day so far/).count()).toBe(0);
    await shot("04-game");
  });

  it("lists trending and unmet searches", async () => {
    await page.getByRole("link", { name: "Trending" }).click();
    await page.getByRole("heading", { name: "Trending searches" }).waitFor();
    await page.locator("table tbody tr, p.empty").first().waitFor();
    await shot("05-trending");
    await page.getByRole("link", { name: "Unmet" }).click();
    await page.getByRole("heading", { name: "Unmet searches" }).waitFor();
    await page.locator("table tbody tr, p.empty").first().waitFor();
    await shot("06-unmet");
  });

  it("shows the account's plan, usage and the live minute window", async () => {
    await page.getByRole("link", { name: "Account" }).click();
    await page.getByRole("heading", { name: "Plan: Enterprise" }).waitFor();
    await page.getByTestId("rate-limit").waitFor();
    expect(await page.getByTestId("rate-limit").textContent()).toMatch(/requests left/);
    await shot("07-account");
  });

  it("is readable on a phone", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("link", { name: "Leaderboard" }).click();
    await page.locator("table tbody tr").first().waitFor();
    // Nothing wider than the screen but the table's own scroll box.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot("08-phone-leaderboard");
    await page.locator("table tbody tr td:nth-child(2) a").first().click();
    await page.locator("figure.chart svg").first().waitFor();
    await shot("09-phone-game");
  });

  it("loads nothing from other hosts and logs no error", () => {
    expect(foreignRequests).toEqual([]);
    expect(consoleErrors, consoleErrors.join("\n")).toEqual([]);
  });
});
