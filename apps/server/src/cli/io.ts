import { parseArgs } from "node:util";

/** Where a command writes: injectable so tests run the CLI in-process and read what it printed. */
export type CliIo = { stdout(text: string): void; stderr(text: string): void };

export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** A failure to report to the operator (bad arguments, unknown id): one line, or one JSON object. */
export class CliError extends Error {
  constructor(
    readonly code: "usage" | "not_found" | "invalid_state",
    message: string,
  ) {
    super(message);
    this.name = "CliError";
  }
}

type OptionSpec = Record<string, { type: "string" | "boolean"; required?: boolean }>;

/**
 * Parses one command's flags strictly (an unknown flag or a stray positional is an error). Every
 * command accepts --json. Required flags are checked here so each command reads plain values.
 */
export const parseFlags = <S extends OptionSpec>(args: string[], spec: S) => {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      options: { ...spec, json: { type: "boolean" } },
      strict: true,
      allowPositionals: false,
    }) as { values: Record<string, string | boolean | undefined> });
  } catch (error) {
    throw new CliError("usage", (error as Error).message);
  }
  for (const [name, option] of Object.entries(spec)) {
    if (option.required && (values[name] === undefined || values[name] === "")) {
      throw new CliError("usage", `missing --${name}`);
    }
  }
  return values as {
    [K in keyof S]: S[K]["type"] extends "boolean" ? boolean | undefined : string | undefined;
  } & {
    json?: boolean;
  };
};

export const positiveInt = (flag: string, value: string | undefined): number => {
  const n = Number(value);
  if (!value || !/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1 || n > 2_147_483_647) {
    throw new CliError("usage", `--${flag} must be a positive integer, got "${value ?? ""}"`);
  }
  return n;
};

export const oneOf = <T extends string>(
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
): T => {
  if (!allowed.includes(value as T)) {
    throw new CliError("usage", `--${flag} must be one of ${allowed.join(", ")}, got "${value ?? ""}"`);
  }
  return value as T;
};

/** What a command returns: the JSON object for --json and the lines for a person. */
export type CommandResult = { json: Record<string, unknown>; text: string[] };
