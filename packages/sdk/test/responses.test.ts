import { describe, expect, it } from "vitest";
import { GmiClient, type GmiClientOptions, type Logger, SDK_VERSION, ServerError } from "../src/index.js";
import { API_KEY, makeClient, useGmiMocks } from "./helpers.js";

const gmi = useGmiMocks();

describe("withResponse(): the result with the answer it came in", () => {
  it("on a single call: the body, status, headers, request id and this call's rate-limit state", async () => {
    const { data, response } = await makeClient().games.get(101).withResponse();
    expect(data.data.id).toBe(101);
    expect(response).toMatchObject({ status: 200, attempts: 1, idempotencyKey: undefined });
    expect(response.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.requestId).toBe(response.headers.get("x-request-id"));
    expect(response.rateLimit).toMatchObject({ limit: 600, remaining: 599 });
  });

  it("counts the attempts a retried call took", async () => {
    gmi.scenarios.serverErrors({ times: 1 });
    const { response } = await makeClient().me().withResponse();
    expect(response.attempts).toBe(2);
  });

  it("on a list call: the first page, whose response is also page.response", async () => {
    const client = makeClient();
    const { data: page, response } = await client.games.titles({ limit: 5 }).withResponse();
    expect(page.data).toHaveLength(5);
    expect(response).toBe(page.response);
    expect(response.rateLimit?.remaining).toBe(599);
    const next = await page.nextPage();
    expect(next?.response.rateLimit?.remaining).toBe(598);
  });

  it("on a batch: the merged result, every answer with its key, the last one as response", async () => {
    const { data, response, responses } = await makeClient()
      .intelligence.batch([101, 102, 103, 104, 105], {
        chunkSize: 2,
        concurrency: 1,
        idempotencyKey: "run-1",
      })
      .withResponse();
    expect(data.data).toHaveLength(5);
    expect(responses.map((r) => r.idempotencyKey)).toEqual(["run-1:0-1", "run-1:2-3", "run-1:4-4"]);
    expect(responses.map((r) => r.rateLimit?.remaining)).toEqual([598, 596, 595]);
    expect(response).toBe(responses[2]);
  });

  it("is awaited like the promise it extends, errors included", async () => {
    const client = makeClient({ maxRetries: 0 });
    const call = client.games.get(101);
    expect(Object.prototype.toString.call(call)).toBe("[object ApiCall]");
    expect((await call).data.id).toBe(101);
    gmi.scenarios.serverErrors({ times: 1 });
    await expect(client.games.get(101).withResponse()).rejects.toBeInstanceOf(ServerError);
  });
});

describe("client.rateLimit under concurrency", () => {
  it("is never raised by an answer that arrives after a later one of the same window", async () => {
    const answers = [
      { remaining: "5", delayMs: 30 }, // sent first, arrives last
      { remaining: "4", delayMs: 0 },
    ];
    let sent = 0;
    const fetch: GmiClientOptions["fetch"] = async () => {
      const { remaining, delayMs } = answers[sent++] as (typeof answers)[number];
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return Response.json(
        { data: { id: 1 } },
        {
          headers: {
            "x-ratelimit-limit": "30",
            "x-ratelimit-remaining": remaining,
            "x-ratelimit-reset": "40",
          },
        },
      );
    };
    const client = new GmiClient({ apiKey: API_KEY, baseUrl: "https://api.test", fetch });
    const [slow, fast] = await Promise.all([
      client.games.get(1).withResponse(),
      client.games.get(2).withResponse(),
    ]);
    expect(slow.response.rateLimit?.remaining).toBe(5);
    expect(fast.response.rateLimit?.remaining).toBe(4);
    expect(client.rateLimit?.remaining).toBe(4);
  });
});

describe("logging", () => {
  const recording = () => {
    const lines: Array<{ level: string; message: string; details: unknown[] }> = [];
    const logger = Object.fromEntries(
      (["error", "warn", "info", "debug"] as const).map((level) => [
        level,
        (message: string, ...details: unknown[]) => lines.push({ level, message, details }),
      ]),
    ) as unknown as Logger;
    return { lines, logger };
  };

  it("debug: one line per attempt with method, path, status, duration, attempt and request id; info: the retry", async () => {
    const { lines, logger } = recording();
    gmi.scenarios.serverErrors({ times: 1 });
    const { response } = await makeClient({ logger, logLevel: "debug" }).games.get(101).withResponse();
    expect(lines.map((l) => l.level)).toEqual(["debug", "info", "debug"]);
    const [failed, retry, served] = lines;
    expect(failed?.message).toMatch(
      /^gmi: GET \/api\/v1\/games\/game\/101 503 in \d+ ms \(attempt 1, request \S+\)$/,
    );
    expect(retry?.message).toMatch(
      /^gmi: retrying GET \/api\/v1\/games\/game\/101 in \d+ ms \(attempt 2 of 3\) after 503/,
    );
    expect(served?.details[0]).toEqual({
      method: "GET",
      path: "/api/v1/games/game/101",
      status: 200,
      durationMs: expect.any(Number),
      attempt: 2,
      requestId: response.requestId,
    });
  });

  it("never writes the key, whatever the level and outcome", async () => {
    const { lines, logger } = recording();
    const client = makeClient({ logger, logLevel: "debug" });
    await client.games.get(101);
    gmi.scenarios.expiredKey();
    await client.me().catch(() => undefined);
    gmi.scenarios.networkError();
    await client.me().catch(() => undefined);
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(JSON.stringify(lines)).not.toContain(API_KEY);
    expect(JSON.stringify(lines)).not.toContain(API_KEY.slice(0, -4));
  });

  it("is quiet by default (warn): a successful call writes nothing", async () => {
    const { lines, logger } = recording();
    gmi.scenarios.serverErrors({ times: 1 });
    await makeClient({ logger }).games.get(101);
    expect(lines).toEqual([]);
  });
});

describe("identification", () => {
  it("every request names the SDK and its runtime; a retry says which retry it is", async () => {
    const sent: Array<Record<string, string>> = [];
    const fetch: GmiClientOptions["fetch"] = (url, init) => {
      sent.push(init.headers as Record<string, string>);
      return globalThis.fetch(url, init);
    };
    gmi.scenarios.serverErrors({ times: 2 });
    await makeClient({ fetch }).games.get(101);
    const client = `gmi-sdk/${SDK_VERSION} node/${process.versions.node}`;
    expect(sent.map((h) => h["x-gmi-client"])).toEqual([client, client, client]);
    expect(sent.map((h) => h["user-agent"])).toEqual([client, client, client]);
    expect(sent.map((h) => h["x-gmi-retry-count"])).toEqual([undefined, "1", "2"]);
  });
});
