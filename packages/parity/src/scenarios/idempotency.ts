import { IDS } from "../fixture.js";
import type { Req, Scenario } from "../scenario.js";

const DAY_MS = 86_400_000;

/** The Idempotency-Key rules (spec, "States and transitions"), on both batch routes. */
export const idempotencyScenarios = (): Scenario[] => {
  const out: Scenario[] = [];
  for (const { name, path, idKey } of [
    { name: "intelligence batch", path: "/api/v1/intelligence/batch", idKey: "game_id" },
    { name: "signals batch", path: "/api/v1/signals/batch", idKey: "id" },
  ]) {
    const post = (key: string, ids: number[], extra: Partial<Req> = {}): Req => ({
      method: "POST",
      path,
      headers: { "idempotency-key": key },
      body: { requests: ids.map((id) => ({ [idKey]: id })) },
      ...extra,
    });
    out.push({
      name: `${name}: a replay is the stored answer byte for byte`,
      steps: [
        { kind: "send", label: "original", request: post("k-replay", [IDS.game, IDS.missing]) },
        {
          kind: "send",
          label: "replay",
          request: post("k-replay", [IDS.game, IDS.missing]),
          sameBytesAs: "original",
        },
        { kind: "send", request: post("k-replay", [IDS.game, IDS.missing]), sameBytesAs: "original" },
        { kind: "send", request: { path: "/api/v1/me" } },
      ],
    });
    out.push({
      name: `${name}: a 207 and a whole-batch 422 are replayed too`,
      keys: { main: { plan: "free" } },
      steps: [
        {
          kind: "send",
          label: "mixed",
          request: { ...post("k-207", []), body: { requests: [{ [idKey]: IDS.game }, { [idKey]: "x" }] } },
        },
        {
          kind: "send",
          request: { ...post("k-207", []), body: { requests: [{ [idKey]: IDS.game }, { [idKey]: "x" }] } },
          sameBytesAs: "mixed",
        },
        {
          kind: "send",
          label: "too large",
          request: post(
            "k-large",
            Array.from({ length: 11 }, (_, i) => 200 + i),
          ),
        },
        {
          kind: "send",
          request: post(
            "k-large",
            Array.from({ length: 11 }, (_, i) => 200 + i),
          ),
          sameBytesAs: "too large",
        },
      ],
    });
    out.push({
      name: `${name}: the key reused with another payload is 422`,
      steps: [
        { kind: "send", request: post("k-reuse", [IDS.game]) },
        { kind: "send", request: post("k-reuse", [103]) },
        { kind: "send", request: post("k-reuse", [IDS.game], { query: { period: "30d" } }) },
        { kind: "send", request: post("k-reuse", [IDS.game], { query: { period: "7d" } }) },
      ],
    });
    out.push({
      name: `${name}: the same key while the first is in flight is 409`,
      steps: [
        {
          kind: "held",
          held: post("k-flight", [IDS.game, 103]),
          during: [post("k-flight", [IDS.game, 103]), post("k-flight", [IDS.game])],
        },
        { kind: "send", request: post("k-flight", [IDS.game, 103]) },
      ],
    });
    out.push({
      name: `${name}: after 24 hours the key is fresh`,
      steps: [
        { kind: "send", request: post("k-expiry", [IDS.game]) },
        { kind: "advance", ms: DAY_MS + 1_000 },
        { kind: "send", request: post("k-expiry", [IDS.game]) },
        { kind: "send", request: post("k-expiry", [103]) },
      ],
    });
    out.push({
      name: `${name}: keys are per organization`,
      keys: { main: {}, other: {} },
      steps: [
        { kind: "send", request: post("k-shared", [IDS.game]) },
        { kind: "send", request: post("k-shared", [103], { key: "other" }) },
      ],
    });
    out.push({
      name: `${name}: invalid Idempotency-Key headers`,
      steps: [
        { kind: "send", request: post("has space", [IDS.game]) },
        { kind: "send", request: post("x".repeat(256), [IDS.game]) },
        { kind: "send", request: post("é", [IDS.game]) },
      ],
    });
  }
  return out;
};
