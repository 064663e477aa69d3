import type { ResponseCache } from "../caches/response-cache.js";
import type { ReadDeps } from "../reads/deps.js";

/** What routes get, built once by app.ts: the reads' deps and caches, and the whole-response cache. */
export type RouteDeps = {
  reads: ReadDeps;
  /** Whole answers to identical reads (every read but /me, whose usage is live). */
  responses: ResponseCache;
  /** Where list links point when set (behind a proxy); else the request's own origin. */
  publicBaseUrl: string | undefined;
};
