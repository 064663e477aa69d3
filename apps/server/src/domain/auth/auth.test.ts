import { PLANS } from "@gmi/contract";
import { describe, expect, it } from "vitest";
import type { ApiError } from "../../errors.js";
import { bearerToken, generateApiKey, hashApiKey, isWellFormedKey, presentedKey } from "./api-key.js";
import type { KeyRecord } from "./authorize.js";
import { authorize } from "./authorize.js";
import { buildRouteTable, routeKey } from "./scope-table.js";

const record = (over: Partial<KeyRecord> = {}): KeyRecord => ({
  keyId: 1,
  keyName: "k",
  lastFour: "abcd",
  scopes: ["games.read"],
  expiresAt: null,
  revokedAt: null,
  organization: { id: 1, name: "o", status: "active" },
  client: null,
  plan: PLANS.free,
  ...over,
});

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as ApiError).toBody().error;
  }
  return null;
};

describe("api keys", () => {
  it("have a recognisable prefix, 256 bits of randomness and a SHA-256 hash", () => {
    const a = generateApiKey();
    expect(a.key).toMatch(/^gmi_live_[A-Za-z0-9_-]{43}$/);
    expect(isWellFormedKey(a.key)).toBe(true);
    expect(a.hash).toBe(hashApiKey(a.key));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.lastFour).toBe(a.key.slice(-4));
    expect(generateApiKey().key).not.toBe(a.key);
  });

  it("are read from a Bearer header only", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer abc")).toBe("abc");
    expect(bearerToken("Basic abc")).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
    expect(isWellFormedKey("gmi_live_short")).toBe(false);
  });

  it("are presented by a header as its key's hash, no token, or a malformed token", () => {
    const { key, hash } = generateApiKey();
    expect(presentedKey(`Bearer ${key}`)).toEqual({ hash });
    expect(presentedKey(`bearer  ${key} `)).toEqual({ hash });
    expect(presentedKey(undefined)).toBe("no token");
    expect(presentedKey(`Basic ${key}`)).toBe("no token");
    expect(presentedKey("Bearer gmi_live_short")).toBe("malformed");
  });
});

describe("authorize", () => {
  const now = Date.UTC(2026, 0, 1);
  it("401 for unknown, revoked and expired keys", () => {
    expect(codeOf(() => authorize(null, null, now))?.code).toBe("unauthorized");
    expect(codeOf(() => authorize(record({ revokedAt: now - 1 }), null, now))?.code).toBe("unauthorized");
    expect(codeOf(() => authorize(record({ expiresAt: now }), null, now))?.code).toBe("unauthorized");
  });
  it("403 account_inactive before insufficient_scope", () => {
    const org = record({ organization: { id: 1, name: "o", status: "suspended" } });
    expect(codeOf(() => authorize(org, "intelligence.read", now))).toMatchObject({
      code: "account_inactive",
      details: { subject: "organization", status: "suspended" },
    });
    expect(
      codeOf(() => authorize(record({ client: { id: 2, status: "suspended" } }), null, now)),
    ).toMatchObject({
      details: { subject: "api_client" },
    });
    expect(codeOf(() => authorize(record(), "intelligence.read", now))).toMatchObject({
      code: "insufficient_scope",
      details: { required_scope: "intelligence.read" },
    });
    expect(authorize(record(), "games.read", now).keyId).toBe(1);
    expect(authorize(record(), null, now).keyId).toBe(1);
  });
});

describe("route table", () => {
  it("has every contract route with its scope", () => {
    const table = buildRouteTable();
    expect(table.get(routeKey("GET", "/api/v1/me"))).toEqual({
      name: "account.me",
      scope: null,
      batch: false,
      metered: false,
    });
    expect(table.get(routeKey("POST", "/api/v1/intelligence/batch"))).toMatchObject({
      scope: "intelligence.read",
      batch: true,
      metered: true,
    });
    expect(table.get(routeKey("GET", "/api/v1/games/game/:id"))?.scope).toBe("games.read");
  });
});
