import { examples, IntelligenceBatchElementSchema, PLANS, SignalsBatchElementSchema } from "@gmi/contract";
import { ApiError } from "@gmi/rules/errors";
import { unsignedCursors } from "@gmi/rules/pagination/cursor";
import { type WorldReadName, worldReads } from "@gmi/rules/world/reads";
import type { RouteName } from "../types.js";
import { batchResolver } from "./batch.js";
import type { Reply } from "./reply.js";
import type { Input, Resolver, World } from "./resolver.js";

const DAY_MS = 86_400_000;

/** A GET route answered from the world by the server's rules; a refusal is the server's envelope. */
const fromWorld =
  (name: WorldReadName): Resolver =>
  (input: Input, world: World): Reply => {
    const context = {
      caller: {
        maxPageSize: PLANS[world.state.plan].max_page_size,
        origin: input.url.origin,
        url: `${input.url.pathname}${input.url.search}`,
      },
      now: world.state.now(),
      cursors: unsignedCursors,
    };
    try {
      return {
        status: 200,
        body: worldReads[name](world.world, { query: input.query, params: input.path }, context),
      };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return {
        status: error.status,
        body: error.toBody(),
        headers: Object.fromEntries(Object.entries(error.headers).map(([k, v]) => [k, String(v)])),
      };
    }
  };

export const resolvers = {
  "intelligence.list": fromWorld("intelligence.list"),
  "intelligence.get": fromWorld("intelligence.get"),
  "intelligence.conditions": fromWorld("intelligence.conditions"),
  "intelligence.history": fromWorld("intelligence.history"),
  "intelligence.batch": batchResolver("intelligence", IntelligenceBatchElementSchema, (e) =>
    "game_id" in e ? e.game_id : e.id,
  ),
  "demandIntent.searches": fromWorld("demandIntent.searches"),
  "demandIntent.trending": fromWorld("demandIntent.trending"),
  "demandIntent.unmet": fromWorld("demandIntent.unmet"),
  "demandIntent.conditions": fromWorld("demandIntent.conditions"),
  "demandIntent.gameConditions": fromWorld("demandIntent.gameConditions"),
  "games.titles": fromWorld("games.titles"),
  "games.slugs": fromWorld("games.slugs"),
  "games.byId": fromWorld("games.byId"),
  "games.bySlug": fromWorld("games.bySlug"),
  "games.byTitle": fromWorld("games.byTitle"),
  "games.byConsole": fromWorld("games.byConsole"),
  "consoles.list": fromWorld("consoles.list"),
  "account.me": (_input, world) => {
    const { overage: _overage, ...plan } = PLANS[world.state.plan];
    const base = examples.accountRecord;
    const now = world.state.now();
    return {
      status: 200,
      body: {
        data: {
          ...base,
          plan,
          api_key: { ...base.api_key, scopes: [...world.state.scopes] },
          usage: {
            month: { ...base.usage.month, used: world.state.monthUsed, quota: plan.monthly_quota },
            // The mock counts from its start or reset, which a test's month and day share.
            day: {
              used: world.state.monthUsed,
              limit: plan.rate_limit_per_day,
              resets_in: Math.ceil((DAY_MS - (now % DAY_MS)) / 1000),
            },
          },
        },
        meta: {},
      },
    };
  },
  "signals.batch": batchResolver("signals", SignalsBatchElementSchema, (e) => e.id),
} satisfies Record<RouteName, Resolver>;
