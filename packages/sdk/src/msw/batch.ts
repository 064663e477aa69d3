import { PLANS } from "@gmi/contract";
import { type BatchItem, buildItems, summarize } from "@gmi/rules/batch/items";
import { parseElements } from "@gmi/rules/batch/requests";
import { ApiError } from "@gmi/rules/errors";
import { snapshotFor, worldProfiles } from "@gmi/rules/world/reads";
import type { ZodTypeAny, z } from "zod";
import type { Reply } from "./reply.js";
import type { Input, Resolver, World } from "./resolver.js";

/** An item failure injected by `scenarios.failItems`, in the shape the server gives it. */
const itemError = (status: number, id: number, input: Input, world: World) => {
  if (status === 429) {
    const limit = PLANS[world.state.plan].rate_limit_per_minute;
    const details = { window: "minute" as const, limit };
    return {
      status,
      error: new ApiError("rate_limit_exceeded", `Item ${id}: rate limit`, details).toBody().error,
    };
  }
  if (status === 503)
    return { status, error: new ApiError("service_unavailable", `Item ${id}: unavailable`).toBody().error };
  const details = { request_id: input.requestId };
  return {
    status,
    error: new ApiError("server_error", `Item ${id}: unexpected error`, details).toBody().error,
  };
};

/**
 * Both batch routes, by the server's rules (`@gmi/rules/batch`): per-element 422s, items in request
 * order, 207 when any failed; rows from the world's snapshot of the period and date. The whole-batch
 * checks, the charge and the Idempotency-Key are the admission's (respond.ts), as on the server.
 */
export const batchResolver =
  <S extends ZodTypeAny>(
    kind: "intelligence" | "signals",
    element: S,
    idOf: (e: z.output<S>) => number,
  ): Resolver =>
  (input, world) => {
    const { state } = world;
    const requests = (input.body as { requests: unknown[] }).requests;
    let ref: { period: "day" | "7d" | "30d"; date: string };
    try {
      ref = snapshotFor(world.world, input.query.period, input.query.date, state.now());
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return { status: error.status, body: error.toBody() };
    }
    const rows = worldProfiles(world.world, ref)[kind];
    const dataOf = (id: number) => rows(id) ?? { game_id: id, found: false as const };
    const items = parseElements(requests, element, idOf).map((e) => {
      const failure = e.ok ? state.takeItemFault(e.id) : undefined;
      return e.ok && failure !== undefined
        ? itemError(failure, e.id, input, world)
        : buildItems([e], dataOf)[0];
    });
    const { status, batch } = summarize(items as BatchItem<unknown>[]);
    const reply: Reply = {
      status,
      body: { data: items, meta: { period: ref.period, period_date: ref.date, batch } },
      units: items.length,
    };
    return reply;
  };
