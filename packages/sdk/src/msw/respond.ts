import {
  type ContractRoute,
  IdempotencyKeySchema,
  PLANS,
  type PlanLimits,
  type ValidationIssue,
} from "@gmi/contract";
import type { RouteName } from "../types.js";
import { CONFLICT_RETRY_AFTER, decide, fingerprintOf, isStored, RETENTION_MS } from "./idempotency.js";
import type { RateHeaders } from "./limits.js";
import { errorReply, type Reply } from "./reply.js";
import type { MockState } from "./state.js";

// A request's way through the mock, in the order the server takes it (docs/internals/parity.md):
// authentication, then the body's media type, size and JSON, then the limits (one unit at the
// start of an ordinary request; a batch's elements once its Idempotency-Key is settled), then
// validation and the answer. The parity suite (packages/parity) holds the two to the same answers.

/** The server's BODY_LIMIT_BYTES default. */
const BODY_LIMIT_BYTES = 1_048_576;
const NOT_A_PARAMETER = "is not a parameter of this endpoint";

interface Parser {
  safeParse(value: unknown):
    | { success: true; data: unknown }
    | {
        success: false;
        error: {
          issues: Array<{ path: Array<string | number>; message: string; code?: string; keys?: string[] }>;
        };
      };
}

/** Zod issues as the server names them: an unknown parameter by its name, the rest by path. */
const issuesOf = (
  location: ValidationIssue["location"],
  issues: Array<{ path: Array<string | number>; message: string; code?: string; keys?: string[] }>,
): ValidationIssue[] =>
  issues.flatMap((issue) =>
    issue.code === "unrecognized_keys" && issue.keys
      ? issue.keys.map((key) => ({
          location,
          field: [...issue.path, key].join("."),
          message: location === "query" ? NOT_A_PARAMETER : "is not a known field",
        }))
      : [{ location, field: issue.path.join("."), message: issue.message }],
  );

/** One 422 naming every bad field, worded from the first (the server's error handler). */
export const validationReply = (issues: ValidationIssue[]): Reply => {
  const first = issues[0] ?? { location: "body" as const, field: "", message: "is invalid" };
  const head = first.field ? `${first.location} parameter ${first.field}` : `${first.location}`;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return errorReply("validation_failed", `Invalid ${head}: ${first.message}${more}`, {
    issues: issues.length ? issues : [first],
  });
};

const oneIssue = (location: ValidationIssue["location"], field: string, message: string) =>
  validationReply([{ location, field, message }]);

/** The `requests` array checked whole before anything is charged (server: domain/batch/requests.ts). */
const batchShape = (body: unknown, plan: PlanLimits): Reply | null => {
  const requests =
    body !== null && typeof body === "object" ? (body as { requests?: unknown }).requests : undefined;
  if (requests === undefined) return oneIssue("body", "requests", "is required");
  if (!Array.isArray(requests)) return oneIssue("body", "requests", "must be an array");
  if (requests.length === 0) return oneIssue("body", "requests", "must hold at least one element");
  if (requests.length > plan.max_batch_size) {
    return errorReply(
      "batch_too_large",
      `A batch holds at most ${plan.max_batch_size} elements on this plan; this one has ${requests.length}`,
      { max_items: plan.max_batch_size, received: requests.length },
    );
  }
  return null;
};

export type Prepared = {
  name: RouteName;
  route: ContractRoute;
  request: Request;
  params: object;
  url: URL;
  requestId: string;
  /** The body as sent (POST), read once by the caller. */
  text: string;
};

export type Answered = { reply: Reply; rate: RateHeaders | null };

/**
 * Everything between the gate (auth) and the resolver: body checks, limits, validation, the
 * idempotency record. `resolve` answers a request that passed them.
 */
export const admit = async (
  prepared: Prepared,
  state: MockState,
  resolve: (query: unknown, path: unknown, body: unknown) => Reply,
): Promise<Answered> => {
  const { route, request, url } = prepared;
  const plan = PLANS[state.plan];
  const now = state.now();
  const peek = () => state.limits.peek(plan, now);
  const typed = route as unknown as { pathParams?: Parser; query?: Parser };
  const parseInput = (): { reply: Reply } | { query: unknown; path: unknown } => {
    const path = typed.pathParams
      ? typed.pathParams.safeParse(prepared.params)
      : { success: true as const, data: {} };
    const query = typed.query
      ? typed.query.safeParse(Object.fromEntries(url.searchParams))
      : { success: true as const, data: {} };
    const issues = [
      ...(path.success ? [] : issuesOf("path", path.error.issues)),
      ...(query.success ? [] : issuesOf("query", query.error.issues)),
    ];
    if (issues.length > 0 || !path.success || !query.success) return { reply: validationReply(issues) };
    return { query: query.data, path: path.data };
  };

  if (route.method !== "POST") {
    if (route.metadata.metered === false) {
      const input = parseInput();
      if ("reply" in input) return { reply: input.reply, rate: peek() };
      return { reply: resolve(input.query, input.path, undefined), rate: peek() };
    }
    const charged = state.limits.charge(plan, now, 1, true);
    if (charged.refusal) return { reply: charged.refusal, rate: charged.headers };
    const input = parseInput();
    const reply = "reply" in input ? input.reply : resolve(input.query, input.path, undefined);
    return { reply, rate: charged.headers };
  }

  // The body: its media type, its size, JSON (refused before anything is charged).
  const { text } = prepared;
  const type = request.headers.get("content-type");
  if (text.length > 0 && !/^application\/json\b/i.test(type ?? "")) {
    return {
      reply: errorReply("unsupported_media_type", "The body must be sent as application/json", {
        expected: "application/json",
      }),
      rate: peek(),
    };
  }
  if (new TextEncoder().encode(text).length > BODY_LIMIT_BYTES) {
    return {
      reply: errorReply("payload_too_large", `The body is larger than ${BODY_LIMIT_BYTES} bytes`, {
        max_bytes: BODY_LIMIT_BYTES,
      }),
      rate: peek(),
    };
  }
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch (error) {
    const message = `is not valid JSON (${(error as Error).message})`;
    return {
      reply: errorReply("validation_failed", `Invalid body: ${message}`, {
        issues: [{ location: "body", field: "", message }],
      }),
      rate: peek(),
    };
  }

  const refusal = batchShape(body, plan);
  const cost = refusal ? 1 : (body as { requests: unknown[] }).requests.length;
  const work = (): Reply => {
    if (refusal) return refusal;
    const input = parseInput();
    return "reply" in input ? input.reply : resolve(input.query, input.path, body);
  };

  const rawKey = request.headers.get("idempotency-key");
  if (rawKey === null) {
    const charged = state.limits.charge(plan, now, cost, true);
    return { reply: charged.refusal ?? work(), rate: charged.headers };
  }
  const key = IdempotencyKeySchema.safeParse(rawKey);
  if (!key.success) {
    const charged = state.limits.charge(plan, now, 1, true);
    const reply = oneIssue("header", "idempotency-key", key.error.issues[0]?.message ?? "is invalid");
    return { reply: charged.refusal ?? reply, rate: charged.headers };
  }
  const parsedQuery = typed.query?.safeParse(Object.fromEntries(url.searchParams));
  const fingerprint = fingerprintOf(
    request.method,
    route.path,
    parsedQuery?.success ? (parsedQuery.data as Record<string, unknown>) : url.search.replace(/^\?/, ""),
    body,
  );
  const decision = decide(state.idempotency.get(key.data), fingerprint, now);
  if (decision.kind !== "process") {
    // An answer that does no work costs one unit of the rate windows, not of the quota.
    const charged = state.limits.charge(plan, now, 1, false);
    if (charged.refusal) return { reply: charged.refusal, rate: charged.headers };
    if (decision.kind === "replay") {
      const { answer } = decision;
      return {
        reply: {
          status: answer.status,
          body: answer.body,
          raw: true,
          headers: { "content-type": answer.contentType, "idempotency-replayed": "true" },
        },
        rate: charged.headers,
      };
    }
    if (decision.kind === "conflict") {
      return {
        reply: errorReply(
          "idempotency_conflict",
          "A request with this Idempotency-Key is still being processed; retry in a few seconds",
          { idempotency_key: key.data, retry_after: CONFLICT_RETRY_AFTER },
          { "retry-after": String(CONFLICT_RETRY_AFTER) },
        ),
        rate: charged.headers,
      };
    }
    return {
      reply: errorReply(
        "idempotency_key_reuse",
        "This Idempotency-Key was used with a different request in the last 24 hours; use a new key",
        { idempotency_key: key.data },
      ),
      rate: charged.headers,
    };
  }
  state.idempotency.set(key.data, { state: "in_flight", fingerprint });
  await state.held();
  const charged = state.limits.charge(plan, state.now(), cost, true);
  const reply = charged.refusal ?? work();
  if (isStored(reply.status)) {
    state.idempotency.set(key.data, {
      state: "stored",
      fingerprint,
      expiresAt: state.now() + RETENTION_MS,
      answer: {
        status: reply.status,
        body: JSON.stringify(reply.body),
        contentType: "application/json; charset=utf-8",
      },
    });
  } else {
    state.idempotency.delete(key.data);
  }
  return { reply, rate: charged.headers };
};
