import { generateSchema } from "@anatine/zod-openapi";
import type { AppRoute } from "@ts-rest/core";
import { generateOpenApi } from "@ts-rest/open-api";
import { CODE_TO_STATUS, ERROR_CODES } from "./common/errors.js";
import { HEADERS } from "./common/headers.js";
import { contract } from "./contract.js";
import { exampleRequests } from "./examples.js";
import { PLANS } from "./plans.js";
import type { RouteMetadata } from "./routes/shared.js";

type Operation = Parameters<NonNullable<Parameters<typeof generateOpenApi>[2]>["operationMapper"] & {}>[0];

const intHeader = (description: string) => ({ description, schema: { type: "integer" } });

/** Headers the server sets on every response to an authenticated request. */
const responseHeaders = {
  [HEADERS.requestId]: {
    description: "UUID of this request in the server logs.",
    schema: { type: "string", format: "uuid" },
  },
  [HEADERS.rateLimitLimit]: intHeader("Per-minute limit of the plan."),
  [HEADERS.rateLimitRemaining]: intHeader("Requests left in the current one-minute window."),
  [HEADERS.rateLimitReset]: intHeader("Seconds until the one-minute window resets."),
};

const statusHeaders: Record<string, Record<string, unknown>> = {
  "429": { [HEADERS.retryAfter]: intHeader("Seconds to wait before retrying.") },
  "402": { [HEADERS.retryAfter]: intHeader("Seconds until the monthly quota resets.") },
};

const errorTable = ERROR_CODES.map((code) => `| ${CODE_TO_STATUS[code]} | \`${code}\` |`).join("\n");
const planTable = Object.values(PLANS)
  .map(
    (p) =>
      `| ${p.name} | ${p.rate_limit_per_minute} | ${p.rate_limit_per_day} | ${p.monthly_quota ?? "unmetered"} | ${p.max_batch_size} | ${p.max_page_size} |`,
  )
  .join("\n");

const description = `Liquidity scores, search demand and a game catalog for sellers of retro video games.

## Authentication
Send \`Authorization: Bearer <API key>\` on every request. Keys carry scopes: \`intelligence.read\`,
\`demand-intent.read\`, \`games.read\`.

## Errors
Every error body is \`{ "error": { "code", "message", "details"? } }\`. Branch on \`code\`:

| Status | Code |
|---|---|
${errorTable}

## Limits
| Plan | Per minute | Per day | Monthly quota | Max batch | Max page |
|---|---|---|---|---|---|
${planTable}
`;

const withExtras = (operation: Operation, route: AppRoute): Operation => {
  const metadata = route.metadata as RouteMetadata;
  const responses = Object.fromEntries(
    Object.entries(operation.responses ?? {}).map(([status, response]) => [
      status,
      { ...(response as object), headers: { ...responseHeaders, ...statusHeaders[status] } },
    ]),
  );
  const extras: Partial<Operation> = {
    responses,
    security: [{ bearerAuth: [] }],
    "x-required-scope": metadata.scope,
  };
  const example = exampleRequests[route.path as keyof typeof exampleRequests];
  if (example) extras["x-codeSamples"] = [{ lang: "shell", label: "curl", source: example }];
  if (metadata.element && operation.requestBody && "content" in operation.requestBody) {
    // The run-time schema accepts any element (per-item validation); document the real one.
    const element = generateSchema(metadata.element);
    extras.requestBody = {
      ...operation.requestBody,
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: ["requests"],
            properties: { requests: { type: "array", minItems: 1, items: element } },
          },
        },
      },
    };
  }
  return { ...operation, ...extras };
};

/** The OpenAPI 3 document of the whole contract. */
export const buildOpenApiDocument = (version = "1.0.0") => {
  const document = generateOpenApi(
    contract,
    {
      info: { title: "Game Market Intelligence API", version, description },
      servers: [{ url: "/", description: "This server" }],
      components: {
        securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "An API key." } },
      },
    },
    { setOperationId: "concatenated-path", operationMapper: withExtras },
  );
  // The schema generator writes JSON Schema 2020-12 style (`exclusiveMinimum: 0`, type arrays for
  // nullables), which is OpenAPI 3.1, not the 3.0.2 that ts-rest stamps on the document.
  return { ...document, openapi: "3.1.0" };
};
