import type { FastifyInstance } from "fastify";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { docsPlugin } from "./docs.js";

// The page itself is exercised in a real browser by test/e2e/docs.browser.test.ts; this checks what
// the server sends.
describe("docs plugin", () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    await app.register(docsPlugin, { openApiUrl: "/api/v1/openapi.json" });
    await app.ready();
  });
  afterAll(() => app.close());

  it("redirects /docs to /docs/, where the script's relative path resolves", async () => {
    const response = await app.inject({ method: "GET", url: "/docs" });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe("/docs/");
  });

  it("serves a page that loads the renderer from this server and the document from our route", async () => {
    const response = await app.inject({ method: "GET", url: "/docs/" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    const html = response.body;
    expect(html).toContain('<script src="js/scalar.js"');
    expect(html).toContain('"url": "/api/v1/openapi.json"');
    // No script, style or font from another host.
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
    expect(response.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(response.headers["content-security-policy"]).toContain("connect-src 'self'");
  });

  it("serves the bundled renderer script, cacheable", async () => {
    const response = await app.inject({ method: "GET", url: "/docs/js/scalar.js" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/javascript/);
    expect(response.body.length).toBeGreaterThan(1_000_000);
    expect(response.headers["cache-control"]).toBe("public, max-age=86400");
  });
});
