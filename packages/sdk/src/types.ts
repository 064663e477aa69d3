import type { BatchMeta, Contract, Period } from "@gmi/contract";
import type { z } from "zod";

/**
 * Every type the client exposes is derived here from the contract's zod schemas (types only: the
 * main entry never loads zod or ts-rest at run time).
 */
type Group = keyof Contract;

/** Dotted route names of the contract, e.g. `intelligence.list`, `games.byId`. */
export type RouteName = {
  [G in Group]: `${G}.${keyof Contract[G] & string}`;
}[Group];

export type RouteAt<N extends RouteName> = N extends `${infer G extends Group}.${infer R}`
  ? Contract[G][R & keyof Contract[G]]
  : never;

type InputOf<T> = T extends z.ZodTypeAny ? z.input<T> : never;

/** Query parameters a route accepts, as the caller writes them (defaults optional). */
export type QueryOf<N extends RouteName> = RouteAt<N> extends { query: infer Q } ? InputOf<Q> : never;

/** Path parameters of a route. */
export type PathParamsOf<N extends RouteName> =
  RouteAt<N> extends { pathParams: infer P } ? InputOf<P> : never;

/** The parsed body of a route's successful (200) response. */
export type ResponseOf<N extends RouteName> =
  RouteAt<N> extends { responses: { 200: infer S } } ? (S extends z.ZodTypeAny ? z.infer<S> : never) : never;

/** Routes answering a paginated list (`meta.pagination` and `links`). */
export type ListRouteName = {
  [N in RouteName]: ResponseOf<N> extends { links: unknown; meta: { pagination: unknown } } ? N : never;
}[RouteName];

export type ListParams<N extends ListRouteName> = QueryOf<N>;
export type RowOf<N extends ListRouteName> = ResponseOf<N>["data"][number];

export type BatchRouteName = "intelligence.batch" | "signals.batch";

/** One element of a batch answer: `{status, data}` on success, `{status, error}` on failure. */
export type BatchItemOf<N extends BatchRouteName> = ResponseOf<N>["data"][number];

/** Query of a batch call (`period`, `date`: one scope for the whole batch). */
export type BatchQuery = QueryOf<"intelligence.batch">;

/** The merged answer of a chunked batch: one item per input id, in input order, with totals. */
export interface BatchResult<N extends BatchRouteName> {
  data: Array<BatchItemOf<N>>;
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

export type IntelligenceBatchResult = BatchResult<"intelligence.batch">;
export type SignalsBatchResult = BatchResult<"signals.batch">;

export type {
  AccountRecord,
  BatchLiquidityRow,
  ConditionRecommendation,
  ConsoleRecord,
  ErrorCode,
  GameConditionRow,
  GameIdentity,
  GameRecord,
  GameSignals,
  LiquidityProfile,
  LiquidityRow,
  NotFoundItem,
  Period,
  SearchConditionRow,
  SearchRow,
  TypedErrorBody,
} from "@gmi/contract";
