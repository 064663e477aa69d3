import type { AddressInfo } from "node:net";
import { ErrorEnvelopeSchema } from "@gmi/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../helpers/app.js";
import { startTestApp } from "../helpers/app.js";
import type { RawAnswer } from "../helpers/raw-http.js";
import { rawRequest } from "../helpers/raw-http.js";
import { useTestDatabase } from "../helpers/setup.js";
import { createTenant } from "../helpers/tenant.js";
import { fuzzSeed, prng } from "./hostile.js";

/**
 * Protocol-level hostility over a real socket: bytes Node's HTTP parser refuses, heads larger than
 * it reads, bodies larger than the limit. Each must be answered (not reset) with the envelope and
 * an X-Request-Id.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BODY_LIMIT = 1_048_576;

const db = useTestDatabase();
let t: TestApp;
let port: number;
let key: string;

beforeAll(async () => {
  t = await startTestApp(db().pool, { env: { BODY_LIMIT_BYTES: String(BODY_LIMIT) } });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
  key = (await createTenant(db().pool)).key;
});
afterAll(() => t?.close());

const expectEnvelope = (answer: RawAnswer, status: number, code: string) => {
  expect(answer.status, `${answer.status} ${answer.body.slice(0, 300)} (${answer.error})`).toBe(status);
  expect(answer.headers["x-request-id"]).toMatch(UUID);
  expect(answer.headers["x-content-type-options"]).toBe("nosniff");
  const body = ErrorEnvelopeSchema.parse(JSON.parse(answer.body));
  expect(body.error.code).toBe(code);
  return body.error;
};

const head = (lines: string[]) => `${lines.join("\r\n")}\r\n\r\n`;

describe("malformed HTTP is answered in the envelope with X-Request-Id, then the connection closes", () => {
  const cases: Array<[string, string, number, string]> = [
    [
      "an invalid header name",
      head(["GET /healthz HTTP/1.1", "Host: x", "Bad Header: 1"]),
      422,
      "validation_failed",
    ],
    [
      "a bare CR in a header value",
      head(["GET /healthz HTTP/1.1", "Host: x", "X-A: a\rb"]),
      422,
      "validation_failed",
    ],
    ["an invalid method token", head(["G(T /healthz HTTP/1.1", "Host: x"]), 422, "validation_failed"],
    [
      "Content-Length with Transfer-Encoding",
      `${head(["POST /api/v1/signals/batch HTTP/1.1", "Host: x", "Content-Length: 5", "Transfer-Encoding: chunked"])}0\r\n\r\n`,
      422,
      "validation_failed",
    ],
    [
      "a 20,000-character request line",
      head([`GET /${"a".repeat(20_000)} HTTP/1.1`, "Host: x"]),
      413,
      "payload_too_large",
    ],
    [
      "a 20,000-character header",
      head(["GET /healthz HTTP/1.1", "Host: x", `X-Big: ${"b".repeat(20_000)}`]),
      413,
      "payload_too_large",
    ],
    ["a NUL in the request line", head(["GET /heal\u0000thz HTTP/1.1", "Host: x"]), 422, "validation_failed"],
    ["a bad HTTP version", head(["GET /healthz HTTP/9.Z", "Host: x"]), 422, "validation_failed"],
  ];
  for (const [name, request, status, code] of cases) {
    it(name, async () => {
      const answer = await rawRequest(port, [request]);
      const error = expectEnvelope(answer, status, code);
      expect(answer.headers.connection).toBe("close");
      if (code === "payload_too_large") expect(error.details).toEqual({ max_bytes: 16_384 });
    });
  }
});

describe("an oversized body gets a 413 the client can read", () => {
  // Larger than the kernel buffers of both ends, so the server must read to take it all.
  const twoMegabytes = Buffer.alloc(8 * 1_048_576, "a");
  const slices = (buffer: Buffer, size = 64 * 1024) =>
    Array.from({ length: Math.ceil(buffer.length / size) }, (_, i) =>
      buffer.subarray(i * size, (i + 1) * size),
    );

  it("with Content-Length: answered 413 in the envelope, never a reset", async () => {
    const answer = await rawRequest(port, [
      head([
        "POST /api/v1/intelligence/batch HTTP/1.1",
        "Host: x",
        `Authorization: Bearer ${key}`,
        "Content-Type: application/json",
        `Content-Length: ${twoMegabytes.length}`,
      ]),
      ...slices(twoMegabytes),
    ]);
    const error = expectEnvelope(answer, 413, "payload_too_large");
    expect(error.details).toEqual({ max_bytes: BODY_LIMIT });
    // Every byte was taken (read and dropped) before the close: no reset while the client sends.
    expect(answer.error).toBeNull();
    expect(answer.written).toBe(answer.sent);
  });

  it("chunked, without Content-Length: the same 413 once the limit is crossed", async () => {
    const chunks = slices(twoMegabytes).map((slice) =>
      Buffer.concat([Buffer.from(`${slice.length.toString(16)}\r\n`), slice, Buffer.from("\r\n")]),
    );
    const answer = await rawRequest(port, [
      head([
        "POST /api/v1/signals/batch HTTP/1.1",
        "Host: x",
        `Authorization: Bearer ${key}`,
        "Content-Type: application/json",
        "Transfer-Encoding: chunked",
      ]),
      ...chunks,
      "0\r\n\r\n",
    ]);
    expectEnvelope(answer, 413, "payload_too_large");
    expect(answer.error).toBeNull();
    expect(answer.written).toBe(answer.sent);
  });

  it("refused before the body (no key): the 401 is readable too", async () => {
    const answer = await rawRequest(
      port,
      [
        head([
          "POST /api/v1/intelligence/batch HTTP/1.1",
          "Host: x",
          "Content-Type: application/json",
          `Content-Length: ${twoMegabytes.length}`,
        ]),
        ...slices(twoMegabytes),
      ],
      { idleMs: 500 },
    );
    expectEnvelope(answer, 401, "unauthorized");
    expect(answer.error).toBeNull();
  });
});

describe("seeded protocol fuzz", () => {
  const SEED = fuzzSeed();
  const RUNS = 150;
  const valid = () =>
    head([
      "GET /api/v1/games/titles?limit=2 HTTP/1.1",
      "Host: x",
      `Authorization: Bearer ${key}`,
      "Accept: */*",
    ]);
  const NASTY = ["\r", "\n", "\u0000", " ", "\t", ":", "\u007f", "\u00ff", "(", "%", "\r\n\r\n", "\r\n "];

  it(`${RUNS} requests with bytes inserted, dropped or repeated in the head: each answered, < 500, enveloped`, async () => {
    process.stdout.write(`protocol fuzz: FUZZ_SEED=${SEED}\n`);
    const rng = prng(SEED);
    const failures: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      let request = valid();
      const edits = 1 + rng.int(3);
      for (let e = 0; e < edits; e++) {
        const at = rng.int(request.length - 4);
        const kind = rng.int(3);
        if (kind === 0) request = request.slice(0, at) + rng.pick(NASTY) + request.slice(at);
        else if (kind === 1) request = request.slice(0, at) + request.slice(at + 1 + rng.int(4));
        else
          request =
            request.slice(0, at) +
            request.slice(at, at + 8).repeat(rng.pick([2, 50, 3_000])) +
            request.slice(at);
      }
      const answer = await rawRequest(port, [Buffer.from(request, "latin1")], { idleMs: 300 });
      // An incomplete head is waited for by any HTTP server; only answers are judged.
      if (answer.status === 0 && answer.body === "" && answer.error === null) continue;
      const envelope =
        answer.status >= 400 ? ErrorEnvelopeSchema.safeParse(safeJson(answer.body)).success : true;
      if (
        answer.status === 0 ||
        answer.status >= 500 ||
        !UUID.test(answer.headers["x-request-id"] ?? "") ||
        !envelope
      ) {
        failures.push(
          `#${i} ${JSON.stringify(request.slice(0, 160))} → ${answer.status} ${answer.body.slice(0, 160)} ${answer.error ?? ""}`,
        );
      }
    }
    expect(failures.slice(0, 20), `FUZZ_SEED=${SEED}: ${failures.length} failures`).toEqual([]);
  }, 60_000);
});

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
