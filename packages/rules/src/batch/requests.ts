import type { ErrorBody } from "@gmi/contract";
import type { ZodError, ZodIssue, ZodTypeAny, z } from "zod";
import { ApiError, validationFailed } from "../errors.js";

/** A batch body's `requests`, checked whole: the elements to answer, or the whole-batch 422. */
export type BatchShape = { ok: true; requests: readonly unknown[] } | { ok: false; refusal: ApiError };

/**
 * The `requests` array of a batch body, checked once, before anything is charged (the batch
 * admission, plugins/batch-admission.ts): refused whole (spec, Limits rule 7) when missing, empty or
 * longer than the plan's max_batch_size. Its elements are checked one by one by the handler.
 */
export const batchShape = (body: unknown, maxBatchSize: number): BatchShape => {
  const requests =
    body !== null && typeof body === "object" ? (body as { requests?: unknown }).requests : undefined;
  const refused = (refusal: ApiError): BatchShape => ({ ok: false, refusal });
  if (requests === undefined) return refused(validationFailed("body", "requests", "is required"));
  if (!Array.isArray(requests)) return refused(validationFailed("body", "requests", "must be an array"));
  if (requests.length === 0) {
    return refused(validationFailed("body", "requests", "must hold at least one element"));
  }
  if (requests.length > maxBatchSize) {
    return refused(
      new ApiError(
        "batch_too_large",
        `A batch holds at most ${maxBatchSize} elements on this plan; this one has ${requests.length}`,
        { max_items: maxBatchSize, received: requests.length },
      ),
    );
  }
  return { ok: true, requests };
};

/** One element: the id it asks for, or the 422 of that element alone (spec: per-item 422). */
export type ParsedElement = { ok: true; id: number } | { ok: false; error: ErrorBody };

type Issue = { path: Array<string | number>; message: string };

const isMissing = (issue: ZodIssue) => issue.code === "invalid_type" && issue.received === "undefined";

/**
 * Zod reports a failed union as "Invalid input" with one error per branch; we answer with the
 * branch the client evidently meant (the one whose keys are present), or name the alternatives
 * when none of them is there (`{}` for `{game_id} | {id}`: "must have game_id or id").
 */
const issuesOf = (error: ZodError): Issue[] =>
  error.issues.flatMap((issue): Issue[] => {
    if (issue.code === "invalid_union") {
      const branches = issue.unionErrors.map((e) => e.issues);
      if (branches.every((b) => b.some((i) => i.path.length === 0 && i.code === "invalid_type"))) {
        return [{ path: issue.path, message: "must be an object" }];
      }
      if (branches.every((b) => b.length > 0 && b.every(isMissing))) {
        const keys = branches.map((b) => b[0]?.path.join(".") ?? "");
        return [{ path: issue.path, message: `must have ${keys.join(" or ")}` }];
      }
      const missing = (e: ZodError) => e.issues.filter(isMissing).length;
      const best = issue.unionErrors.reduce((a, b) => (missing(b) < missing(a) ? b : a));
      return issuesOf(best);
    }
    if (issue.code === "invalid_type" && issue.path.length === 0 && issue.expected === "object") {
      return [{ path: [], message: "must be an object" }];
    }
    return [{ path: issue.path, message: issue.message }];
  });

const elementError = (index: number, issues: Issue[]): ErrorBody => {
  const located = issues.map((issue) => ({
    location: "body" as const,
    field: ["requests", index, ...issue.path].join("."),
    message: issue.message,
  }));
  const [first] = located;
  const message = first ? `Invalid body parameter ${first.field}: ${first.message}` : "Invalid element";
  return new ApiError("validation_failed", message, { issues: located }).toBody().error;
};

/**
 * Checks each element against the route's element schema (the contract's `metadata.element`) and
 * takes its id with `idOf`. For `{game_id} | {id}` both keys present means `game_id`: the
 * contract's union tries that branch first.
 */
export const parseElements = <S extends ZodTypeAny>(
  requests: readonly unknown[],
  schema: S,
  idOf: (element: z.output<S>) => number,
): ParsedElement[] =>
  requests.map((element, index) => {
    const parsed = schema.safeParse(element);
    return parsed.success
      ? { ok: true, id: idOf(parsed.data) }
      : { ok: false, error: elementError(index, issuesOf(parsed.error)) };
  });
