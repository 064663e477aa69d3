import { readFile } from "node:fs/promises";
import path from "node:path";
import type { FastifyInstance, FastifyReply } from "fastify";

export type DashboardPluginOptions = {
  /** The built dashboard (apps/web/dist, DASHBOARD_DIR); absent: /app says how to build it. */
  dir: string;
};

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
};

/**
 * The page talks to this server by default, or to the API address the user typed (another
 * deployment), hence `connect-src` beyond 'self'. Nothing else loads from elsewhere.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self' https: http:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * The seller dashboard (apps/web) at /app, from its built files: same origin as the API, so it needs
 * no CORS. Hashed assets are cached for a year; index.html never, so a new build shows at once. Any
 * other path under /app is the page itself (its routes live in the URL's hash). Public: the page
 * holds no data, the API key is typed into it.
 */
export const dashboardPlugin = async (app: FastifyInstance, options: DashboardPluginOptions) => {
  const root = path.resolve(options.dir);
  const send = async (reply: FastifyReply, file: string, cache: string) => {
    const body = await readFile(file);
    return reply
      .header("content-type", TYPES[path.extname(file)] ?? "application/octet-stream")
      .header("cache-control", cache)
      .header("content-security-policy", CONTENT_SECURITY_POLICY)
      .header("x-content-type-options", "nosniff")
      .header("referrer-policy", "no-referrer")
      .send(body);
  };
  const page = async (reply: FastifyReply) => {
    try {
      return await send(reply, path.join(root, "index.html"), "no-cache");
    } catch {
      return reply
        .code(404)
        .header("content-type", "text/plain; charset=utf-8")
        .send(
          "The dashboard is not built: run `./scripts/pnpm build` (or `./scripts/pnpm --filter @gmi/web build`).\n",
        );
    }
  };

  app.get("/app", (_request, reply) => reply.redirect("/app/", 301));
  app.get("/app/", (_request, reply) => page(reply));
  app.get<{ Params: { "*": string } }>("/app/*", async (request, reply) => {
    const wanted = path.resolve(root, request.params["*"]);
    // Only files inside the build folder; `..` and absolute paths fall back to the page.
    if (wanted.startsWith(`${root}${path.sep}`) && path.extname(wanted) !== "") {
      const immutable = wanted.startsWith(path.join(root, "assets") + path.sep);
      try {
        return await send(reply, wanted, immutable ? "public, max-age=31536000, immutable" : "no-cache");
      } catch {
        return reply.code(404).header("content-type", "text/plain; charset=utf-8").send("Not found\n");
      }
    }
    return page(reply);
  });
};
