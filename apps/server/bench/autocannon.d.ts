// The few autocannon 9 options and results the benchmark uses (the package ships no types).
declare module "autocannon" {
  export type Options = {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    workers?: number;
    pipelining?: number;
    /** Each connection cycles through these; setupRequest rebuilds a request before each send. */
    requests?: Array<{ setupRequest?: (request: Request) => Request }>;
  };
  export type Request = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
  type Histogram = { average: number; mean: number; p50: number; p99: number; max: number };
  export type Result = {
    requests: Histogram & { total: number };
    latency: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
    statusCodeStats?: Record<string, { count: number }>;
  };
  function autocannon(options: Options): Promise<Result>;
  export = autocannon;
}
