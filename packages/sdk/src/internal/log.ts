/** What the client writes its log lines to: `console` by default, or pino, winston, ... */
export interface Logger {
  /** Unused by the client today; part of the interface so any console-like logger fits. */
  error(message: string, ...details: unknown[]): void;
  /** A setting the client ignores (an unknown `GMI_LOG` value). */
  warn(message: string, ...details: unknown[]): void;
  /** A retry: what failed, and how long the client waits. */
  info(message: string, ...details: unknown[]): void;
  /** One line per attempt, with its fields as an object after the text. */
  debug(message: string, ...details: unknown[]): void;
}

/** `off` writes nothing; each level writes its own lines and those of the levels before it. */
export type LogLevel = "off" | "error" | "warn" | "info" | "debug";

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

const isLevel = (value: unknown): value is LogLevel =>
  typeof value === "string" && Object.hasOwn(RANK, value);

/** `GMI_LOG` where the runtime has an environment (Node, Bun, Deno); never throws (Deno without --allow-env). */
const readEnvLevel = (): string | undefined => {
  const g = globalThis as {
    process?: { env?: Record<string, string | undefined> };
    Deno?: { env?: { get(name: string): string | undefined } };
  };
  try {
    return g.process?.env?.GMI_LOG ?? g.Deno?.env?.get("GMI_LOG");
  } catch {
    return undefined;
  }
};

const noop = () => {};

/** The logger with the lines above `level` turned into no-ops, so a call site pays nothing for them. */
export interface LevelLogger extends Logger {
  /** Whether debug lines are written: their details are only assembled then. */
  readonly debugging: boolean;
}

/**
 * The client's logger: the `logLevel` option, else `GMI_LOG`, else `warn`. A level that is not one
 * of the five is reported (as a warning) and ignored.
 */
export const levelLogger = (logger: Logger = console, option?: LogLevel | undefined): LevelLogger => {
  const fromEnv = readEnvLevel();
  let level: LogLevel = "warn";
  const problems: string[] = [];
  for (const [source, value] of [
    ["the logLevel option", option],
    ["GMI_LOG", fromEnv],
  ] as const) {
    if (value === undefined || value === "") continue;
    if (isLevel(value)) {
      level = value;
      break;
    }
    problems.push(`${source} is ${JSON.stringify(value)}, not one of ${Object.keys(RANK).join(", ")}`);
  }
  const bound = (name: Exclude<LogLevel, "off">) =>
    RANK[name] <= RANK[level] ? logger[name].bind(logger) : noop;
  const result: LevelLogger = {
    error: bound("error"),
    warn: bound("warn"),
    info: bound("info"),
    debug: bound("debug"),
    debugging: RANK.debug <= RANK[level],
  };
  for (const problem of problems) result.warn(`gmi: ${problem}; ignored`);
  return result;
};

/** What the debug line of one attempt says. */
export interface AttemptLine {
  method: string;
  /** Path and query, without the base URL. */
  path: string;
  /** Undefined when no answer came (connection failure, time-out). */
  status: number | undefined;
  durationMs: number;
  /** 1 for the first try. */
  attempt: number;
  requestId: string | undefined;
}

/** The debug line of one attempt: readable as text, and the same fields as an object for structured loggers. */
export const logAttempt = (logger: Logger, line: AttemptLine, failure?: string): void => {
  const { method, path, status, durationMs, attempt, requestId } = line;
  const outcome = failure === undefined ? String(status) : "failed";
  const request = failure === undefined ? `, request ${requestId ?? "unknown"}` : "";
  const reason = failure === undefined ? "" : `: ${failure}`;
  logger.debug(
    `gmi: ${method} ${path} ${outcome} in ${durationMs} ms (attempt ${attempt}${request})${reason}`,
    line,
  );
};
