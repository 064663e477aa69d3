import { randomUUID } from "node:crypto";
import http from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { ValidationIssue } from "@gmi/contract";
import { RequestValidationError } from "@ts-rest/fastify";
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodError } from "zod";
import { isDatabaseUnavailable } from "../data/unavailable.js";
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

/** Seconds a client is told to wait when the database is unreachable (a restart takes a few). */
const DATABASE_RETRY_AFTER_S = 5;

/** Maps anything thrown to the one error type; null means "unexpected" (a 500). */
export const toApiError = (error: unknown, bodyLimit: number): ApiError | null => {
  if (isApiError(error)) return error;
  if (isDatabaseUnavailable(error)) {
    return new ApiError(
      "service_unavailable",
      "The database is unreachable; retry in a few seconds",
      undefined,
      {
        "retry-after": DATABASE_RETRY_AFTER_S,
      },
    );
  }
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

/** How long, and how much more, a refused body is read after its answer before the socket closes. */
const LINGER_MS = 2_000;
const LINGER_BYTES = 16 * 1_048_576;

/**
 * A lingering close for a connection whose request body we refused mid-way (413): the answer is
 * sent and our side shut (FIN), then the rest of what the client is still sending is read and
 * dropped until it stops, up to LINGER_MS / LINGER_BYTES. Closing at once would leave unread bytes,
 * and the kernel answers those with a reset that can discard the 413 before the client reads it.
 * Node closes a `Connection: close` socket with destroySoon(); this socket's is replaced.
 */
const lingerBeforeClose = (socket: Socket) => {
  const target = socket as Socket & { destroySoon?: () => void };
  target.destroySoon = () => {
    target.end();
    const startBytes = socket.bytesRead;
    const stop = () => {
      clearInterval(check);
      socket.destroy();
    };
    const check = setInterval(() => {
      if (socket.bytesRead - startBytes > LINGER_BYTES) stop();
    }, 100);
    check.unref();
    setTimeout(stop, LINGER_MS).unref();
    socket.once("end", stop);
    socket.once("close", () => clearInterval(check));
  };
};

/**
 * THE error handler: every failure, ours, ts-rest's and Fastify's, leaves through here as the
 * envelope. ts-rest installs its own handler in the scope where the contract routes live
 * (routes/index.ts); we configure it to rethrow, which hands the error to this root handler.
 */
export const errorsPlugin = globalPlugin<{ bodyLimit: number }>("errors", async (app, { bodyLimit }) => {
  const handle = (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = toApiError(error, bodyLimit);
    if (mapped?.code === "payload_too_large") lingerBeforeClose(request.raw.socket);
    if (mapped?.code === "service_unavailable" && !isApiError(error)) {
      request.log.warn({ err: error }, "database unreachable: answered 503");
    }
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

type ProtocolIssue = { location: ValidationIssue["location"]; field: string; message: string };

/** llhttp's parse errors, in the client's words: what was wrong with the bytes it sent. */
const PROTOCOL_ISSUES: Record<string, ProtocolIssue> = {
  HPE_INVALID_HEADER_TOKEN: {
    location: "header",
    field: "",
    message: "a header name or value holds a character HTTP does not allow",
  },
  HPE_LF_EXPECTED: { location: "header", field: "", message: "a line is not ended by CRLF (a bare CR)" },
  HPE_CR_EXPECTED: { location: "header", field: "", message: "a line is not ended by CRLF (a bare LF)" },
  HPE_INVALID_METHOD: { location: "path", field: "", message: "the method is not a valid HTTP method" },
  HPE_INVALID_URL: { location: "path", field: "", message: "the request target is not a valid URL" },
  HPE_INVALID_VERSION: { location: "path", field: "", message: "the HTTP version is not valid" },
  HPE_UNEXPECTED_CONTENT_LENGTH: {
    location: "header",
    field: "content-length",
    message: "must not be sent together with Transfer-Encoding",
  },
  HPE_INVALID_CONTENT_LENGTH: { location: "header", field: "content-length", message: "is not valid" },
  HPE_INVALID_TRANSFER_ENCODING: { location: "header", field: "transfer-encoding", message: "is not valid" },
  HPE_INVALID_CHUNK_SIZE: { location: "body", field: "", message: "a chunk size is not valid" },
  ERR_HTTP_REQUEST_TIMEOUT: {
    location: "header",
    field: "",
    message: "the request was not complete within the time allowed",
  },
};

/** The envelope for a request Node's parser refused, before Fastify (and its request id) saw it. */
export const protocolError = (code: string | undefined, maxHeaderBytes: number): ApiError => {
  if (code === "HPE_HEADER_OVERFLOW") {
    return new ApiError(
      "payload_too_large",
      `The request line and headers are larger than ${maxHeaderBytes} bytes`,
      { max_bytes: maxHeaderBytes },
    );
  }
  const issue = (code && PROTOCOL_ISSUES[code]) || {
    location: "header" as const,
    field: "",
    message: `is not valid HTTP/1.1 (${code ?? "unknown parse error"})`,
  };
  const head = issue.field ? `${issue.location} ${issue.field}` : "request";
  return new ApiError("validation_failed", `Malformed HTTP request: ${head} ${issue.message}`, {
    issues: [issue],
  });
};

/**
 * Node's `clientError` (Fastify's clientErrorHandler): the bytes were not HTTP Fastify can route,
 * so no request object exists. The answer is still the envelope with an X-Request-Id (logged with
 * the parse error's code), then the connection is closed, as the stream cannot be resynchronised.
 */
export const protocolErrorHandler =
  (logger: FastifyBaseLogger, maxHeaderBytes = http.maxHeaderSize) =>
  (error: Error & { code?: string }, socket: Duplex) => {
    // A reset connection has nobody left to answer.
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    const requestId = randomUUID();
    const mapped = protocolError(error.code, maxHeaderBytes);
    logger.info(
      { request_id: requestId, code: error.code, status: mapped.status },
      "malformed HTTP request refused",
    );
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify(mapped.toBody());
    const head = [
      `HTTP/1.1 ${mapped.status} ${http.STATUS_CODES[mapped.status]}`,
      "content-type: application/json; charset=utf-8",
      `content-length: ${Buffer.byteLength(body)}`,
      `x-request-id: ${requestId}`,
      "x-content-type-options: nosniff",
      "connection: close",
    ];
    socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
    // A client that never reads must not hold the socket open.
    setTimeout(() => socket.destroy(), 5_000).unref();
  };
