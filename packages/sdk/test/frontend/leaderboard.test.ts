// @vitest-environment happy-dom
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AuthenticationError, GmiClient, PermissionError, RateLimitError } from "../../src/index.js";
import { installGmiMocks } from "../../src/msw/index.js";

/**
 * The intended use of `@gmi/sdk/msw` in a frontend test: one call installs handlers for the whole
 * API; each test then picks the situation its component must face.
 */
const gmi = installGmiMocks(setupServer, { baseUrl: "https://api.example.test", plan: "starter" });
beforeAll(() => gmi.server.listen({ onUnhandledFrame: "error" }));
afterEach(() => gmi.reset());
afterAll(() => gmi.server.close());

/** A small component: the five most liquid titles of a console, or a message a seller can act on. */
async function renderLeaderboard(root: HTMLElement, client: GmiClient, consoleId: number) {
  const status = document.createElement("p");
  status.setAttribute("role", "status");
  status.textContent = "Loading…";
  root.replaceChildren(status);
  try {
    const page = await client.intelligence.list({ console_id: consoleId, limit: 5 });
    const list = document.createElement("ol");
    for (const row of page.data) {
      const item = document.createElement("li");
      item.dataset.gameId = String(row.game.id);
      item.textContent = `${row.game.name}: ${row.liquidity_score}`;
      list.append(item);
    }
    root.replaceChildren(list);
  } catch (error) {
    const alert = document.createElement("p");
    alert.setAttribute("role", "alert");
    if (error instanceof RateLimitError)
      alert.textContent = `Too many requests, try again in ${error.retryAfter} s`;
    else if (error instanceof AuthenticationError) alert.textContent = "Your API key has expired";
    else if (error instanceof PermissionError)
      alert.textContent = `This key needs ${error.details?.required_scope}`;
    else alert.textContent = "Something went wrong";
    root.replaceChildren(alert);
  }
}

// A dashboard whose user pasted their own key: the one case the browser guard is meant to let through.
const client = () =>
  new GmiClient({
    apiKey: "gmi_demo_key",
    baseUrl: "https://api.example.test",
    maxRetryAfterMs: 2_000,
    dangerouslyAllowBrowser: true,
  });

describe("leaderboard component", () => {
  it("is refused a client without the browser opt-in", () => {
    expect(() => new GmiClient({ apiKey: "k", baseUrl: "https://api.example.test" })).toThrow(
      /dangerouslyAllowBrowser/,
    );
  });

  it("renders the top titles of a console", async () => {
    const root = document.createElement("div");
    document.body.append(root);
    await renderLeaderboard(root, client(), 1);
    const items = root.querySelectorAll("li");
    expect(items).toHaveLength(5);
    expect(items[0]?.textContent).toMatch(/^.+: \d+$/);
    expect(root.querySelector("[role=alert]")).toBeNull();
  });

  it("tells the seller to wait when rate limited", async () => {
    gmi.scenarios.rateLimited({ retryAfter: 30 });
    const root = document.createElement("div");
    await renderLeaderboard(root, client(), 1);
    expect(root.querySelector("[role=alert]")?.textContent).toBe("Too many requests, try again in 30 s");
  });

  it("an expired key and a missing scope", async () => {
    const root = document.createElement("div");
    gmi.scenarios.expiredKey();
    await renderLeaderboard(root, client(), 1);
    expect(root.textContent).toBe("Your API key has expired");
    gmi.reset();
    gmi.scenarios.missingScope("intelligence.read");
    await renderLeaderboard(root, client(), 1);
    expect(root.textContent).toBe("This key needs intelligence.read");
  });

  it("a short 5xx burst never reaches the screen", async () => {
    gmi.scenarios.serverErrors({ times: 2 });
    const root = document.createElement("div");
    await renderLeaderboard(
      root,
      new GmiClient({
        apiKey: "k",
        baseUrl: "https://api.example.test",
        backoff: { baseDelayMs: 1 },
        dangerouslyAllowBrowser: true,
      }),
      2,
    );
    expect(root.querySelectorAll("li")).toHaveLength(5);
  });
});
