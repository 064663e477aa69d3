import type { RouteAt, RouteName } from "./route-types.js";

/**
 * Method and path of every route. A tiny table instead of the contract object, so the client never
 * loads zod or ts-rest; `satisfies` ties each entry to the contract's own literal types, so a route
 * added, removed or moved in the contract fails the SDK's type check instead of drifting.
 */
export const ROUTES = {
  "intelligence.list": ["GET", "/api/v1/intelligence"],
  "intelligence.get": ["GET", "/api/v1/intelligence/:id"],
  "intelligence.conditions": ["GET", "/api/v1/intelligence/:id/conditions"],
  "intelligence.history": ["GET", "/api/v1/intelligence/:id/history"],
  "intelligence.batch": ["POST", "/api/v1/intelligence/batch"],
  "demandIntent.searches": ["GET", "/api/v1/demand-intent/searches"],
  "demandIntent.trending": ["GET", "/api/v1/demand-intent/searches/trending"],
  "demandIntent.unmet": ["GET", "/api/v1/demand-intent/searches/unmet"],
  "demandIntent.conditions": ["GET", "/api/v1/demand-intent/searches/conditions"],
  "demandIntent.gameConditions": ["GET", "/api/v1/demand-intent/games/:game_id/conditions"],
  "games.titles": ["GET", "/api/v1/games/titles"],
  "games.slugs": ["GET", "/api/v1/games/slugs"],
  "games.byId": ["GET", "/api/v1/games/game/:id"],
  "games.bySlug": ["GET", "/api/v1/games/slug/:slug"],
  "games.byTitle": ["GET", "/api/v1/games/title/:title"],
  "games.byConsole": ["GET", "/api/v1/games/console/:console_id"],
  "consoles.list": ["GET", "/api/v1/consoles"],
  "account.me": ["GET", "/api/v1/me"],
  "signals.batch": ["POST", "/api/v1/signals/batch"],
} as const satisfies { [N in RouteName]: readonly [RouteAt<N>["method"], RouteAt<N>["path"]] };

export type Method = (typeof ROUTES)[RouteName][0];

/** `/games/game/:id` + `{id: 7}` → `/games/game/7`; every value is URL-encoded (titles have spaces). */
export const fillPath = (path: string, params: Record<string, string | number> | undefined): string =>
  !path.includes(":")
    ? path
    : path.replace(/:([a-z_]+)/g, (_match, name: string) => {
        const value = params?.[name];
        if (value === undefined || value === "") throw new TypeError(`Missing path parameter "${name}"`);
        return encodeURIComponent(String(value));
      });

/** Query string of the defined values (`undefined`/`null` left out). */
export const buildUrl = (baseUrl: string, path: string, query: object | undefined): string => {
  const url = baseUrl + path;
  if (!query) return url;
  let qs = "";
  for (const key in query) {
    const value = (query as Record<string, unknown>)[key];
    if (value !== undefined && value !== null)
      qs += `${qs ? "&" : "?"}${key}=${encodeURIComponent(String(value))}`;
  }
  return url + qs;
};
