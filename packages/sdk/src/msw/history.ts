import {
  type HistoryPoint,
  isHistoryRangeProblem,
  PRICE_CHANGE_DAYS,
  resolveHistoryRange,
} from "@gmi/contract";
import { errorReply, type Reply, type Resolver } from "./reply.js";

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const dayAt = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/**
 * A game's history as the server would answer it, made up but stable: the last point is the game's
 * profile on the mock's latest date, earlier days wander around it by a fixed wave per game, so a
 * chart has something to draw and a test gets the same numbers every run.
 */
export const historyResolver: Resolver = (input, world): Reply => {
  const profile = world.fixtures.profiles.get(input.path.id);
  if (!profile)
    return errorReply("not_found", `No enabled game with id ${input.path.id}`, {
      resource: "game",
      id: input.path.id,
    });
  const query = input.query as { from?: string; to?: string; period: string };
  // The server's own range rule (the contract's), defaults and 422s included.
  const range = resolveHistoryRange(query, world.latestDate);
  if (isHistoryRangeProblem(range)) {
    const { field, message } = range;
    return errorReply("validation_failed", `Invalid query parameter ${field}: ${message}`, {
      issues: [{ location: "query", field, message }],
    });
  }
  const latest = dayNumber(world.latestDate);
  const from = dayNumber(range.from);
  const to = dayNumber(range.to);
  const points: HistoryPoint[] = [];
  for (let day = from; day <= Math.min(to, latest); day++) {
    const wave = 1 + 0.25 * Math.sin((day + profile.game.id) / 3) - 0.01 * (latest - day);
    const scale = Math.max(0, day === latest ? 1 : wave);
    const count = (n: number) => Math.round(n * scale);
    points.push({
      date: dayAt(day),
      liquidity_score: Math.min(100, Math.round(profile.liquidity_score * scale)),
      demand_index: Math.round(profile.demand.index * scale * 10_000) / 10_000,
      redirects: count(profile.demand.redirects),
      distinct_users: Math.min(count(profile.demand.distinct_users), count(profile.demand.redirects)),
      watch_count: count(profile.demand.watch_count),
      search_count: count(profile.demand.redirects / 2),
    });
  }
  // Prices held flat at the profile's: every day of the range, no change over 7 or 30 days.
  const pricing = profile.pricing;
  const prices = Array.from({ length: to - from + 1 }, (_, i) => ({ date: dayAt(from + i), ...pricing }));
  const flat = (price: string | null) =>
    price === null ? null : { start: price, end: price, change: "0.00", change_ratio: 0 };
  const price_changes = PRICE_CHANGE_DAYS.map((days) => ({
    days,
    since: dayAt(to - days),
    loose: flat(pricing.loose),
    complete: flat(pricing.complete),
    new: flat(pricing.new),
  }));
  return {
    status: 200,
    body: {
      data: { game: profile.game, points, prices, price_changes },
      meta: { period: query.period, ...range },
    },
  };
};
