import { describe, expect, it } from "vitest";
import { canonicalJson, canonicalQuery } from "./canonical.js";
import type { IdempotencyRecord } from "./decide.js";
import { decide } from "./decide.js";
import { fingerprint } from "./fingerprint.js";
import { LEASE_MS, outcomeOf, RETENTION_MS, storedHeadersOf } from "./policy.js";

describe("canonical forms", () => {
  it("sorts object keys at every depth and drops whitespace; keeps array order", () => {
    const a = JSON.parse('{ "requests": [ {"id": 2, "x": {"b":1,"a":2}}, {"game_id": 1} ] }');
    const b = JSON.parse('{"requests":[{"x":{"a":2,"b":1},"id":2},{"game_id":1}]}');
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"requests":[{"id":2,"x":{"a":2,"b":1}},{"game_id":1}]}');
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
  });

  it("writes numbers as JSON does (1.0 is 1) and keeps strings apart from numbers", () => {
    expect(canonicalJson(JSON.parse('{"id":1.0}'))).toBe('{"id":1}');
    expect(canonicalJson({ id: "1" })).not.toBe(canonicalJson({ id: 1 }));
    expect(canonicalJson({ a: undefined, b: null })).toBe('{"b":null}');
    expect(canonicalJson(undefined)).toBe("null");
  });

  it("sorts and decodes query parameters, keeping repeated names", () => {
    expect(canonicalQuery("?period=7d&date=2026-01-01")).toBe(
      canonicalQuery("date=2026%2D01%2D01&period=7d"),
    );
    expect(canonicalQuery("b=2&a=1&a=0")).toBe("a=0&a=1&b=2");
    expect(canonicalQuery("")).toBe("");
  });
});

describe("fingerprint", () => {
  const base = {
    method: "POST",
    path: "/api/v1/intelligence/batch",
    query: "period=7d",
    body: { requests: [{ id: 1 }] },
  };

  it("is the same for the same payload written differently", () => {
    expect(fingerprint(base)).toBe(
      fingerprint({ ...base, method: "post", body: JSON.parse('{ "requests" : [ { "id" : 1 } ] }') }),
    );
    expect(fingerprint(base)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("differs by method, path, query and body", () => {
    const fp = fingerprint(base);
    expect(fingerprint({ ...base, path: "/api/v1/signals/batch" })).not.toBe(fp);
    expect(fingerprint({ ...base, query: "period=30d" })).not.toBe(fp);
    expect(fingerprint({ ...base, query: "" })).not.toBe(fp);
    expect(fingerprint({ ...base, body: { requests: [{ id: 2 }] } })).not.toBe(fp);
    expect(fingerprint({ ...base, method: "PUT" })).not.toBe(fp);
  });

  it("cannot be forged by moving text between parts", () => {
    expect(fingerprint({ ...base, path: "/a", query: "b=1" })).not.toBe(
      fingerprint({ ...base, path: "/ab", query: "=1" }),
    );
  });

  it("compares a parsed query (defaults filled) by value, in any key order", () => {
    const parsed = { ...base, query: { period: "7d", date: "2026-06-14" } };
    expect(fingerprint(parsed)).toBe(fingerprint({ ...base, query: { date: "2026-06-14", period: "7d" } }));
    expect(fingerprint(parsed)).not.toBe(fingerprint({ ...base, query: { period: "7d" } }));
    expect(fingerprint(parsed)).not.toBe(
      fingerprint({ ...base, query: { period: "30d", date: "2026-06-14" } }),
    );
  });

  it("never matches a raw query string with a parsed query", () => {
    expect(fingerprint({ ...base, query: "" })).not.toBe(fingerprint({ ...base, query: {} }));
  });
});

describe("decide (the spec's state table)", () => {
  const now = Date.UTC(2026, 5, 15, 12);
  const response = { status: 200, headers: { "content-type": "application/json" }, body: Buffer.from("{}") };
  const inFlight = (leaseUntil: number): IdempotencyRecord => ({
    state: "in_flight",
    fingerprint: "A",
    leaseUntil,
    expiresAt: now + RETENTION_MS,
  });
  const stored = (expiresAt: number): IdempotencyRecord => ({
    state: "stored",
    fingerprint: "A",
    expiresAt,
    response,
  });

  it("(none) → process", () => {
    expect(decide(null, "A", now)).toEqual({
      kind: "process",
      reason: "new",
      prepaid: false,
      paidFingerprint: null,
    });
  });

  it("in flight → 409 whatever the payload, Retry-After a few seconds at most", () => {
    expect(decide(inFlight(now + LEASE_MS), "A", now)).toEqual({ kind: "conflict", retryAfter: 2 });
    expect(decide(inFlight(now + LEASE_MS), "B", now)).toEqual({ kind: "conflict", retryAfter: 2 });
    expect(decide(inFlight(now + 300), "A", now)).toEqual({ kind: "conflict", retryAfter: 1 });
    expect(decide(inFlight(now + 1), "A", now).kind).toBe("conflict");
  });

  it("in flight with its lease lapsed (holder died) → process", () => {
    expect(decide(inFlight(now), "B", now)).toEqual({
      kind: "process",
      reason: "lease_lapsed",
      prepaid: false,
      paidFingerprint: null,
    });
    expect(decide(inFlight(now - 1), "A", now).kind).toBe("process");
  });

  it("a lapsed lease whose holder paid: prepaid for the same payload only, the payment kept", () => {
    const paid = { ...inFlight(now - 1), paidFingerprint: "A" };
    expect(decide(paid, "A", now)).toEqual({
      kind: "process",
      reason: "lease_lapsed",
      prepaid: true,
      paidFingerprint: "A",
    });
    expect(decide(paid, "B", now)).toEqual({
      kind: "process",
      reason: "lease_lapsed",
      prepaid: false,
      paidFingerprint: "A",
    });
    // Past its 24 hours nothing is remembered, paid or not.
    const old = { ...paid, expiresAt: now };
    expect(decide(old, "A", now)).toEqual({
      kind: "process",
      reason: "expired",
      prepaid: false,
      paidFingerprint: null,
    });
  });

  it("stored, same payload, within 24 h → replay; different payload → reuse", () => {
    expect(decide(stored(now + 1), "A", now)).toEqual({ kind: "replay", response });
    expect(decide(stored(now + 1), "B", now)).toEqual({ kind: "reuse" });
  });

  it("stored, 24 h passed → process as fresh, whatever the payload", () => {
    const fresh = { kind: "process", reason: "expired", prepaid: false, paidFingerprint: null };
    expect(decide(stored(now), "A", now)).toEqual(fresh);
    expect(decide(stored(now - 1), "B", now)).toEqual(fresh);
  });
});

describe("policy", () => {
  it("stores metered answers and releases limit refusals and server errors", () => {
    for (const status of [200, 207, 404, 409, 422]) expect(outcomeOf(status)).toBe("store");
    for (const status of [402, 429, 500, 503]) expect(outcomeOf(status)).toBe("release");
  });

  it("keeps only the content type of a response", () => {
    expect(
      storedHeadersOf({
        "content-type": "application/json; charset=utf-8",
        "x-request-id": "r",
        "x-ratelimit-remaining": 3,
      }),
    ).toEqual({ "content-type": "application/json; charset=utf-8" });
  });
});
