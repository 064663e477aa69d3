import pino from "pino";

/** What the one log line of a request says. */
export type AccessLogEntry = {
  requestId: string;
  method: string;
  /** The route pattern served, null when no route matched. */
  route: string | null;
  status: number;
  durationMs: number;
  organizationId: number | null;
  /** The SDK's `X-GMI-Client`, parsed (logging/sdk-client.ts); left out when absent. */
  client?: string | undefined;
  /** The SDK's `X-GMI-Retry-Count`; left out when absent. */
  retry?: number | undefined;
};

type Destination = { write(line: string): void };

/**
 * JSON.stringify of strings that come back on nearly every line (methods, route patterns), each
 * serialized once: a lookup is a tenth of a serialization. Bounded, in case a caller logs values
 * that do not repeat.
 */
const repeatedJson = (max = 1_000): ((value: string) => string) => {
  const known = new Map<string, string>();
  return (value) => {
    let json = known.get(value);
    if (json === undefined) {
      json = JSON.stringify(value);
      if (known.size < max) known.set(value, json);
    }
    return json;
  };
};

/**
 * Writes the line of a request to `logger`'s destination, exactly as
 * `logger.child({ request_id }).info({ method, route, status, duration_ms, organization_id, client, retry }, "request")`
 * would (test/access-log.test.ts holds the two side by side), but serialized by hand: pino's generic
 * serializer, with the child logger's bindings, was 4-5 us of every request in the bench:http
 * profile, and this line is written for every request. `client` and `retry` are left out when
 * undefined, as pino leaves out undefined values. Nothing when the level is above info.
 */
export const accessLogWriter = (logger: pino.Logger): ((entry: AccessLogEntry) => void) => {
  const destination = (logger as unknown as Record<symbol, Destination | undefined>)[pino.symbols.streamSym];
  if (!destination) return () => {};
  const bindings = JSON.stringify(logger.bindings()).slice(1, -1);
  const level = logger.levels.values.info;
  const head = `{"level":${level},"time":`;
  const afterTime = bindings ? `,${bindings},"request_id":` : `,"request_id":`;
  const json = repeatedJson();
  return (entry) => {
    if (!logger.isLevelEnabled("info")) return;
    destination.write(
      `${head}${Date.now()}${afterTime}${JSON.stringify(entry.requestId)},"method":${json(entry.method)},"route":${entry.route === null ? "null" : json(entry.route)},"status":${entry.status},"duration_ms":${entry.durationMs},"organization_id":${entry.organizationId}${entry.client === undefined ? "" : `,"client":${json(entry.client)}`}${entry.retry === undefined ? "" : `,"retry":${entry.retry}`},"msg":"request"}\n`,
    );
  };
};
