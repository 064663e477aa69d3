import type { RouteMetadata } from "@gmi/contract";
import { listRoutes } from "@gmi/contract";

/** `metered`: false for a route that costs no unit (`/me`), from the contract's route metadata. */
export type RouteEntry = { name: string; scope: RouteMetadata["scope"]; batch: boolean; metered: boolean };

/** `GET /api/v1/games/game/:id`: the key Fastify's routeOptions (method, url) give us back. */
export const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/**
 * The one scope table: built from the contract's route metadata at start-up, so a route cannot
 * exist without a scope decision and the server cannot disagree with the contract.
 */
export const buildRouteTable = (): Map<string, RouteEntry> => {
  const table = new Map<string, RouteEntry>();
  for (const { name, route } of listRoutes()) {
    table.set(routeKey(route.method, route.path), {
      name,
      scope: route.metadata.scope,
      batch: route.metadata.element !== undefined,
      metered: route.metadata.metered !== false,
    });
  }
  return table;
};
