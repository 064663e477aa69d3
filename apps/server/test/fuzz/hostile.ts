import type { ContractRoute } from "@gmi/contract";
import type { InjectOptions } from "fastify";
import { z } from "zod";

/** A small, seeded PRNG (mulberry32): the same seed gives the same requests, run after run. */
export const prng = (seed: number) => {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick, chance: (p: number) => next() < p };
};
export type Prng = ReturnType<typeof prng>;

/** The seed of this run: FUZZ_SEED when given (to replay a failure), else a fresh one. */
export const fuzzSeed = (): number => {
  const given = process.env.FUZZ_SEED;
  if (given !== undefined && given !== "") return Number.parseInt(given, 10) >>> 0;
  return Math.floor(Math.random() * 2 ** 32) >>> 0;
};

/**
 * Hostile values for a URL position, written as they go on the wire (already percent-encoded,
 * or deliberately not). Each family is one issue class: out-of-range numbers and dates, NUL and
 * control characters, invalid UTF-8 and percent-encoding, huge strings, prototype keys.
 */
const NUMBERS = [
  "0",
  "-1",
  "-0",
  "1.5",
  "1e3",
  "1e309",
  "-1e309",
  "NaN",
  "Infinity",
  "-Infinity",
  "0x10",
  "0b1",
  "2147483648",
  "9007199254740993",
  "99999999999999999999999999999",
  "%201",
  "1%20",
  "+1",
  "1_000",
  "",
  "true",
  "null",
  "undefined",
  "[]",
  "{}",
];
const DATES = [
  "0000-01-01",
  "0001-01-01",
  "0999-12-31",
  "1000-01-01",
  "1969-12-31",
  "1970-01-01",
  "9999-12-31",
  "2024-02-29",
  "2026-02-29",
  "2026-02-30",
  "2026-13-01",
  "2026-00-10",
  "2026-01-00",
  "2026-1-1",
  "-0001-01-01",
  "+275760-09-13",
  "275760-09-13",
  "2026-11-19T00:00:00Z",
  "2026-11-19%00",
  "%EF%BC%92026-01-01",
  "２０２６-０１-０１",
];
const CONTROL = [
  "%00",
  "a%00b",
  "%01",
  "%0A",
  "%0D",
  "%0D%0A",
  "%09",
  "%7F",
  "%1B%5B31m",
  "%E2%80%AE",
  "%EF%BB%BF",
];
const BAD_UTF8 = ["%C3%28", "%FF", "%FE%FF", "%E2%82", "%ED%A0%80", "%C0%AF", "%F4%90%80%80", "%80"];
const BAD_PERCENT = ["%", "%G1", "%%", "%2", "a%", "%u0041", "%%32%30"];
const TEXT = [
  "chrono-trigger",
  "Chrono%20Trigger",
  "..",
  "%2E%2E",
  "..%2F..%2Fetc%2Fpasswd",
  "%2F",
  "'%20OR%201=1--",
  "%3Cscript%3E",
  "%F0%9F%8E%AE",
  "%E2%80%8B",
  "__proto__",
  "constructor",
  "prototype",
  "hasOwnProperty",
  "toString",
  "%24where",
];
const huge = (rng: Prng): string => {
  const length = rng.pick([256, 513, 1_001, 2_048, 8_000, 20_000]);
  return rng.pick(["a", "%41", "%00", "%C3%A9", "9", "-"]).repeat(length);
};

export const hostileUrlValue = (rng: Prng): string => {
  const family = rng.int(8);
  if (family === 0) return rng.pick(NUMBERS);
  if (family === 1) return rng.pick(DATES);
  if (family === 2) return rng.pick(CONTROL);
  if (family === 3) return rng.pick(BAD_UTF8);
  if (family === 4) return rng.pick(BAD_PERCENT);
  if (family === 5) return huge(rng);
  if (family === 6) return rng.pick(TEXT);
  // Mixtures: a plausible value with something hostile around it.
  return `${rng.pick(["1", "2026-11-19", "day", "chrono"])}${rng.pick([...CONTROL, ...BAD_UTF8, ...BAD_PERCENT])}`;
};

/** Hostile header values (what Node lets a client send: no CR/LF, which the parser refuses). */
export const hostileHeaderValue = (rng: Prng): string =>
  rng.pick([
    "",
    " ",
    "Bearer",
    "Bearer ",
    "Bearer  gmi_live_",
    `Bearer gmi_live_${"A".repeat(43)}`,
    `Bearer ${"x".repeat(rng.pick([255, 256, 4_000, 15_000]))}`,
    "Basic YTpi",
    "bearer\tx",
    "Bearer \u00e9\u00e8",
    "Bearer \u0001\u0002",
    "__proto__",
    "a".repeat(rng.pick([255, 256, 1_000])),
    "key with spaces",
    "\u00ff\u00fe",
    "🎮",
    "0",
    "-1",
    "null",
  ]);

/** Nested objects and arrays, as JSON text (JSON.stringify of it would overflow the test's own stack). */
const deep = (depth: number, leaf: string): string => {
  const open = Array.from({ length: depth }, (_, i) => (i % 2 ? "[" : '{"a":')).join("");
  const close = Array.from({ length: depth }, (_, i) => (i % 2 ? "]" : "}"))
    .reverse()
    .join("");
  return open + leaf + close;
};

/** Hostile JSON values for a body field (and for the body as a whole), as JSON text. */
export const hostileJson = (rng: Prng): string => {
  const family = rng.int(7);
  if (family === 0)
    return rng.pick([
      "0",
      "-1",
      "1.5",
      "2147483648",
      "9007199254740993",
      "1e308",
      "1e400",
      "-0",
      '"1"',
      '"101"',
      '""',
      "true",
      "null",
    ]);
  if (family === 1) return rng.pick(["[]", "{}", "[1]", '{"game_id":101}', "[null]", "[[[]]]"]);
  if (family === 2) return deep(rng.pick([20, 200, 2_000, 5_000]), "101");
  if (family === 3) return JSON.stringify("\u0000".repeat(rng.pick([1, 100])) + rng.pick(["", "x"]));
  if (family === 4) return JSON.stringify("x".repeat(rng.pick([1_000, 100_000])));
  if (family === 5) return rng.pick(['"\\ud800"', '"\\udfff"', '"\\u202e"', '"\\ufeff"', '"\\u0000"']);
  return rng.pick([
    '{"__proto__":{"polluted":1}}',
    '{"constructor":{"prototype":{"polluted":1}}}',
    '{"__proto__":null}',
  ]);
};

/** A route's fields by location, read from the contract's schemas (so a new field is fuzzed the day it exists). */
export type RouteFields = {
  path: string[];
  query: string[];
  headers: string[];
  body: string[];
};

const keysOf = (schema: unknown): string[] => {
  let current = schema as z.ZodTypeAny | undefined;
  while (current && !(current instanceof z.ZodObject)) {
    if (current instanceof z.ZodEffects) current = current.innerType();
    else if (current instanceof z.ZodOptional || current instanceof z.ZodDefault)
      current = current._def.innerType;
    else return [];
  }
  return current ? Object.keys(current.shape) : [];
};

export const fieldsOf = (route: ContractRoute): RouteFields => ({
  path: [...route.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1] as string),
  query: "query" in route ? keysOf(route.query) : [],
  headers: [...new Set(["authorization", ...("headers" in route ? keysOf(route.headers) : [])])],
  body: route.method === "POST" ? keysOf(route.body) : [],
});

/** Values that are valid in the fixture world, so a request is hostile only where we make it so. */
const VALID_PATH: Record<string, string> = {
  id: "101",
  game_id: "101",
  console_id: "1",
  slug: "chrono-trigger",
  title: "Chrono%20Trigger",
};
const VALID_QUERY: Record<string, string[]> = {
  period: ["day", "7d", "30d"],
  date: ["2026-11-19", "2026-11-20"],
  console_id: ["1", "2"],
  limit: ["1", "10", "500"],
  page: ["1", "2"],
  paginate: ["page", "cursor"],
  sort: ["volume", "momentum", "unmet", "liquidity", "demand", "value"],
};

const QUERY_SHAPES = [
  (k: string, v: string) => `${k}=${v}`,
  (k: string, v: string) => `${k}=${v}&${k}=${v}`,
  (k: string, v: string) => `${k}[]=${v}`,
  (k: string, v: string) => `${k}[0]=${v}`,
  (k: string, v: string) => `${k}[a]=${v}`,
  (k: string, _v: string) => k,
  (k: string, v: string) => `${k}=1&${k}=${v}`,
  (_k: string, v: string) => `__proto__[${v}]=1`,
  (_k: string, v: string) => `constructor[prototype][x]=${v}`,
  (_k: string, v: string) => `${v}=${v}`,
];

export type FuzzCase = { label: string; request: InjectOptions };

/** One or two values of each hostile family: the sweep sends each to every path and query field. */
export const SWEEP_VALUES = [
  ...NUMBERS.filter((_, i) => i % 2 === 0),
  ...DATES.filter((_, i) => i % 2 === 0),
  ...CONTROL.slice(0, 4),
  ...BAD_UTF8.slice(0, 4),
  ...BAD_PERCENT.slice(0, 4),
  ...TEXT.filter((_, i) => i % 3 === 0),
  "a".repeat(201),
  "%41".repeat(800),
  "9".repeat(8_000),
];

/**
 * The deterministic part: every path and query field of `route`, each hostile value of
 * SWEEP_VALUES in turn, the rest of the request valid. Seed-independent, so a known class (a NUL
 * slug, a year-0 date) is tried on every field in every run, not only when the dice say so.
 */
export const sweepRequests = (route: ContractRoute, key: string): FuzzCase[] => {
  const fields = fieldsOf(route);
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const payload = route.method === "POST" ? '{"requests":[{"game_id":101},{"id":102}]}' : undefined;
  const urlWith = (path: Record<string, string>, query: string) =>
    route.path.replace(/:([a-z_]+)/g, (_, name: string) => path[name] ?? VALID_PATH[name] ?? "1") + query;
  const cases: FuzzCase[] = [];
  for (const value of SWEEP_VALUES) {
    for (const name of fields.path) {
      cases.push({
        label: `${route.method} ${route.path} [path.${name}]`,
        request: { method: route.method as "GET", url: urlWith({ [name]: value }, ""), headers, payload },
      });
    }
    for (const name of fields.query) {
      cases.push({
        label: `${route.method} ${route.path} [query.${name}]`,
        request: { method: route.method as "GET", url: urlWith({}, `?${name}=${value}`), headers, payload },
      });
    }
  }
  return cases;
};

/**
 * One request to `route`: valid apart from one to three fields (or the method, or the body's
 * framing), each replaced by a hostile value. `label` says what was changed, for the failure report.
 */
export const hostileRequest = (rng: Prng, route: ContractRoute, key: string): FuzzCase => {
  const fields = fieldsOf(route);
  const changed: string[] = [];
  const path: Record<string, string> = Object.fromEntries(fields.path.map((p) => [p, VALID_PATH[p] ?? "1"]));
  const query: string[] = [];
  for (const name of fields.query) {
    const values = VALID_QUERY[name];
    if (values && rng.chance(0.3)) query.push(`${name}=${rng.pick(values)}`);
  }
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  let method: string = route.method;
  let body = route.method === "POST" ? '{"requests":[{"game_id":101},{"id":102}]}' : "{}";
  let contentType = "application/json";

  // Where this route can be hit, weighted: its fields first, the method now and then.
  const places = [
    ...(fields.path.length > 0 ? ["path", "path", "path"] : []),
    "query",
    "query",
    "query",
    "header",
    ...(route.method === "POST" ? ["body", "body", "body", "framing"] : []),
    "method",
  ];
  const mutations = 1 + rng.int(3);
  for (let m = 0; m < mutations; m++) {
    const where = rng.pick(places);
    if (where === "path") {
      const name = rng.pick(fields.path);
      path[name] = hostileUrlValue(rng);
      changed.push(`path.${name}`);
    } else if (where === "query") {
      const name =
        fields.query.length > 0 && rng.chance(0.85) ? rng.pick(fields.query) : hostileUrlValue(rng);
      query.push(rng.pick(QUERY_SHAPES)(name, hostileUrlValue(rng)));
      changed.push(`query.${name.slice(0, 40)}`);
    } else if (where === "header") {
      const name = rng.chance(0.8)
        ? rng.pick(fields.headers)
        : rng.pick(["idempotency-key", "content-length"]);
      if (name !== "content-length") {
        headers[name] = hostileHeaderValue(rng);
        changed.push(`header.${name}`);
      }
    } else if (where === "body") {
      const shape = rng.int(4);
      if (shape === 0) body = hostileJson(rng);
      else if (shape === 1) body = `{"requests":${hostileJson(rng)}}`;
      else if (shape === 2) {
        const element = () =>
          rng.chance(0.4)
            ? `{"game_id":${hostileJson(rng)}}`
            : rng.chance(0.5)
              ? `{"id":${hostileJson(rng)}}`
              : hostileJson(rng);
        const count = 1 + rng.int(rng.chance(0.1) ? 5_000 : 12);
        body = `{"requests":[${Array.from({ length: count }, element).join(",")}]}`;
      } else {
        const name = rng.pick(["__proto__", "constructor", "requests", "x".repeat(5_000)]);
        body = `{"requests":[{"game_id":101}],${JSON.stringify(name)}:${hostileJson(rng)}}`;
      }
      changed.push(`body.${fields.body[0] ?? "*"}`);
    } else if (where === "framing") {
      const framing = rng.int(6);
      if (framing === 0) body = '{"requests":[{"game_id":101}';
      else if (framing === 1) body = "\u0000";
      else if (framing === 2) body = "[".repeat(rng.pick([100, 10_000, 100_000]));
      else if (framing === 3)
        contentType = rng.pick([
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "",
        ]);
      else if (framing === 4)
        contentType = rng.pick([
          "application/json; charset=latin1",
          "application/json; charset=utf-16",
          "APPLICATION/JSON",
        ]);
      else body = `{"requests":[${'{"id":1},'.repeat(rng.pick([10, 200_000]))}{"id":1}]}`;
      changed.push("body.framing");
    } else {
      method = rng.pick(["PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "POST", "GET", "TRACE"]);
      changed.push(`method.${method}`);
    }
  }

  const url =
    route.path.replace(/:([a-z_]+)/g, (_, name: string) => path[name] ?? "1") +
    (query.length > 0 ? `?${query.join("&")}` : "");
  const request: InjectOptions = { method: method as InjectOptions["method"], url, headers };
  if (method === "POST" || method === "PUT" || method === "PATCH") {
    if (contentType !== "") headers["content-type"] = contentType;
    request.payload = body;
  }
  return { label: `${method} ${route.path} [${changed.join(", ")}]`, request };
};
