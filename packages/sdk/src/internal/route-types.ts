import type { BatchMeta, Period, RouteTypes } from "./contract-types.js";

/**
 * Every type the client exposes comes from internal/contract-types.ts: the contract's zod schemas
 * resolved to plain TypeScript at build time, so the published declarations need neither zod nor
 * the contract (test/contract-types.test.ts proves them equal to the contract's own inference).
 */

/** Dotted route names of the contract, e.g. `intelligence.list`, `games.byId`. */
export type RouteName = keyof RouteTypes;

/** A route's method and path. */
export type RouteAt<N extends RouteName> = Pick<RouteTypes[N], "method" | "path">;

/** Query parameters a route accepts, as the caller writes them (defaults optional). */
export type QueryOf<N extends RouteName> = RouteTypes[N]["query"];

/** Path parameters of a route. */
export type PathParamsOf<N extends RouteName> = RouteTypes[N]["pathParams"];

/** The parsed body of a route's successful (200) response. */
export type ResponseOf<N extends RouteName> = RouteTypes[N]["response"];

/** Routes answering a paginated list (`meta.pagination` and `links`). */
export type ListRouteName = {
  [N in RouteName]: ResponseOf<N> extends { links: unknown; meta: { pagination: unknown } } ? N : never;
}[RouteName];

/** The parameters of a list route (filters, sort, `limit`, `page`, `cursor`, `paginate`). */
export type ListParams<N extends ListRouteName> = QueryOf<N>;
/** One row of a list route. */
export type RowOf<N extends ListRouteName> = ResponseOf<N>["data"][number];

/** The two batch routes. */
export type BatchRouteName = "intelligence.batch" | "signals.batch";

/** One element of a batch answer: `{status, data}` on success, `{status, error}` on failure. */
export type BatchItemOf<N extends BatchRouteName> = ResponseOf<N>["data"][number];

/** Query of a batch call (`period`, `date`: one scope for the whole batch). */
export type BatchQuery = QueryOf<"intelligence.batch">;

/** The merged answer of a chunked batch: one item per input id, in input order, with totals. */
export interface BatchResult<N extends BatchRouteName> {
  /** One item per input id, in input order: inspect each `status`. */
  data: Array<BatchItemOf<N>>;
  /** The period scope the batch was scored in, its counts, and how it was sent. */
  meta: {
    period: Period;
    /** `null` only when no request was needed (no ids). */
    period_date: string | null;
    batch: BatchMeta;
    /** Chunks the ids were split into. */
    chunks: number;
    /** HTTP requests made, item retries included (transport retries excluded). */
    requests: number;
  };
  /** The base key every chunk's `Idempotency-Key` derives from: rerun with it to replay safely. */
  idempotencyKey: string;
}

/** What `client.intelligence.batch` resolves to. */
export type IntelligenceBatchResult = BatchResult<"intelligence.batch">;
/** What `client.signals.batch` resolves to. */
export type SignalsBatchResult = BatchResult<"signals.batch">;

export type {
  AccountRecord,
  BatchLiquidityRow,
  BatchMeta,
  ConditionRecommendation,
  ConsoleRecord,
  ErrorCode,
  GameConditionRow,
  GameHistory,
  GameIdentity,
  GameRecord,
  GameSignals,
  HistoryPoint,
  Links,
  LiquidityProfile,
  LiquidityRow,
  NotFoundItem,
  Pagination,
  Period,
  RouteTypes,
  SearchConditionRow,
  SearchRow,
  TypedErrorBody,
} from "./contract-types.js";
