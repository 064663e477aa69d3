import { PLANS } from "@gmi/contract";
import { errorReply, type Input, issuesOf, type Reply, type Resolver, type World } from "./reply.js";

interface ElementSchema {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: { game_id?: number; id?: number } }
    | { success: false; error: { issues: Array<{ path: Array<string | number>; message: string }> } };
}

const itemError = (status: number, id: number, input: Input, world: World) => {
  if (status === 429) {
    const limit = PLANS[world.state.plan].rate_limit_per_minute;
    return {
      status,
      error: {
        code: "rate_limit_exceeded",
        message: `Item ${id}: rate limit`,
        details: { window: "minute", limit },
      },
    };
  }
  if (status === 503)
    return { status, error: { code: "service_unavailable", message: `Item ${id}: unavailable` } };
  return {
    status,
    error: {
      code: "server_error",
      message: `Item ${id}: unexpected error`,
      details: { request_id: input.requestId },
    },
  };
};

/**
 * Both batch routes (spec, POST /intelligence/batch and docs/decisions.md): per-item outcomes in
 * request order, 207 when any item failed. The whole-batch checks, the charge and the
 * Idempotency-Key are the admission's (respond.ts), as on the server.
 */
export const batchResolver =
  (find: (world: World, id: number) => object | undefined, element: ElementSchema): Resolver =>
  (input, world) => {
    const { state } = world;
    const requests = (input.body as { requests?: unknown } | undefined)?.requests;
    if (!Array.isArray(requests) || requests.length === 0) {
      return errorReply("validation_failed", "requests must hold at least one element", {
        issues: [{ location: "body", field: "requests", message: "must hold at least one element" }],
      });
    }
    const max = PLANS[state.plan].max_batch_size;
    if (requests.length > max) {
      return errorReply("batch_too_large", `At most ${max} elements per batch on this plan`, {
        max_items: max,
        received: requests.length,
      });
    }
    const data = requests.map((raw, i) => {
      const parsed = element.safeParse(raw);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((issue) => ({
          ...issue,
          path: ["requests", i, ...issue.path],
        }));
        return {
          status: 422,
          error: { code: "validation_failed", message: "Invalid element", details: issuesOf("body", issues) },
        };
      }
      const id = (parsed.data.game_id ?? parsed.data.id) as number;
      const failure = state.takeItemFault(id);
      if (failure !== undefined) return itemError(failure, id, input, world);
      return { status: 200, data: find(world, id) ?? { game_id: id, found: false } };
    });
    const failed = data.filter((item) => item.status >= 300).length;
    const reply: Reply = {
      status: failed > 0 ? 207 : 200,
      body: {
        data,
        meta: {
          period: input.query.period,
          period_date: input.query.date ?? world.latestDate,
          batch: { total: data.length, succeeded: data.length - failed, failed },
        },
      },
      units: data.length,
    };
    return reply;
  };
