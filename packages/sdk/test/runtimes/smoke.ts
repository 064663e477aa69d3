import type * as Sdk from "../../src/index.js";

/**
 * The one smoke every runtime of the matrix runs against the real server (run.ts). It imports
 * nothing: the runtime's entry passes the SDK in, loaded the way that runtime loads packages. Each
 * check records whether it held and what it saw; the entry reports them as JSON.
 */
export interface SmokeEnv {
  baseUrl: string;
  /** A key of an organization with room (the demo enterprise key). */
  apiKey: string;
  /** A Free-plan key (30 requests a minute), for a quick 429. */
  freeKey: string;
  /** Whether this runtime is a browser, where the client must refuse to start without the opt-in. */
  browser: boolean;
  /** Tells this runtime's idempotency keys apart from the others' (the runs share one server). */
  runtime: string;
}

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface SmokeResult {
  /** The `X-GMI-Client` runtime this SDK reported (to match the server's access line). */
  sdk: string;
  checks: Check[];
}

const expect = (condition: boolean, detail: string) => {
  if (!condition) throw new Error(detail);
};

export const smoke = async (sdk: typeof Sdk, env: SmokeEnv): Promise<SmokeResult> => {
  const checks: Check[] = [];
  const check = async (name: string, body: () => Promise<string>) => {
    try {
      checks.push({ name, ok: true, detail: await body() });
    } catch (error) {
      checks.push({
        name,
        ok: false,
        detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
    }
  };
  const options = { baseUrl: env.baseUrl, dangerouslyAllowBrowser: env.browser, logLevel: "off" as const };
  const client = new sdk.GmiClient({ ...options, apiKey: env.apiKey });

  await check("browser guard", async () => {
    const refused = (() => {
      try {
        new sdk.GmiClient({ apiKey: env.apiKey, baseUrl: env.baseUrl });
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    expect(env.browser === refused instanceof sdk.GmiError, `refused without the opt-in: ${String(refused)}`);
    return env.browser ? "refused without dangerouslyAllowBrowser" : "no opt-in needed";
  });

  await check("list and iterate", async () => {
    const { data: page, response } = await client.games.titles({ limit: 5 }).withResponse();
    expect(page.data.length === 5 && response.status === 200, `first page: ${page.data.length} rows`);
    expect(
      typeof response.requestId === "string" && response.rateLimit !== undefined,
      "request id and rate limit",
    );
    const rows = await client.games.titles({ limit: 40 }).toArray({ maxItems: 100 });
    const ids = new Set(rows.map((row) => row.id));
    expect(rows.length === 100 && ids.size === 100, `iterated ${rows.length} rows, ${ids.size} distinct`);
    let count = 0;
    for await (const _row of client.consoles.list({ limit: 3 })) count++;
    expect(count > 3, `for await over consoles: ${count}`);
    return `5 + 100 titles over 3 pages, ${count} consoles`;
  });

  await check("chunked keyed batch", async () => {
    const ids = Array.from({ length: 12 }, (_, i) => i + 1);
    const idempotencyKey = `runtimes-${env.runtime}-${Date.now()}`;
    const first = await client.intelligence.batch(ids, { chunkSize: 5, idempotencyKey }).withResponse();
    expect(first.data.data.length === 12 && first.data.meta.chunks === 3, `items ${first.data.data.length}`);
    expect(first.responses.length === 3, `${first.responses.length} answers`);
    const again = await client.intelligence.batch(ids, { chunkSize: 5, idempotencyKey }).withResponse();
    const replayed = again.responses.filter((r) => r.headers.get("idempotency-replayed") === "true").length;
    expect(replayed === 3, `replayed ${replayed} of 3 chunks`);
    expect(JSON.stringify(again.data.data) === JSON.stringify(first.data.data), "the replay differs");
    return "12 ids in 3 chunks, replayed whole with the same key";
  });

  await check("429 retried", async () => {
    const retries: number[] = [];
    const free = new sdk.GmiClient({
      ...options,
      apiKey: env.freeKey,
      maxRetries: 3,
      maxRetryAfterMs: 70_000,
      onRetry: (info) => retries.push(info.error.status ?? 0),
    });
    // The Free plan allows 30 requests a minute: one of these meets the limit and waits it out.
    for (let i = 0; i < 40; i++) {
      const { response } = await free.games.get(1).withResponse();
      if (response.attempts > 1) {
        expect(retries.includes(429) && response.status === 200, `retried after ${retries.join(", ")}`);
        return `request ${i + 1} met the limit, waited, then got ${response.status}`;
      }
    }
    throw new Error("40 requests and no 429");
  });

  await check("abort", async () => {
    const controller = new AbortController();
    const reason = new Error("stopped by the caller");
    const call = client.intelligence.list({ limit: 100 }, { signal: controller.signal }).then(
      () => undefined,
      (error: unknown) => error,
    );
    controller.abort(reason);
    const outcome = await call;
    expect(outcome === reason, `rejected with ${String(outcome)}`);
    const during = new AbortController();
    const iterating = (async () => {
      for await (const _row of client.games.titles({ limit: 10 }, { signal: during.signal }))
        during.abort(reason);
    })().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((await iterating) === reason, "an abort while iterating");
    return "rejected with the signal's reason, before and during a walk";
  });

  await check("typed errors", async () => {
    const missing = await client.games.get(2_000_000_000).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (!(missing instanceof sdk.NotFoundError)) throw new Error(`unknown game: ${String(missing)}`);
    expect(missing instanceof sdk.GmiError && missing.code === "not_found", `code ${missing.code}`);
    expect(typeof missing.requestId === "string", "a request id");
    const stranger = new sdk.GmiClient({ ...options, apiKey: "gmi_live_not_a_key" });
    const refused = await stranger.me().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(
      refused instanceof sdk.AuthenticationError && refused.status === 401,
      `bad key: ${String(refused)}`,
    );
    return "NotFoundError 404 not_found, AuthenticationError 401";
  });

  return { sdk: `gmi-sdk/${sdk.SDK_VERSION}`, checks };
};
