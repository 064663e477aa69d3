import type { AppRoute } from "@ts-rest/core";
import { initContract, isAppRoute } from "@ts-rest/core";
import { ErrorEnvelopeSchema } from "./common/errors.js";
import { RequestHeadersSchema } from "./common/headers.js";
import { errorStatusesOf } from "./route-errors.js";
import { accountRoutes } from "./routes/account.js";
import { consolesRoutes } from "./routes/consoles.js";
import { demandIntentRoutes } from "./routes/demand-intent.js";
import { gamesRoutes } from "./routes/games.js";
import { intelligenceRoutes } from "./routes/intelligence.js";
import type { RouteMetadata } from "./routes/shared.js";
import { signalsRoutes } from "./routes/signals.js";

// Annotated so that the declaration file can name it (the Contract type below refers to it).
const c: ReturnType<typeof initContract> = initContract();

/**
 * Statuses a route may answer with the error envelope. Statically every route carries all of them
 * (one error type for clients); at run time each route keeps only those it can really give
 * (`errorStatusesOf`), which is what the OpenAPI document lists.
 */
export const ERROR_STATUSES = [401, 402, 403, 404, 409, 413, 415, 422, 429, 500, 503] as const;

const errorResponses = Object.fromEntries(ERROR_STATUSES.map((status) => [status, ErrorEnvelopeSchema])) as {
  [S in (typeof ERROR_STATUSES)[number]]: typeof ErrorEnvelopeSchema;
};

const groups: {
  intelligence: typeof intelligenceRoutes;
  demandIntent: typeof demandIntentRoutes;
  games: typeof gamesRoutes;
  consoles: typeof consolesRoutes;
  account: typeof accountRoutes;
  signals: typeof signalsRoutes;
} = {
  intelligence: intelligenceRoutes,
  demandIntent: demandIntentRoutes,
  games: gamesRoutes,
  consoles: consolesRoutes,
  account: accountRoutes,
  signals: signalsRoutes,
};

const options: {
  baseHeaders: typeof RequestHeadersSchema;
  commonResponses: typeof errorResponses;
  strictStatusCodes: true;
} = { baseHeaders: RequestHeadersSchema, commonResponses: errorResponses, strictStatusCodes: true };

/**
 * The contract's type, by name. Inferred, the declaration file spelled every route out again with
 * the error envelope inlined eleven times per route (1.37 MB of index.d.ts, `contract` alone 1 MB);
 * written as ts-rest's own result type over the named groups, it refers to them instead.
 */
export type Contract = ReturnType<typeof c.router<typeof groups, "", typeof options>>;

const everyRoute: Contract = c.router(groups, options);

/** A copy of a router whose routes keep only the error responses they can give. */
const withOwnErrorResponses = <T>(node: T): T => {
  if (isAppRoute(node as AppRoute)) {
    const route = node as ContractRoute;
    const own = new Set<number>(errorStatusesOf(route));
    const responses = Object.fromEntries(
      Object.entries(route.responses).filter(
        ([status]) =>
          !(ERROR_STATUSES as readonly number[]).includes(Number(status)) || own.has(Number(status)),
      ),
    );
    return { ...route, responses } as T;
  }
  return Object.fromEntries(
    Object.entries(node as Record<string, unknown>).map(([key, child]) => [
      key,
      withOwnErrorResponses(child),
    ]),
  ) as T;
};

export const contract: Contract = withOwnErrorResponses(everyRoute);

export type ContractRoute = AppRoute & { metadata: RouteMetadata };

/** Every route of the contract with its dotted name (`games.byId`), for walkers such as the scope table test. */
export const listRoutes = (): Array<{ name: string; route: ContractRoute }> => {
  const out: Array<{ name: string; route: ContractRoute }> = [];
  const walk = (node: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      const name = prefix ? `${prefix}.${key}` : key;
      if (isAppRoute(value as AppRoute)) out.push({ name, route: value as ContractRoute });
      else walk(value as Record<string, unknown>, name);
    }
  };
  walk(contract as unknown as Record<string, unknown>, "");
  return out;
};
