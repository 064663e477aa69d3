import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AxeBuilder } from "@axe-core/playwright";
import type { BrowserContext, Page, Response } from "playwright-core";
import type { ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium } from "../../../server/test/helpers/chromium.js";
import { startDevServer } from "../../scripts/dev.js";

/**
 * `pnpm dev:web --mock` as a frontend developer meets it: Vite's dev server in mock mode and no API
 * server at all. Every `/api` answer must come from msw's service worker (the SDK's handlers in the
 * page); the dev server has no proxy in this mode, so a request the worker missed would fail. The
 * leaderboard, a game's page, and the scenarios a developer picks by address or with the panel: the
 * 429's countdown that retries by itself, the 402, a 5xx burst. Screenshots in
 * test-artifacts/dashboard-mock/.
 */
const SHOTS = fileURLToPath(new URL("../../../../test-artifacts/dashboard-mock/", import.meta.url));
const haveChromium = existsSync(CHROMIUM);

describe.skipIf(!haveChromium)("the dashboard in mock mode, with no server", () => {
  let vite: ViteDevServer;
  let origin: string;
  let profile: string;
  let context: BrowserContext;
  let page: Page;
  const apiAnswers: Response[] = [];
  const pageErrors: string[] = [];

  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  const open = async (search: string, hash = "#/leaderboard") => {
    // From a blank page: a full load every time, even where only the hash would differ.
    await page.goto("about:blank");
    apiAnswers.splice(0);
    await page.goto(`${origin}/app/${search}${hash}`, { waitUntil: "load" });
  };
  const rows = () => page.locator("table tbody tr");

  beforeAll(async () => {
    await rm(SHOTS, { recursive: true, force: true });
    await mkdir(SHOTS, { recursive: true });
    vite = await startDevServer({ mock: true, port: 0, host: "127.0.0.1" });
    origin = new URL(vite.resolvedUrls?.local[0] ?? "").origin;
    profile = await mkdtemp(path.join(tmpdir(), "gmi-web-mock-chromium-"));
    context = await launchChromium(profile, { width: 1280, height: 860 });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(30_000);
    page.on("response", (response) => {
      if (new URL(response.url()).pathname.startsWith("/api/")) apiAnswers.push(response);
    });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    // A cold dev server bundles the dependencies and compiles each module on the first visit: done
    // here, under the hook's time-out, so the tests below time a warm page.
    await page.goto(`${origin}/app/`, { waitUntil: "load" });
    await rows().first().waitFor({ timeout: 180_000 });
  });

  afterAll(async () => {
    await context?.close();
    await vite?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it("shows the leaderboard, answered by msw's service worker", async () => {
    await open("");
    await rows().first().waitFor();
    expect(await rows().count()).toBe(20);
    await page.getByText(/^Page 1 of \d+/).waitFor();
    await page.getByRole("form", { name: "Mock API" }).waitFor();
    await shot("01-leaderboard");
    expect(apiAnswers.length).toBeGreaterThan(0);
    expect(apiAnswers.filter((a) => !a.fromServiceWorker()).map((a) => a.url())).toEqual([]);
    expect(apiAnswers.every((a) => a.status() === 200)).toBe(true);
    const axe = await new AxeBuilder({ page }).analyze();
    expect(
      axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id),
    ).toEqual([]);
    // The panel fits a phone's screen too.
    await page.setViewportSize({ width: 390, height: 844 });
    await shot("01-leaderboard-390");
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it("opens a game's page from the leaderboard", async () => {
    const first = page.locator("table tbody tr td:nth-child(2) a").first();
    const name = (await first.textContent()) ?? "";
    await first.click();
    await page.getByRole("heading", { name, level: 2 }).waitFor();
    await page.locator("figure.chart svg").first().waitFor();
    await page.getByText(/#1 of [\d,]+ on the leaderboard/).waitFor();
    await shot("02-game");
    expect(apiAnswers.some((a) => /\/api\/v1\/intelligence\/\d+$/.test(new URL(a.url()).pathname))).toBe(
      true,
    );
  });

  it("counts a 429 down from its Retry-After and retries by itself when the window ends", async () => {
    await open("?scenario=rate-limited&seconds=4");
    const countdown = page.locator(".notice .countdown");
    await page.getByText("Too many requests").waitFor();
    const first = Number(await countdown.textContent());
    expect(first).toBeGreaterThanOrEqual(2);
    expect(first).toBeLessThanOrEqual(4);
    await shot("03-rate-limited");
    const limited = apiAnswers.find((a) => a.status() === 429);
    expect(limited?.headers()["retry-after"]).toMatch(/^[1-4]$/);
    expect(await limited?.json()).toMatchObject({ error: { code: "rate_limit_exceeded" } });
    // It counts down, then the page asks again and the window has ended.
    await expect
      .poll(async () => Number(await countdown.textContent()), { timeout: 5_000 })
      .toBeLessThan(first);
    await rows().first().waitFor({ timeout: 15_000 });
    expect(await page.getByText("Too many requests").count()).toBe(0);
    await shot("04-rate-limited-recovered");
  });

  it("shows a spent monthly quota (402) with when it resets", async () => {
    await open("?scenario=quota-exceeded");
    await page.getByText("Monthly quota used up").waitFor();
    expect(await page.locator(".notice").first().textContent()).toMatch(/it resets in 3 d\./);
    expect(apiAnswers.some((a) => a.status() === 402)).toBe(true);
    await shot("05-quota-exceeded");
  });

  it("picks a 5xx burst with the panel; Try again works once the burst is over", async () => {
    // The panel keeps the address's other settings: this burst lasts 5 s.
    await open("?seconds=5");
    await rows().first().waitFor();
    const panel = page.getByRole("form", { name: "Mock API" });
    await panel.getByLabel("Scenario").selectOption("server-errors");
    await panel.getByRole("button", { name: "Apply and reload" }).click();
    await page.waitForURL(/\?seconds=5&scenario=server-errors#/);
    await page.getByText("The service had a problem").waitFor();
    expect(await page.locator(".notice").first().textContent()).toMatch(/Request id: [0-9a-f-]{36}\./);
    expect(apiAnswers.some((a) => a.status() === 503)).toBe(true);
    await shot("06-server-errors");
    // "Try again" fails while the burst lasts, and answers once it is over.
    await expect
      .poll(
        async () => {
          const retry = page.getByRole("button", { name: "Try again" });
          if (await retry.count()) await retry.first().click();
          return rows().count();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(20);
  });

  it("throws nothing in the page", () => {
    expect(pageErrors).toEqual([]);
  });
});
