import { installGmiMocks } from "@gmi/sdk/msw";
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { App } from "../src/App.js";

/**
 * The dashboard against the SDK's own msw handlers: the same fixtures and failure scenarios the SDK
 * promises frontends, so these tests break if the mocks and the UI drift apart.
 */
const BASE_URL = "https://api.gmi.test";
// Two cores shared with the rest of `pnpm test`: a page's calls may take longer than 1 s to settle.
configure({ asyncUtilTimeout: 8_000 });
const gmi = installGmiMocks(setupServer, { baseUrl: BASE_URL, plan: "starter" });
const credentials = { apiKey: "gmi_live_test", baseUrl: BASE_URL };
beforeAll(() => gmi.server.listen({ onUnhandledFrame: "error" }));
beforeEach(() => {
  location.hash = "#/leaderboard";
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  gmi.reset();
});
afterAll(() => gmi.server.close());

const leaderboardRows = async () => {
  const table = await screen.findByRole("table", {}, { timeout: 5_000 });
  return within(table).getAllByRole("row").slice(1);
};

describe("signing in", () => {
  it("asks for a key, keeps it in memory only unless asked, and shows the leaderboard", async () => {
    render(<App initial={null} />);
    fireEvent.click(screen.getByRole("button", { name: "Open the dashboard" }));
    expect(screen.getByRole("alert").textContent).toMatch(/Enter your API key/);
    fireEvent.change(screen.getByLabelText("API key"), { target: { value: "gmi_live_abc" } });
    fireEvent.change(screen.getByLabelText("API address"), { target: { value: `${BASE_URL}/` } });
    fireEvent.click(screen.getByRole("button", { name: "Open the dashboard" }));
    expect((await leaderboardRows()).length).toBe(20);
    expect(sessionStorage.length).toBe(0);
    const sent = gmi.state.requests.find((r) => r.route === "intelligence.list");
    expect(sent?.url).toContain(`${BASE_URL}/api/v1/intelligence?`);
  });

  it("keeps the key in sessionStorage when ticked, and forgets it on sign-out", async () => {
    render(<App initial={null} />);
    fireEvent.change(screen.getByLabelText("API key"), { target: { value: "gmi_live_abc" } });
    fireEvent.change(screen.getByLabelText("API address"), { target: { value: BASE_URL } });
    fireEvent.click(screen.getByLabelText(/Keep the key for this tab/));
    fireEvent.click(screen.getByRole("button", { name: "Open the dashboard" }));
    await leaderboardRows();
    expect(sessionStorage.getItem("gmi.credentials")).toContain("gmi_live_abc");
    fireEvent.click(screen.getByRole("button", { name: "Sign out" }));
    expect(sessionStorage.getItem("gmi.credentials")).toBeNull();
    expect(screen.getByLabelText("API key")).toBeTruthy();
  });
});

describe("the leaderboard", () => {
  it("ranks by score, filters by console and pages with the plan's page size", async () => {
    render(<App initial={credentials} />);
    const rows = await leaderboardRows();
    expect(rows[0]?.textContent).toMatch(/^1/);
    const scores = rows.map((row) => Number(row.querySelector(".score")?.textContent));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(screen.getByText(/Page 1 of/)).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Next →" }));
    await screen.findByText(/Page 2 of/);
    expect(gmi.state.requests.at(-1)?.url).toContain("page=2");

    const consoleSelect = screen.getByLabelText("Console") as HTMLSelectElement;
    await waitFor(() => expect(consoleSelect.options.length).toBeGreaterThan(1));
    const option = consoleSelect.options[1] as HTMLOptionElement;
    fireEvent.change(consoleSelect, { target: { value: option.value } });
    await screen.findByText(/Page 1 of/);
    for (const row of await leaderboardRows()) expect(row.textContent).toContain(option.textContent);
    expect(gmi.state.requests.at(-1)?.url).toContain(`console_id=${option.value}`);
  });
});

describe("a game's page", () => {
  it("shows the score, its parts, the condition advice and five history charts", async () => {
    const game = gmi.fixtures.profiles.get(101);
    location.hash = "#/game/101";
    render(<App initial={credentials} />);
    expect(await screen.findByRole("heading", { name: game?.game.name })).toBeTruthy();
    expect(screen.getByText("Liquidity score").parentElement?.textContent).toContain(
      String(game?.liquidity_score),
    );
    expect(await screen.findByText(/^List it|No catalog price/)).toBeTruthy();
    const charts = await screen.findAllByRole("img", {}, { timeout: 5_000 });
    expect(charts.map((c) => c.getAttribute("aria-label"))).toEqual([
      "Liquidity score, 30 days",
      "Demand index, 30 days",
      "Redirects, 30 days",
      "Distinct buyers, 30 days",
      "Watchlist alerts, 30 days",
    ]);
    fireEvent.click(screen.getByLabelText(/90 days/));
    await waitFor(() =>
      expect(screen.getAllByRole("img")[0]?.getAttribute("aria-label")).toBe("Liquidity score, 90 days"),
    );
    expect(gmi.state.requests.at(-1)?.url).toContain("from=2026-08-23&to=2026-11-20");
  });

  it("explains a history of a single computed day (a fresh install rolls up one date)", async () => {
    const game = gmi.fixtures.profiles.get(101);
    const point = {
      date: "2026-11-20",
      liquidity_score: 70,
      demand_index: 0.5,
      redirects: 3,
      distinct_users: 2,
      watch_count: 1,
      search_count: 4,
    };
    gmi.server.use(
      http.get(`${BASE_URL}/api/v1/intelligence/:id/history`, () =>
        HttpResponse.json({
          data: { game: game?.game, points: [point] },
          meta: { period: "day", from: "2026-10-22", to: "2026-11-20" },
        }),
      ),
    );
    location.hash = "#/game/101";
    render(<App initial={credentials} />);
    expect(await screen.findByText(/Only one computed day so far/)).toBeTruthy();
    expect(screen.getAllByRole("img")[0]?.getAttribute("aria-label")).toBe("Liquidity score, 1 day");
  });

  it("says so for an unknown game", async () => {
    location.hash = "#/game/999999";
    render(<App initial={credentials} />);
    expect((await screen.findByRole("alert")).textContent).toMatch(/Not found/);
  });
});

describe("failures a seller must understand", () => {
  it("429: counts down the Retry-After, then retries by itself", async () => {
    gmi.scenarios.rateLimited({ retryAfter: 2, routes: ["intelligence.list"] });
    render(<App initial={credentials} />);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toMatch(/Too many requests/);
    expect(alert.querySelector(".countdown")?.textContent).toBe("2");
    await waitFor(() => expect(alert.querySelector(".countdown")?.textContent).toBe("1"), { timeout: 2_000 });
    expect((await leaderboardRows()).length).toBe(20);
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("402: the quota is used up, with when it resets", async () => {
    gmi.scenarios.quotaExceeded({ resetsIn: 90_000 });
    render(<App initial={credentials} />);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toMatch(/Monthly quota used up/);
    expect(alert.textContent).toMatch(/resets in 1 d 1 h/);
  });

  it("401: the key is refused, and the user is led back to the key form", async () => {
    gmi.scenarios.expiredKey();
    render(<App initial={credentials} />);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toMatch(/This API key was not accepted/);
    fireEvent.click(within(alert).getByRole("button", { name: "Enter another key" }));
    expect(screen.getByLabelText("API key")).toBeTruthy();
  });

  it("5xx: explains, quotes the request id, and a retry recovers", async () => {
    gmi.scenarios.serverErrors({ times: 1, routes: ["intelligence.list"] });
    render(<App initial={credentials} />);
    const alert = await screen.findByRole("alert", {}, { timeout: 10_000 });
    expect(alert.textContent).toMatch(/The service had a problem/);
    expect(alert.textContent).toMatch(/Request id: [0-9a-f-]{36}/);
    fireEvent.click(within(alert).getByRole("button", { name: "Try again" }));
    expect((await leaderboardRows()).length).toBe(20);
  });
});

describe("search demand and the account", () => {
  it("lists unmet searches by the share without results", async () => {
    location.hash = "#/unmet";
    render(<App initial={credentials} />);
    expect(await screen.findByRole("heading", { name: "Unmet searches" })).toBeTruthy();
    const shares = (await leaderboardRows()).map((row) =>
      Number(row.children[3]?.textContent?.replace(" %", "")),
    );
    expect(shares).toEqual([...shares].sort((a, b) => b - a));
  });

  it("shows the plan, the day's and the month's usage, and the minute window from the rate-limit headers", async () => {
    location.hash = "#/account";
    render(<App initial={credentials} />);
    expect(await screen.findByRole("heading", { name: "Plan: Starter" })).toBeTruthy();
    // The day from /me's usage.day, not from the headers (which are the minute window's).
    const day = screen.getByTestId("day-usage");
    expect(day.textContent).toMatch(/^Today\d[\d,]*of 20,000 used today \(UTC\), resets in \d/);
    const window = await screen.findByTestId("rate-limit");
    expect(window.textContent).toMatch(/of 120 requests left/);
    expect(screen.getByTestId("limit-badge").textContent).toMatch(/\/120 this minute/);
  });
});
