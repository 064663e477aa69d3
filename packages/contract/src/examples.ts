import type { ErrorCode } from "./common/errors.js";
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
    usage: {
      month: { used: 1834, quota: 250000, resets_in: 864000 },
      day: { used: 1234, limit: 20000, resets_in: 18000 },
    },
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

const PERIOD_DATE = "2026-11-24";
const periodMeta = { period: "7d", period_date: PERIOD_DATE } as const;
const BASE = "https://api.example.com";
const pageOf = <Row>(rows: Row[], path: string, total: number, perPage = 25) => ({
  data: rows,
  pagination: {
    mode: "page" as const,
    page: 1,
    per_page: perPage,
    total,
    last_page: Math.ceil(total / perPage),
  },
  links: {
    next: total > perPage ? `${BASE}${path}${path.includes("?") ? "&" : "?"}page=2` : null,
    prev: null,
  },
});
const paginated = <Row>(rows: Row[], path: string, total: number, meta: Record<string, unknown> = {}) => {
  const { data, pagination, links } = pageOf(rows, path, total);
  return { data, meta: { ...meta, pagination }, links };
};
const withoutRank = <Row extends { rank: unknown }>({ rank: _rank, ...rest }: Row) => rest;
const searchRows = [
  examples.searchRow,
  {
    ...examples.searchRow,
    rank: 2,
    query: "earthbound",
    search: {
      search_count: 640,
      pricing_count: 500,
      site_search_count: 140,
      distinct_users: 511,
      mobile_share: 0.64,
    },
    results: { avg_result_count: 8.2, zero_result_count: 3, zero_result_share: 0.005 },
    momentum: { value: null, label: "unknown" as const },
    demand_score: 71,
  },
];
const chronoTriggerDs = {
  ...examples.gameRecord,
  id: 2240,
  console_id: 9,
  console_name: "Nintendo DS",
  console_slug: "nintendo-ds",
  prices: { loose: "24.50", complete: "39.99", new: "89.00" },
};

/**
 * One example answer per route (by its name in the contract, `intelligence.get`), shown in the
 * API reference: each parses against its route's 200 schema (contract tests).
 */
export const exampleResponses = {
  "intelligence.list": paginated([examples.liquidityRow], "/api/v1/intelligence", 1, {
    ...periodMeta,
    sort: "liquidity",
  }),
  "intelligence.get": {
    data: {
      ...examples.liquidityRow,
      rank: null,
      demand: { redirects: 0, distinct_users: 0, watch_count: 2, index: 0.01 },
      momentum: { value: null, label: "unknown" },
      liquidity_score: 21,
    },
    meta: periodMeta,
  },
  "intelligence.conditions": { data: examples.conditionRecommendation, meta: periodMeta },
  "intelligence.history": {
    data: {
      game: examples.liquidityRow.game,
      points: [
        {
          date: "2026-10-01",
          liquidity_score: 74,
          demand_index: 0.88,
          redirects: 61,
          distinct_users: 50,
          watch_count: 55,
          search_count: 140,
        },
        {
          date: "2026-10-02",
          liquidity_score: 77,
          demand_index: 0.93,
          redirects: 70,
          distinct_users: 58,
          watch_count: 56,
          search_count: 151,
        },
      ],
      prices: [
        { date: "2026-10-01", loose: "144.99", complete: "289.00", new: null },
        { date: "2026-10-02", loose: "149.99", complete: "289.00", new: null },
      ],
      price_changes: [
        {
          days: 7,
          since: "2026-09-25",
          loose: { start: "139.99", end: "149.99", change: "10.00", change_ratio: 0.0714 },
          complete: { start: "289.00", end: "289.00", change: "0.00", change_ratio: 0 },
          new: null,
        },
        {
          days: 30,
          since: "2026-09-02",
          loose: { start: "129.99", end: "149.99", change: "20.00", change_ratio: 0.1539 },
          complete: { start: "275.00", end: "289.00", change: "14.00", change_ratio: 0.0509 },
          new: null,
        },
      ],
    },
    meta: { period: "day", from: "2026-10-01", to: "2026-10-02" },
  },
  "intelligence.batch": {
    data: [
      { status: 200, data: { ...withoutRank(examples.liquidityRow), found: true } },
      { status: 200, data: { game_id: 999999, found: false } },
    ],
    meta: { ...periodMeta, batch: { total: 2, succeeded: 2, failed: 0 } },
  },
  "demandIntent.searches": paginated(searchRows, "/api/v1/demand-intent/searches", 2, {
    ...periodMeta,
    sort: "volume",
  }),
  "demandIntent.trending": paginated([examples.searchRow], "/api/v1/demand-intent/searches/trending", 1, {
    ...periodMeta,
    sort: "momentum",
  }),
  "demandIntent.unmet": paginated(
    [
      {
        ...examples.searchRow,
        query: "chrono trigger jp",
        search: {
          search_count: 41,
          pricing_count: 12,
          site_search_count: 29,
          distinct_users: 33,
          mobile_share: 0.8,
        },
        results: { avg_result_count: 0.4, zero_result_count: 33, zero_result_share: 0.8 },
        demand_score: 100,
      },
    ],
    "/api/v1/demand-intent/searches/unmet",
    1,
    { ...periodMeta, sort: "unmet" },
  ),
  "demandIntent.conditions": { data: examples.searchConditionRows, meta: periodMeta },
  "demandIntent.gameConditions": {
    data: examples.gameConditionRows,
    meta: { ...periodMeta, game: examples.liquidityRow.game },
  },
  "games.titles": paginated(
    [
      { id: 3051, display_game_name: "Castlevania: Symphony of the Night" },
      { id: 101, display_game_name: "Chrono Trigger" },
    ],
    "/api/v1/games/titles",
    4812,
  ),
  "games.slugs": paginated(
    [
      { id: 3051, marketplace_game_name: "castlevania-symphony-of-the-night" },
      { id: 101, marketplace_game_name: "chrono-trigger" },
    ],
    "/api/v1/games/slugs",
    4812,
  ),
  "games.byId": { data: examples.gameRecord, meta: {} },
  "games.bySlug": { data: [examples.gameRecord, chronoTriggerDs], meta: { count: 2 } },
  "games.byTitle": { data: [examples.gameRecord, chronoTriggerDs], meta: { count: 2 } },
  "games.byConsole": paginated([examples.gameRecord], "/api/v1/games/console/1", 1),
  "consoles.list": paginated(
    [examples.consoleRecord, { id: 9, name: "Nintendo DS", slug: "nintendo-ds", game_count: 310 }],
    "/api/v1/consoles",
    2,
  ),
  "account.me": { data: examples.accountRecord, meta: {} },
  "signals.batch": {
    data: [
      { status: 200, data: examples.gameSignals },
      { status: 200, data: { game_id: 999999, found: false } },
    ],
    meta: { period: "30d", period_date: PERIOD_DATE, batch: { total: 2, succeeded: 2, failed: 0 } },
  },
} as const satisfies Record<string, unknown>;

/** One example error body per code, as the server writes them. */
export const exampleErrors = {
  unauthorized: { code: "unauthorized", message: "The API key is not valid" },
  account_inactive: {
    code: "account_inactive",
    message: "The organization is suspended",
    details: { subject: "organization", status: "suspended" },
  },
  insufficient_scope: {
    code: "insufficient_scope",
    message: "This endpoint needs the scope intelligence.read",
    details: { required_scope: "intelligence.read" },
  },
  quota_exceeded: {
    code: "quota_exceeded",
    message: "Monthly quota of 250000 requests used up; it resets at the start of the next UTC month",
    details: { quota: 250000, used: 250000, resets_in: 864000 },
  },
  not_found: {
    code: "not_found",
    message: "No game with id 999999",
    details: { resource: "game", id: 999999 },
  },
  idempotency_conflict: {
    code: "idempotency_conflict",
    message: "A request with this Idempotency-Key is still being processed; retry in a few seconds",
    details: { idempotency_key: "4b0f7c1e-1f0e-4d7a-9c55-2f5b2b0f9a11", retry_after: 1 },
  },
  validation_failed: {
    code: "validation_failed",
    message:
      "Invalid query parameter period: Invalid enum value. Expected 'day' | '7d' | '30d', received '1y'",
    details: {
      issues: [
        {
          location: "query",
          field: "period",
          message: "Invalid enum value. Expected 'day' | '7d' | '30d', received '1y'",
        },
      ],
    },
  },
  batch_too_large: {
    code: "batch_too_large",
    message: "A batch holds at most 50 elements on this plan; this one has 60",
    details: { max_items: 50, received: 60 },
  },
  idempotency_key_reuse: {
    code: "idempotency_key_reuse",
    message: "This Idempotency-Key was used with a different request in the last 24 hours; use a new key",
    details: { idempotency_key: "4b0f7c1e-1f0e-4d7a-9c55-2f5b2b0f9a11" },
  },
  rate_limit_exceeded: {
    code: "rate_limit_exceeded",
    message: "Rate limit of 120 requests per minute exceeded",
    details: { window: "minute", limit: 120 },
  },
  not_implemented: { code: "not_implemented", message: "Not implemented" },
  server_error: {
    code: "server_error",
    message: "An unexpected error occurred; quote the request_id when reporting it",
    details: { request_id: "0f8e2c4a-54d1-4c59-9a4e-8d1f8f0c2b7e" },
  },
  method_not_allowed: {
    code: "method_not_allowed",
    message: "DELETE is not allowed here; use GET",
    details: { allowed: ["GET"] },
  },
  payload_too_large: {
    code: "payload_too_large",
    message: "The body is larger than 1048576 bytes",
    details: { max_bytes: 1048576 },
  },
  unsupported_media_type: {
    code: "unsupported_media_type",
    message: "The body must be sent as application/json",
    details: { expected: "application/json" },
  },
  service_unavailable: {
    code: "service_unavailable",
    message: "analytics have not been computed yet: run `pnpm gmi rollup`",
  },
} as const satisfies Record<ErrorCode, { code: ErrorCode; message: string; details?: unknown }>;
