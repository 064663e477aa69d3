import type { ValidationIssue } from "@gmi/contract";
import { RequestValidationError } from "@ts-rest/fastify";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodError } from "zod";
import { ApiError, isApiError } from "../errors.js";
import { globalPlugin } from "./plugin.js";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** A parameter the endpoint does not take (strict query schemas) is named as its own issue. */
const NOT_A_PARAMETER = "is not a parameter of this endpoint";

const issuesOf = (location: ValidationIssue["location"], error: ZodError | null): ValidationIssue[] =>
  (error?.issues ?? []).flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({
          location,
          field: [...issue.path, key].join("."),
          message: location === "query" ? NOT_A_PARAMETER : "is not a known field",
        }))
      : [{ location, field: issue.path.join("."), message: issue.message }],
  );

/** ts-rest's validation failure as one 422 naming every bad field ("" = the location as a whole). */
const fromRequestValidation = (error: RequestValidationError): ApiError => {
  const issues = [
    ...issuesOf("path", error.pathParams),
    ...issuesOf("header", error.headers),
    ...issuesOf("query", error.query),
    ...issuesOf("body", error.body),
  ];
  const first = issues[0] ?? { location: "body" as const, field: "", message: "is invalid" };
  const head = first.field ? `${first.location} parameter ${first.field}` : `${first.location}`;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return new ApiError("validation_failed", `Invalid ${head}: ${first.message}${more}`, {
    issues: issues.length ? issues : [first],
  });
};

const badBody = (message: string) =>
  new ApiError("validation_failed", `Invalid body: ${message}`, {
    issues: [{ location: "body", field: "", message }],
  });

/** Maps anything thrown to the one error type; null means "unexpected" (a 500). */
export const toApiError = (error: unknown, bodyLimit: number): ApiError | null => {
  if (isApiError(error)) return error;
  if (error instanceof RequestValidationError) return fromRequestValidation(error);
  const e = error as Partial<FastifyError> & { message?: string };
  switch (e.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ApiError("payload_too_large", `The body is larger than ${bodyLimit} bytes`, {
        max_bytes: bodyLimit,
      });
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ApiError("unsupported_media_type", "The body must be sent as application/json", {
        expected: "application/json",
      });
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return badBody("must not be empty when Content-Type is application/json");
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return badBody(e.message ?? "is not valid JSON");
    case "FST_ERR_MAX_PARAM_LENGTH":
      // The router refuses a parameter longer than any the contract accepts before ts-rest sees it.
      return new ApiError("validation_failed", "Invalid path: a path parameter is too long", {
        issues: [{ location: "path", field: "", message: "is longer than any value this route accepts" }],
      });
    case "FST_ERR_BAD_URL":
      return new ApiError("validation_failed", "The URL is not valid", {
        issues: [{ location: "path", field: "", message: "is not a valid URL (bad percent-encoding)" }],
      });
  }
  // JSON.parse failures (and prototype-poisoning refusals) come from the body parser as 400s.
  if (e.statusCode === 400 && (error instanceof SyntaxError || /JSON|prototype/i.test(e.message ?? ""))) {
    return badBody(`is not valid JSON (${e.message})`);
  }
  if (e.statusCode === 413)
    return new ApiError("payload_too_large", "The body is too large", { max_bytes: bodyLimit });
  if (e.statusCode === 415) {
    return new ApiError("unsupported_media_type", "Unsupported media type", { expected: "application/json" });
  }
  return null;
};

const send = (reply: FastifyReply, error: ApiError) =>
  reply.status(error.status).headers(error.headers).send(error.toBody());

/**
 * THE error handler: every failure, ours, ts-rest's and Fastify's, leaves through here as the
 * envelope. ts-rest installs its own handler in the scope where the contract routes live
 * (routes/index.ts); we configure it to rethrow, which hands the error to this root handler.
 */
export const errorsPlugin = globalPlugin<{ bodyLimit: number }>("errors", async (app, { bodyLimit }) => {
  const handle = (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = toApiError(error, bodyLimit);
    if (mapped) return send(reply, mapped);
    request.log.error({ err: error }, "unhandled error");
    return send(
      reply,
      new ApiError("server_error", "An unexpected error occurred; quote the request_id when reporting it", {
        request_id: String(request.id),
      }),
    );
  };
  app.setErrorHandler(handle);
  app.setNotFoundHandler((request, reply) => notFoundOrWrongMethod(app, request, reply));
});

/** Fastify answers an unknown method on a known path with 404; we tell the two apart (405 + Allow). */
const notFoundOrWrongMethod = (app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) => {
  const path = request.url.split("?")[0] ?? "/";
  const allowed = METHODS.filter(
    (method) => method !== request.method && app.findRoute({ method, url: path }),
  );
  if (allowed.length > 0) {
    return send(
      reply,
      new ApiError(
        "method_not_allowed",
        `${request.method} is not allowed here; use ${allowed.join(", ")}`,
        { allowed },
        { allow: allowed.join(", ") },
      ),
    );
  }
  return send(reply, new ApiError("not_found", `No route ${request.method} ${path}`, { resource: "route" }));
};
