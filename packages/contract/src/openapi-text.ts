import { CODE_TO_STATUS, ERROR_CODES } from "./common/errors.js";
import { DEFAULT_LIMIT } from "./common/pagination.js";
import { PLANS } from "./plans.js";
import { HISTORY_DEFAULT_DAYS, HISTORY_MAX_DAYS } from "./routes/history-range.js";

/**
 * The words of the OpenAPI document: tags, parameter and field descriptions. Kept apart from the
 * generator so that the text can be read (and reviewed) as text.
 */

/** Tag of each top-level group of the contract, with what it is for. */
export const TAGS: Record<string, { name: string; description: string }> = {
  intelligence: {
    name: "Intelligence",
    description: "Liquidity scores: how much buying demand a game has and how easy it is to sell.",
  },
  demandIntent: {
    name: "Search demand",
    description: "What buyers search for: volume, momentum, unmet queries and the condition mix.",
  },
  games: { name: "Games", description: "The game catalog: titles, slugs, prices, lookups." },
  consoles: { name: "Consoles", description: "The consoles of the catalog: the valid `console_id` values." },
  account: { name: "Account", description: "The calling key's organization, plan and usage." },
  signals: { name: "Signals", description: "Raw demand signals behind the liquidity score." },
};

/** A readable tag for a group the table above does not know yet (`fooBar` → `Foo bar`). */
export const tagOf = (group: string) => {
  const known = TAGS[group];
  if (known) return known.name;
  const words = group.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const SORT_MEANINGS: Record<string, string> = {
  liquidity: "`liquidity_score`, highest first",
  demand: "`demand.index`, highest first; price plays no part",
  value: "complete-in-box price, highest first; `liquidity_score` breaks ties",
  volume: "combined search count (price lookups plus site searches), highest first",
  momentum:
    "7-day pace against the 30-day baseline, fastest rising first; ties by search count, then query; queries without a baseline last",
  unmet: "`zero_result_share`, highest first, then volume; only queries with at least 5 searches",
};

/** `sort`'s text, listing what each of the route's values orders by. */
export const sortDescription = (values: readonly string[], byDefault: string | undefined) =>
  [
    "Order of the rows:",
    ...values.map(
      (v) => `- \`${v}\`${v === byDefault ? " (default)" : ""}: ${SORT_MEANINGS[v] ?? "see the summary"}.`,
    ),
  ].join("\n");

/**
 * Parameter texts by name; `{route}` parameters whose meaning depends on the route have a key of
 * their own (`path:id`).
 */
export const PARAMETERS: Record<string, string> = {
  period:
    "How many days up to `date` the figures cover. `day`: that day only; `7d`: the 7 days ending on it; " +
    "`30d`: the 30 days ending on it.",
  date:
    "Window-end date (UTC), `YYYY-MM-DD`. Omitted: the latest date computed for the period, echoed in " +
    "`meta.period_date`. A date without computed data is a 422 naming the dates available.",
  console_id:
    "Only games of this console (ids from `GET /api/v1/consoles`). Omitted: all consoles. An unknown " +
    "console gives an empty page, not an error.",
  limit:
    `Rows per page, ${DEFAULT_LIMIT} when omitted. Above your plan's \`max_page_size\` it is capped ` +
    "silently; `meta.pagination.per_page` shows the size used.",
  page: "Page number in page mode, from 1 (`meta.pagination.last_page` is the last).",
  cursor:
    "Cursor mode: the `meta.pagination.next_cursor` of the previous page (or follow `links.next`). " +
    "A cursor keeps the date it started on, so a walk is not disturbed by a newer rollup.",
  paginate:
    "`page` (default): numbered pages with `total` and `last_page`. `cursor`: opaque cursors, stable " +
    "while new dates are computed; use it to walk a whole list.",
  from:
    `First date of the history (UTC), \`YYYY-MM-DD\`. Omitted: the ${HISTORY_DEFAULT_DAYS} days ending on ` +
    `\`to\`. At most ${HISTORY_MAX_DAYS} days from \`from\` to \`to\`, and not after the latest computed date.`,
  to:
    "Last date of the history (UTC), `YYYY-MM-DD`. Omitted: the latest computed date, or " +
    `${HISTORY_DEFAULT_DAYS} days from \`from\` when that ends earlier.`,
  "path:id": "Numeric game id (as in `game.id` of any row, or from the catalog lookups).",
  "path:game_id": "Numeric game id (as in `game.id` of any row, or from the catalog lookups).",
  "path:console_id": "Numeric console id, from `GET /api/v1/consoles`.",
  "path:slug": "The game's URL slug (`marketplace_game_name`), e.g. `chrono-trigger`; one game per console.",
  "path:title": "The display title, URL-encoded (`Chrono%20Trigger`); matched whole and case-insensitively.",
  "header:idempotency-key":
    "Any unique string (a UUID fits; 1-255 printable ASCII characters). A retry with the same key and " +
    "body within 24 hours replays the stored answer (`Idempotency-Replayed: true`) without charging again.",
};

/** Texts of components (`Name`) and of their fields (`Name.field`). */
export const FIELDS: Record<string, string> = {
  GameIdentity: "Which game a row is about.",
  Momentum:
    "Trailing 7-day daily pace divided by the 30-day baseline. `rising` ≥ 1.2, `steady` 0.8 to below 1.2, " +
    "`cooling` < 0.8; `unknown` (and `value` null) when there is no 30-day baseline.",
  "Momentum.value": "The pace ratio; `null` exactly when `label` is `unknown`.",
  Demand: "Redirect (purchase-intent) demand in the period.",
  "Demand.redirects": "Purchase-intent clicks to a marketplace in the period.",
  "Demand.distinct_users": "Unique users who clicked through.",
  "Demand.watch_count": "Watchlist alerts active in the period.",
  "Demand.index":
    "0-1 blend of redirects, distinct users and watch alerts, each against the highest in the period and " +
    "console scope.",
  Pricing:
    "Catalog prices as decimal strings (two decimals, exact cents); `null` where the catalog has no price.",
  "LiquidityRow.rank": "Place on this leaderboard (period, console scope and sort), from 1.",
  "LiquidityProfile.rank":
    "Place on the all-consoles `liquidity` leaderboard of the period; `null` when the game has no redirect " +
    "demand (it is not on the leaderboard).",
  "LiquidityRow.price_accessibility":
    "1 − complete price / highest complete price in scope; 0.5 without a complete price. Higher is cheaper.",
  "LiquidityProfile.price_accessibility":
    "1 − complete price / highest complete price in scope; 0.5 without a complete price. Higher is cheaper.",
  "LiquidityRow.liquidity_score": "0-100: weighted blend of `demand.index` and `price_accessibility`.",
  "LiquidityProfile.liquidity_score":
    "0-100: weighted blend of `demand.index` and `price_accessibility`, comparable with the leaderboard.",
  "SearchRow.query": "The normalized search query (lower case, single spaces).",
  "SearchRow.demand_score": "0-100: search volume first, reach second; the top query of the list scores 100.",
  "SearchRow.rank": "Rank by combined search volume within the period and console scope.",
  "SearchRow.results.zero_result_share": "Share of the searches that found nothing (0-1).",
  "SearchRow.search.mobile_share": "Share of the searches made on a phone (0-1).",
  "AccountRecord.usage": "Live usage of the billing month (UTC calendar month) and of the UTC day.",
  "AccountRecord.plan.monthly_quota":
    "Requests per billing month; `null` on the unmetered plan (Enterprise).",
  "AccountRecord.usage.month.used": "Requests counted this billing month, batch elements one each.",
  "AccountRecord.usage.month.quota": "The plan's monthly quota; `null` when unmetered.",
  "AccountRecord.usage.month.resets_in":
    "Seconds until the quota resets, at the start of the next UTC month.",
  "AccountRecord.usage.day":
    "The per-day rate window (`rate_limit_per_day`), counted as a day-window 429 decides; reading it costs nothing.",
  "AccountRecord.usage.day.used": "Units counted today (UTC), batch elements one each.",
  "AccountRecord.usage.day.limit": "The plan's per-day limit.",
  "AccountRecord.usage.day.resets_in": "Seconds until the day window resets, at 00:00 UTC.",
  "AccountRecord.api_key.last_four": "The last four characters of the key, to tell keys apart.",
  "ConditionRecommendation.recommended":
    "The highest-scoring condition that has a catalog price; `null` when the game has no price at all, " +
    "or when `sample_size` is below `min_sample_size` (too little demand to tell).",
  "ListingConditionRow.price": "The catalog price in this condition; `null` when there is none.",
  "ListingConditionRow.demand.share": "This condition's share of the game's condition-tagged demand (0-1).",
  "ListingConditionRow.score":
    "0-100: 70% this condition's demand share (against the best of the three), 30% its price (against " +
    "the highest); 0 without a price.",
  "GameConditionRow.redirects": "The game's redirects tagged with this condition (`any` has none).",
  "GameConditionRow.watch_count": "The game's watch alerts tagged with this condition (`any` has none).",
  "SearchConditionRow.condition_share": "This condition's share of the condition-classified searches (0-1).",
  "ConsoleRecord.game_count": "Enabled games of this console in the catalog.",
  "CursorPagination.next_cursor": "Pass as `cursor` for the next page; `null` on the last page.",
  "PagePagination.total": "Rows in the whole list.",
  "Links.next":
    "URL of the next page; `null` on the last page. It repeats every parameter as resolved (defaults, `limit` as the page size served, and on analytics lists the `date` read), so a walk that follows it stays in one snapshot.",
  "Links.prev": "URL of the previous page, written as `next`; `null` on the first page.",
  "GameSignals.signals": "The raw inputs of the liquidity score over the period, unblended.",
  "GameSignals.signals.search_count": "Searches resolved to this game in the period.",
  "BatchLiquidityRow.found": "Always `true`: tells a found game from a `NotFoundItem`.",
  "GameRecord.marketplace_game_name": "The game's URL slug (the field name the interface uses for it).",
  "GameRecord.display_game_name": "The display title.",
  HistoryPrice:
    "The catalog prices in force at the end of this day (UTC): those of the game's newest price " +
    "observation up to then; `null` before its first observation, or where it had no such price.",
  PriceChanges: "Each condition's price change over `days` days, from `since` to the history's `to`.",
  "PriceChanges.since": "`to` minus `days`: the date of the `start` prices.",
  "PriceChanges.loose": "`null` when either date has no loose price.",
  "PriceChanges.complete": "`null` when either date has no complete price.",
  "PriceChanges.new": "`null` when either date has no new price.",
  "PriceChange.change_ratio":
    "`change` / `start`, 4 decimals: 0.0667 is +6.67 %; `null` when `start` is 0.00.",
  NotFoundItem: "A batch element whose id is not an enabled game: still a 200 item, `found: false`.",
  ErrorBody: "The error: branch on `code`; `details` has a fixed shape per code.",
};

const errorTable = ERROR_CODES.map((code) => `| ${CODE_TO_STATUS[code]} | \`${code}\` |`).join("\n");
const count = new Intl.NumberFormat("en-US").format;
const plans = Object.values(PLANS);
/** One line per limit, one column per plan: five narrow columns fit the reference's text column. */
const planRow = (label: string, value: (plan: (typeof plans)[number]) => string) =>
  `| ${label} | ${plans.map(value).join(" | ")} |`;
const planTable = [
  `| Limit | ${plans.map((p) => p.name).join(" | ")} |`,
  `|---|${plans.map(() => "--:").join("|")}|`,
  planRow("Requests per minute", (p) => count(p.rate_limit_per_minute)),
  planRow("Requests per day", (p) => count(p.rate_limit_per_day)),
  planRow("Monthly quota", (p) => (p.monthly_quota === null ? "unmetered" : count(p.monthly_quota))),
  planRow("Max batch size", (p) => count(p.max_batch_size)),
  planRow("Max page size", (p) => count(p.max_page_size)),
].join("\n");

export const API_DESCRIPTION = `Liquidity scores, search demand and a game catalog for sellers of retro video games.

## Authentication
Send \`Authorization: Bearer <API key>\` on every request. Keys carry scopes: \`intelligence.read\`,
\`demand-intent.read\`, \`games.read\`.

## Errors
Every error body is \`{ "error": { "code", "message", "details"? } }\`. Branch on \`code\`; each
operation lists the statuses it can answer with.

| Status | Code |
|---|---|
${errorTable}

## Limits
${planTable}
`;
