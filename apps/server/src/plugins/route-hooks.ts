import type { RouteOptions } from "fastify";
import type { RouteEntry } from "../domain/auth/scope-table.js";
import { routeKey } from "../domain/auth/scope-table.js";

type HookName = "onRequest" | "preHandler" | "onSend" | "onResponse";

/** The contract entry of a route being registered; Fastify's automatic HEAD routes share their GET's. */
export const contractEntryOf = (routes: Map<string, RouteEntry>, route: RouteOptions): RouteEntry | null => {
  if (typeof route.method !== "string") return null;
  const entry = routes.get(routeKey(route.method, route.url));
  if (entry) return entry;
  return route.method === "HEAD" ? (routes.get(routeKey("GET", route.url)) ?? null) : null;
};

/**
 * Appends a hook to one route at registration (onRoute): the cross-cutting plugins attach their
 * work to contract routes only, so public routes and 404s pay nothing and no per-request lookup
 * decides whether a route is protected.
 */
export const appendHook = (route: RouteOptions, name: HookName, hook: unknown) => {
  const existing = route[name] as unknown;
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
  (route as unknown as Record<HookName, unknown[]>)[name] = [...list, hook];
};
