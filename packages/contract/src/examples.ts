import type {
  ConsoleRecord,
  GameRecord,
  LiquidityRow,
  SearchConditionRow,
  SearchRow,
} from "./common/rows.js";
import type { AccountRecord } from "./routes/account.js";
import type { GameConditionRow } from "./routes/demand-intent.js";
import type { ConditionRecommendation } from "./routes/intelligence.js";
import type { GameSignals } from "./routes/signals.js";

/**
 * Examples built from the spec's field tables: the OpenAPI document shows them, the contract tests
 * parse them, and the SDK's mocks start from them.
 */
export const examples = {
  liquidityRow: {
    rank: 1,
    game: {
      id: 101,
      name: "Chrono Trigger",
      slug: "chrono-trigger",
      console_id: 1,
      console_name: "Super Nintendo",
    },
    demand: { redirects: 412, distinct_users: 318, watch_count: 57, index: 0.94 },
    momentum: { value: 1.31, label: "rising" },
    pricing: { loose: "149.99", complete: "289.00", new: null },
    price_accessibility: 0.42,
    liquidity_score: 78,
  },
  searchRow: {
    rank: 1,
    query: "chrono trigger snes",
    search: {
      search_count: 930,
      pricing_count: 610,
      site_search_count: 320,
      distinct_users: 702,
      mobile_share: 0.71,
    },
    results: { avg_result_count: 11.4, zero_result_count: 12, zero_result_share: 0.013 },
    momentum: { value: 0.92, label: "steady" },
    demand_score: 100,
  },
  searchConditionRows: [
    {
      rank: 1,
      condition: "loose",
      search_count: 5200,
      condition_share: 0.52,
      distinct_users: 3100,
      mobile_share: 0.74,
    },
    {
      rank: 2,
      condition: "cib",
      search_count: 3000,
      condition_share: 0.3,
      distinct_users: 2050,
      mobile_share: 0.69,
    },
    {
      rank: 3,
      condition: "any",
      search_count: 1300,
      condition_share: 0.13,
      distinct_users: 990,
      mobile_share: 0.77,
    },
    {
      rank: 4,
      condition: "new",
      search_count: 500,
      condition_share: 0.05,
      distinct_users: 410,
      mobile_share: 0.61,
    },
  ],
  gameConditionRows: [
    {
      rank: 1,
      condition: "cib",
      search_count: 40,
      condition_share: 0.5,
      distinct_users: 31,
      mobile_share: 0.7,
      redirects: 220,
      watch_count: 30,
    },
    {
      rank: 2,
      condition: "loose",
      search_count: 30,
      condition_share: 0.375,
      distinct_users: 25,
      mobile_share: 0.8,
      redirects: 150,
      watch_count: 20,
    },
    {
      rank: 3,
      condition: "any",
      search_count: 10,
      condition_share: 0.125,
      distinct_users: 9,
      mobile_share: 0.6,
      redirects: 0,
      watch_count: 0,
    },
    {
      rank: 4,
      condition: "new",
      search_count: 0,
      condition_share: 0,
      distinct_users: 0,
      mobile_share: 0,
      redirects: 0,
      watch_count: 0,
    },
  ],
  conditionRecommendation: {
    game: {
      id: 101,
      name: "Chrono Trigger",
      slug: "chrono-trigger",
      console_id: 1,
      console_name: "Super Nintendo",
    },
    recommended: "cib",
    conditions: [
      {
        condition: "loose",
        price: "149.99",
        demand: { redirects: 150, watch_count: 20, search_count: 30, share: 0.38 },
        score: 61,
      },
      {
        condition: "cib",
        price: "289.00",
        demand: { redirects: 220, watch_count: 30, search_count: 40, share: 0.55 },
        score: 72,
      },
      {
        condition: "new",
        price: null,
        demand: { redirects: 30, watch_count: 4, search_count: 0, share: 0.07 },
        score: 0,
      },
    ],
    sample_size: 524,
    min_sample_size: 5,
  },
  gameSignals: {
    game_id: 101,
    found: true,
    game: {
      id: 101,
      name: "Chrono Trigger",
      slug: "chrono-trigger",
      console_id: 1,
      console_name: "Super Nintendo",
    },
    signals: { redirects: 412, distinct_users: 318, watch_count: 57, search_count: 930 },
    momentum: { value: 1.31, label: "rising" },
  },
  gameRecord: {
    id: 101,
    display_game_name: "Chrono Trigger",
    marketplace_game_name: "chrono-trigger",
    console_id: 1,
    console_name: "Super Nintendo",
    console_slug: "snes",
    prices: { loose: "149.99", complete: "289.00", new: null },
  },
  consoleRecord: { id: 1, name: "Super Nintendo", slug: "snes", game_count: 120 },
  accountRecord: {
    organization: { id: 7, name: "Pixel Resale Co", status: "active" },
    plan: {
      slug: "starter",
      name: "Starter",
      rate_limit_per_minute: 120,
      rate_limit_per_day: 20000,
      monthly_quota: 250000,
      max_batch_size: 50,
      max_page_size: 50,
    },
    api_key: { name: "inventory-sync", last_four: "9f3a", scopes: ["intelligence.read", "games.read"] },
    usage: { month: { used: 1834, quota: 250000, resets_in: 864000 } },
  },
} satisfies {
  liquidityRow: LiquidityRow;
  searchRow: SearchRow;
  searchConditionRows: SearchConditionRow[];
  gameConditionRows: GameConditionRow[];
  conditionRecommendation: ConditionRecommendation;
  gameSignals: GameSignals;
  gameRecord: GameRecord;
  consoleRecord: ConsoleRecord;
  accountRecord: AccountRecord;
};

const curl = (path: string, extra = "") =>
  `curl -H "Authorization: Bearer $GMI_API_KEY"${extra} "https://api.example.com${path}"`;
const post = (path: string, body: string) =>
  curl(path, ` -H "Content-Type: application/json" -H "Idempotency-Key: $(uuidgen)" -d '${body}'`);

/** One example request per route path, shown in the API reference. */
export const exampleRequests = {
  "/api/v1/intelligence": curl("/api/v1/intelligence?period=7d&sort=liquidity&console_id=1&limit=10"),
  "/api/v1/intelligence/:id": curl("/api/v1/intelligence/101?period=30d"),
  "/api/v1/intelligence/:id/conditions": curl("/api/v1/intelligence/101/conditions?period=30d"),
  "/api/v1/intelligence/:id/history": curl("/api/v1/intelligence/101/history?from=2026-10-01&to=2026-10-30"),
  "/api/v1/intelligence/batch": post(
    "/api/v1/intelligence/batch?period=7d",
    '{"requests":[{"game_id":101},{"game_id":102}]}',
  ),
  "/api/v1/demand-intent/searches": curl("/api/v1/demand-intent/searches?period=7d&sort=volume"),
  "/api/v1/demand-intent/searches/trending": curl("/api/v1/demand-intent/searches/trending?period=7d"),
  "/api/v1/demand-intent/searches/unmet": curl("/api/v1/demand-intent/searches/unmet?period=30d"),
  "/api/v1/demand-intent/searches/conditions": curl("/api/v1/demand-intent/searches/conditions?period=7d"),
  "/api/v1/demand-intent/games/:game_id/conditions": curl(
    "/api/v1/demand-intent/games/101/conditions?period=30d",
  ),
  "/api/v1/games/titles": curl("/api/v1/games/titles?limit=50&paginate=cursor"),
  "/api/v1/games/slugs": curl("/api/v1/games/slugs?page=2"),
  "/api/v1/games/game/:id": curl("/api/v1/games/game/101"),
  "/api/v1/games/slug/:slug": curl("/api/v1/games/slug/chrono-trigger"),
  "/api/v1/games/title/:title": curl("/api/v1/games/title/Chrono%20Trigger"),
  "/api/v1/games/console/:console_id": curl("/api/v1/games/console/1?limit=50"),
  "/api/v1/consoles": curl("/api/v1/consoles"),
  "/api/v1/me": curl("/api/v1/me"),
  "/api/v1/signals/batch": post("/api/v1/signals/batch?period=30d", '{"requests":[{"id":101},{"id":102}]}'),
} as const;
