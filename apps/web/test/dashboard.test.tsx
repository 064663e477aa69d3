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
    // Colours by place in the scope, with their legend: the best rows are in the top 10 %.
    expect(
      (await screen.findByText(/^Score colours, among the \d+ games with demand/)).textContent,
    ).toContain("on all consoles, last 7 days");
    await waitFor(() => expect(rows[0]?.querySelector(".score")?.getAttribute("data-band")).toBe("top10"));

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

describe("score colours", () => {
  it("colours each score by its place among the scope's scores: top 10 %, top half, lower half", async () => {
    const scores = gmi.fixtures.liquidity.map((r) => r.liquidity_score).sort((a, b) => b - a);
    const cut = (share: number) => scores[Math.ceil(scores.length * share) - 1] ?? 0;
    const expected = (score: number) =>
      score >= cut(0.1) ? "top10" : score >= cut(0.5) ? "topHalf" : "lowerHalf";
    const bands = async () => {
      const rows = await leaderboardRows();
      await waitFor(() => expect(rows[0]?.querySelector(".score")?.getAttribute("data-band")).toBeTruthy());
      return rows.map((row) => {
        const badge = row.querySelector(".score");
        return [Number(badge?.textContent), badge?.getAttribute("data-band")];
      });
    };
    render(<App initial={credentials} />);
    for (const [score, band] of await bands()) expect(band).toBe(expected(Number(score)));
    // The last page: the lower half, however high its numbers (the fixture's scores are relative).
    const lastPage = Math.ceil(scores.length / 20);
    while (!screen.queryByText(new RegExp(`^Page ${lastPage} of`))) {
      fireEvent.click(screen.getByRole("button", { name: "Next →" }));
      await screen.findByText(/^Page \d+ of/);
    }
    const last = await bands();
    for (const [score, band] of last) expect(band).toBe(expected(Number(score)));
    expect(last.some(([, band]) => band === "lowerHalf")).toBe(true);
  });
});

describe("a game's page", () => {
  it("shows the score and its place, the condition advice, the price and the history charts", async () => {
    const game = gmi.fixtures.profiles.get(101);
    location.hash = "#/game/101";
    render(<App initial={credentials} />);
    expect(await screen.findByRole("heading", { name: game?.game.name })).toBeTruthy();
    const score = screen.getByRole("heading", { name: "Liquidity score" }).parentElement;
    expect(score?.textContent).toContain(String(game?.liquidity_score));
    // Coloured by its place among the period's scores, once those are known.
    await waitFor(() => expect(score?.querySelector(".score")?.getAttribute("data-band")).toBeTruthy());
    expect(await screen.findByText(/#\d+ of [\d,]+ on the leaderboard \(top \d+ %\)/)).toBeTruthy();
    expect(await screen.findByText(/^List it|No catalog price|Too little demand/)).toBeTruthy();
    const charts = await screen.findAllByRole("img", {}, { timeout: 5_000 });
    expect(charts.map((c) => c.getAttribute("aria-label"))).toEqual([
      "Catalog price, 30 days",
      "Liquidity score, 30 days",
      "Demand index, 30 days",
      "Redirects per day, 30 days",
      "Distinct buyers per day, 30 days",
      "Watchlist alerts active each day, 30 days",
    ]);
    expect(screen.getByRole("table", { name: /^Catalog price on 2026-11-20/ })).toBeTruthy();
    fireEvent.click(screen.getByLabelText(/90 days/));
    await waitFor(() =>
      expect(screen.getAllByRole("img")[0]?.getAttribute("aria-label")).toBe("Catalog price, 90 days"),
    );
    expect(gmi.state.requests.at(-1)?.url).toContain("from=2026-08-23&to=2026-11-20");
  });

  it("shows how the price moved over 7 and 30 days", async () => {
    const game = gmi.fixtures.profiles.get(101);
    const move = (start: string, end: string, change: string, change_ratio: number) => ({
      start,
      end,
      change,
      change_ratio,
    });
    gmi.server.use(
      http.get(`${BASE_URL}/api/v1/intelligence/:id/history`, () =>
        HttpResponse.json({
          data: {
            game: game?.game,
            points: [],
            prices: [{ date: "2026-11-20", loose: "149.99", complete: "289.00", new: null }],
            price_changes: [
              {
                days: 7,
                since: "2026-11-13",
                loose: move("139.99", "149.99", "10.00", 0.0714),
                complete: move("289.00", "289.00", "0.00", 0),
                new: null,
              },
              {
                days: 30,
                since: "2026-10-21",
                loose: move("161.99", "149.99", "-12.00", -0.0741),
                complete: null,
                new: null,
              },
            ],
          },
          meta: { period: "day", from: "2026-11-20", to: "2026-11-20" },
        }),
      ),
    );
    location.hash = "#/game/101";
    render(<App initial={credentials} />);
    const table = await screen.findByRole(
      "table",
      { name: /^Catalog price on 2026-11-20/ },
      { timeout: 5_000 },
    );
    const cells = (name: string) =>
      within(table).getByRole("rowheader", { name }).closest("tr")?.querySelectorAll("td");
    expect([...(cells("Loose") ?? [])].map((c) => c.textContent)).toEqual([
      "$149.99",
      "+$10.00 (+7.1 %)",
      "−$12.00 (−7.4 %)",
    ]);
    expect([...(cells("Complete") ?? [])].map((c) => c.textContent)).toEqual(["$289.00", "no change", "—"]);
    expect(screen.getByText("No computed days in this range yet.")).toBeTruthy();
  });

  it("says why there is no condition advice for a priced game", async () => {
    const game = gmi.fixtures.profiles.get(101);
    const row = (condition: string, price: string | null, score: number) => ({
      condition,
      price,
      demand: { redirects: 1, watch_count: 0, search_count: 0, share: 0.3333 },
      score,
    });
    gmi.server.use(
      http.get(`${BASE_URL}/api/v1/intelligence/:id/conditions`, () =>
        HttpResponse.json({
          data: {
            game: game?.game,
            recommended: null,
            conditions: [row("loose", "149.99", 72), row("cib", "289.00", 100), row("new", null, 0)],
            sample_size: 3,
            min_sample_size: 5,
          },
          meta: { period: "7d", period_date: "2026-11-20" },
        }),
      ),
    );
    location.hash = "#/game/101";
    render(<App initial={credentials} />);
    expect(
      (await screen.findByText(/^Too little demand to tell which condition sells/)).textContent,
    ).toContain("3 of the 5 redirects, watchlist alerts and searches needed, last 7 days");
    expect(screen.queryByText(/No catalog price/)).toBeNull();
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
    const flat = { loose: null, complete: null, new: null };
    gmi.server.use(
      http.get(`${BASE_URL}/api/v1/intelligence/:id/history`, () =>
        HttpResponse.json({
          data: {
            game: game?.game,
            points: [point],
            prices: [{ date: "2026-11-20", ...flat }],
            price_changes: [
              { days: 7, since: "2026-11-13", ...flat },
              { days: 30, since: "2026-10-21", ...flat },
            ],
          },
          meta: { period: "day", from: "2026-11-20", to: "2026-11-20" },
        }),
      ),
    );
    location.hash = "#/game/101";
    render(<App initial={credentials} />);
    expect(await screen.findByText(/Only one computed day so far/)).toBeTruthy();
    expect(screen.getAllByRole("img")[1]?.getAttribute("aria-label")).toBe("Liquidity score, 1 day");
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
    // The rank the API gives is by volume, not the list's order: its column says so.
    expect(await screen.findByRole("columnheader", { name: "Volume rank" })).toBeTruthy();
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
    expect(screen.getByTestId("limit-badge").textContent).toMatch(/^\d+ of 120 left this minute$/);
  });
});
