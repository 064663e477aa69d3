import { Counter, type Metric, type Registry } from "prom-client";

const LABELS = ["method", "route", "status"] as const;
type Labels = Record<(typeof LABELS)[number], string>;

type Tally = { labels: Labels; count: number; sum: number; perBucket: number[] };

export type HttpRequestMetrics = {
  /** One answered request; `seconds` from request received to response sent. */
  record(method: string, route: string, status: number, seconds: number): void;
};

/** The map under `key` in `outer`, made empty on first use. */
const innerMap = <K, IK, V>(outer: Map<K, Map<IK, V>>, key: K): Map<IK, V> => {
  let inner = outer.get(key);
  if (!inner) {
    inner = new Map();
    outer.set(key, inner);
  }
  return inner;
};

/**
 * `gmi_http_requests_total` (counter) and `gmi_http_request_duration_seconds` (histogram), by
 * method, route pattern and status. Every response adds to plain numbers kept per label set, and
 * the two metrics are read from them at scrape time: prom-client's own counter and histogram hash
 * and check their labels on every call, 2-3 us of every request in the bench:http profile. The
 * scrape output is the same as theirs (src/plugins/http-metrics.test.ts compares them).
 */
export const httpRequestMetrics = (registry: Registry, buckets: readonly number[]): HttpRequestMetrics => {
  /** Every label set in the order first seen: the order prom-client scrapes them in. */
  const tallies: Tally[] = [];
  /**
   * The same tallies by route, method and status: those values are the same few strings and numbers
   * on every request, so each lookup finds a hash already computed, where a key joined from them
   * was a new string to build and hash per request.
   */
  const byRoute = new Map<string, Map<string, Map<number, Tally>>>();
  const clear = () => {
    tallies.length = 0;
    byRoute.clear();
  };

  new Counter({
    name: "gmi_http_requests_total",
    help: "Requests answered, by method, route pattern and status",
    labelNames: LABELS,
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, count } of tallies) this.inc(labels, count);
    },
  });

  const name = "gmi_http_request_duration_seconds";
  const described = {
    name,
    help: "Time from request received to response sent, by method, route pattern and status",
    type: "histogram",
    aggregator: "sum",
  };
  const histogram = {
    ...described,
    reset: clear,
    get: async () => ({
      ...described,
      values: tallies.flatMap(({ labels, count, sum, perBucket }) => {
        let cumulative = 0;
        return [
          ...buckets.map((le, i) => {
            cumulative += perBucket[i] ?? 0;
            return { labels: { le, ...labels }, value: cumulative, metricName: `${name}_bucket` };
          }),
          { labels: { le: "+Inf", ...labels }, value: count, metricName: `${name}_bucket` },
          { labels, value: sum, metricName: `${name}_sum` },
          { labels, value: count, metricName: `${name}_count` },
        ];
      }),
    }),
  };
  registry.registerMetric(histogram as unknown as Metric);

  return {
    record(method, route, status, seconds) {
      const byStatus = innerMap(innerMap(byRoute, route), method);
      let tally = byStatus.get(status);
      if (!tally) {
        tally = {
          labels: { method, route, status: String(status) },
          count: 0,
          sum: 0,
          perBucket: buckets.map(() => 0),
        };
        byStatus.set(status, tally);
        tallies.push(tally);
      }
      tally.count += 1;
      tally.sum += seconds;
      for (let i = 0; i < buckets.length; i++) {
        if (seconds <= (buckets[i] as number)) {
          tally.perBucket[i] = (tally.perBucket[i] ?? 0) + 1;
          break;
        }
      }
    },
  };
};
