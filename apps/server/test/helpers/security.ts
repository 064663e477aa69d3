import type { ContractRoute } from "@gmi/contract";
import { ErrorEnvelopeSchema, listRoutes, SCOPES } from "@gmi/contract";
import type { FastifyInstance, InjectOptions } from "fastify";
import { describe, expect, it } from "vitest";
import { revokeApiKey } from "../../src/data/keys.js";
import type { Sql } from "../../src/data/sql.js";
import { bearer } from "./app.js";
import { createTenant, suspendClient, suspendOrganization } from "./tenant.js";

/** Values for path parameters that exist in the fixture catalog. */
const PATH_VALUES: Record<string, string> = {
  id: "101",
  game_id: "101",
  console_id: "1",
  slug: "chrono-trigger",
  title: "Chrono%20Trigger",
};

/** A request that is valid for `route` apart from its credentials. */
export const validRequest = (route: ContractRoute, headers: Record<string, string>): InjectOptions => {
  const url = route.path.replace(/:([a-z_]+)/g, (_, name: string) => PATH_VALUES[name] ?? "1");
  if (route.method === "POST") {
    return {
      method: "POST",
      url,
      headers: { ...headers, "content-type": "application/json" },
      payload: JSON.stringify({ requests: [{ game_id: 101 }, { id: 102 }] }),
    };
  }
  return { method: route.method as "GET", url, headers };
};

const expectError = (response: { statusCode: number; json(): unknown }, status: number, code: string) => {
  expect(response.statusCode).toBe(status);
  const body = ErrorEnvelopeSchema.parse(response.json());
  expect(body.error.code).toBe(code);
  return body.error;
};

/**
 * The shared security cases, generated for every route of the contract (so a new route is covered
 * the day it is added): no key, malformed key, unknown key, revoked, expired → 401; a key without the
 * route's scope → 403 insufficient_scope naming it; inactive organization or API client → 403.
 */
export const describeSecurityForEveryRoute = (ctx: () => { app: FastifyInstance; sql: Sql }) => {
  for (const { name, route } of listRoutes()) {
    describe(`${name} (${route.method} ${route.path})`, () => {
      const send = (headers: Record<string, string>) => ctx().app.inject(validRequest(route, headers));

      it("401 without a key", async () => {
        const response = await send({});
        expectError(response, 401, "unauthorized");
        expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      });

      it("401 with a malformed or unknown key", async () => {
        expectError(await send({ authorization: "Bearer nope" }), 401, "unauthorized");
        expectError(await send({ authorization: "Basic abc" }), 401, "unauthorized");
        expectError(await send(bearer(`gmi_live_${"A".repeat(43)}`)), 401, "unauthorized");
      });

      it("401 with a revoked or expired key", async () => {
        const revoked = await createTenant(ctx().sql);
        await revokeApiKey(ctx().sql, revoked.keyId, new Date(Date.now() - 1000));
        expectError(await send(bearer(revoked.key)), 401, "unauthorized");
        const expired = await createTenant(ctx().sql, { expiresAt: new Date(Date.now() - 1000) });
        expectError(await send(bearer(expired.key)), 401, "unauthorized");
      });

      const scope = route.metadata.scope;
      if (scope !== null) {
        it(`403 insufficient_scope without ${scope}`, async () => {
          const tenant = await createTenant(ctx().sql, { scopes: SCOPES.filter((s) => s !== scope) });
          const error = expectError(await send(bearer(tenant.key)), 403, "insufficient_scope");
          expect(error.details).toEqual({ required_scope: scope });
        });
      }

      it("403 account_inactive for a suspended organization or API client", async () => {
        const org = await createTenant(ctx().sql);
        await suspendOrganization(ctx().sql, org.organizationId);
        const orgError = expectError(await send(bearer(org.key)), 403, "account_inactive");
        expect(orgError.details).toEqual({ subject: "organization", status: "suspended" });
        const client = await createTenant(ctx().sql, { withClient: true });
        await suspendClient(ctx().sql, client.clientId ?? 0);
        const clientError = expectError(await send(bearer(client.key)), 403, "account_inactive");
        expect(clientError.details).toEqual({ subject: "api_client", status: "suspended" });
      });

      it("passes with a valid key of an active account", async () => {
        const tenant = await createTenant(ctx().sql);
        const response = await send(bearer(tenant.key));
        const successes = Object.keys(route.responses)
          .map(Number)
          .filter((status) => status < 300);
        expect(successes).toContain(response.statusCode);
        expect(response.headers["x-ratelimit-limit"]).toBeDefined();
      });
    });
  }
};
