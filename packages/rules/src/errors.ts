import type { ErrorCode, ErrorDetailsSchemas } from "@gmi/contract";
import { CODE_TO_STATUS } from "@gmi/contract";
import type { z } from "zod";

type DetailsOf<C extends ErrorCode> = C extends keyof typeof ErrorDetailsSchemas
  ? z.infer<(typeof ErrorDetailsSchemas)[C]>
  : undefined;

/** Codes whose details are required by our decisions (docs/decisions.md, details table). */
type ArgsOf<C extends ErrorCode> =
  DetailsOf<C> extends undefined
    ? [message: string, details?: undefined, headers?: Record<string, string | number>]
    : [message: string, details: DetailsOf<C>, headers?: Record<string, string | number>];

/**
 * The one error type of the server: domain code and plugins throw it, and only the error handler
 * turns it into the envelope. The status always comes from the contract's CODE_TO_STATUS, so a
 * code cannot be answered with two statuses.
 */
export class ApiError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  readonly status: (typeof CODE_TO_STATUS)[C];
  readonly details: DetailsOf<C> | undefined;
  /** Extra response headers (Retry-After, Allow). */
  readonly headers: Record<string, string | number>;

  constructor(code: C, ...[message, details, headers]: ArgsOf<C>) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = CODE_TO_STATUS[code];
    this.details = details as DetailsOf<C> | undefined;
    this.headers = headers ?? {};
  }

  toBody(): { error: { code: C; message: string; details?: DetailsOf<C> } } {
    return this.details === undefined
      ? { error: { code: this.code, message: this.message } }
      : { error: { code: this.code, message: this.message, details: this.details } };
  }
}

export const isApiError = (value: unknown): value is ApiError => value instanceof ApiError;

/** Shorthands for the failures raised in many places. */
export const notFound = (resource: string, id?: string | number) =>
  new ApiError("not_found", `No ${resource} ${id === undefined ? "here" : `with id ${id}`}`, {
    resource,
    ...(id === undefined ? {} : { id }),
  });

export const validationFailed = (
  location: "query" | "path" | "body" | "header",
  field: string,
  message: string,
) =>
  new ApiError("validation_failed", `Invalid ${location} parameter ${field}: ${message}`, {
    issues: [{ location, field, message }],
  });
