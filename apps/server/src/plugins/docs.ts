import scalarApiReference from "@scalar/fastify-api-reference";
import type { FastifyInstance } from "fastify";

export type DocsPluginOptions = {
  /** Where the browser fetches the OpenAPI document (served by plugins/openapi.ts). */
  openApiUrl?: string;
};

/**
 * Everything the page may load comes from this server: the renderer's script is served from the
 * package (no CDN), the document from our own route. The policy makes the browser refuse anything
 * else, so a renderer upgrade that starts calling home (fonts, telemetry) fails visibly in the
 * browser test instead of leaking requests from operators' browsers. Inline script and style are
 * the renderer's bootstrap and its themes.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * Fixes to the renderer's layout, checked in a browser by test/e2e/docs.browser.test.ts:
 * - the response tabs of an operation wrap onto more lines: in one line they ran past the card's
 *   edge, and with the scrollbar hidden a batch route's last statuses (503 among them) could not
 *   be reached;
 * - the introduction's tables (error codes, plan limits) size their columns to their words and keep
 *   each figure on one line (scrolling sideways in their column if it is too narrow): with fixed
 *   columns they broke "Plan" into "Pla n" and "1,000" into "1,00 0".
 */
const DOCS_CSS = `
.scalar-card-header-title:has(> .tab-list) { overflow: visible; white-space: normal; }
.tab-list { flex-wrap: wrap; overflow: visible; row-gap: 4px; }
.introduction-description .markdown table { table-layout: auto; display: block; width: max-content; max-width: 100%; overflow-x: auto; }
.introduction-description .markdown :is(th, td) { word-break: normal; overflow-wrap: normal; padding-inline: 8px; font-size: var(--scalar-small); }
.introduction-description .markdown td:not(:first-child) { white-space: nowrap; }
`;

/**
 * The human-readable API reference at /docs: Scalar, rendered in the browser from the contract's
 * OpenAPI document. The document carries what readers need, so the page shows it without extra
 * work here: the bearer scheme (components.securitySchemes), the error-code table
 * (info.description), and a curl example per operation (x-codeSamples). Public, like the document.
 */
export const docsPlugin = async (app: FastifyInstance, options: DocsPluginOptions) => {
  app.addHook("onSend", async (request, reply, payload) => {
    reply.header("content-security-policy", CONTENT_SECURITY_POLICY);
    reply.header("x-content-type-options", "nosniff");
    // The script (about 5 MB) changes only with the package version; the page and document are cheap.
    if (request.url.endsWith(".js")) reply.header("cache-control", "public, max-age=86400");
    return payload;
  });
  await app.register(scalarApiReference, {
    routePrefix: "/docs",
    logLevel: "warn",
    configuration: {
      url: options.openApiUrl ?? "/api/v1/openapi.json",
      pageTitle: "Game Market Intelligence API reference",
      // No calls to third-party hosts from the page: system fonts, no telemetry, no AI agent.
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: "never",
      // Every operation needs the key; the document declares it per operation, so name it here.
      authentication: { preferredSecurityScheme: "bearerAuth" },
      // Every endpoint listed in the sidebar without clicking through the tags.
      defaultOpenAllTags: true,
      documentDownloadType: "json",
      customCss: DOCS_CSS,
    },
  });
};
