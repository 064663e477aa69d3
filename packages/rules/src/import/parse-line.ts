import { JsonIdSchema } from "@gmi/contract";
import { z } from "zod";
import { normalizeQuery } from "../analytics/normalize-query.js";
import type { IsoDay } from "../analytics/windows.js";

/** Longer lines are refused before JSON parsing (no record of ours comes near it). */
export const MAX_LINE_LENGTH = 65_536;
/** Longest raw search text kept; the normalized key is cut to 200 code points anyway. */
export const MAX_RAW_QUERY_LENGTH = 1_000;

const slug = z
  .string()
  .max(200)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be a lower-case slug (a-z, 0-9, single hyphens)");
const name = z.string().trim().min(1, "must not be empty").max(200);
const userId = z.union([z.string().min(1).max(128), z.number().int().nonnegative().transform(String)], {
  errorMap: () => ({ message: "must be a string of 1 to 128 characters or a non-negative integer" }),
});
/**
 * A calendar-valid date (02-29 only in leap years, no 04-31) and a time with seconds, optional
 * fraction, and Z or an explicit offset: events land on UTC days, so a naive local time would be a
 * guess. Compiled once: zod's own `.datetime()` rebuilds its regex on every call, which showed up as
 * the largest single cost of an import.
 */
const INSTANT =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|1\d|2[0-8])))T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;
/** Rewritten in canonical UTC form (`2026-11-20T10:00:00.000Z`). */
const instant = z
  .string()
  .regex(INSTANT, "must be an ISO 8601 timestamp with seconds and Z or an offset")
  .transform((value) => new Date(value).toISOString());
/** "149.99", "12.5", "40" or a JSON number; at most 2 decimals, never negative; stored as "149.99". */
const price = z.union(
  [
    z.string().regex(/^\d{1,10}(?:\.\d{1,2})?$/),
    z
      .number()
      .nonnegative()
      .lt(1e10)
      // 149.99 * 100 is 14998.999999999998 in binary: "two decimals" within a hair.
      .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6),
    z.null(),
  ],
  { errorMap: () => ({ message: 'must be a non-negative decimal with at most 2 decimals, like "149.99"' }) },
);
/** The marketplace's own id of an event, when it sends one: the event's dedupe key (event-key.ts). */
const eventId = z.union([z.string().min(1).max(128), z.number().int().nonnegative().transform(String)], {
  errorMap: () => ({ message: "must be a string of 1 to 128 characters or a non-negative integer" }),
});
const device = z.enum(["mobile", "desktop"]);
const condition = z.enum(["loose", "cib", "new", "any"]);

// Optional fields stay plain `.nullish()` here and become null in the mappers below: every zod
// transform costs a wrapper per field, and this runs once per line of files with millions of lines.
const ConsoleLineSchema = z.object({ type: z.literal("console"), id: JsonIdSchema, name, slug });

const GameLineSchema = z.object({
  type: z.literal("game"),
  id: JsonIdSchema,
  console_id: JsonIdSchema,
  display_game_name: name,
  marketplace_game_name: slug,
  enabled: z.boolean().nullish(),
  prices: z.object({ loose: price.optional(), complete: price.optional(), new: price.optional() }).nullish(),
  observed_at: instant.nullish(),
});

const RedirectLineSchema = z.object({
  type: z.literal("redirect"),
  event_id: eventId.nullish(),
  game_id: JsonIdSchema,
  user_id: userId,
  occurred_at: instant,
  condition: condition.nullish(),
  device: device.nullish(),
});

const WatchLineSchema = z.object({
  type: z.literal("watch"),
  event_id: eventId.nullish(),
  game_id: JsonIdSchema,
  user_id: userId,
  created_at: instant,
  removed_at: instant.nullish(),
  condition: condition.nullish(),
});

const SearchLineSchema = z.object({
  type: z.literal("search"),
  event_id: eventId.nullish(),
  query: z.string().max(MAX_RAW_QUERY_LENGTH),
  user_id: userId,
  occurred_at: instant,
  source: z.enum(["pricing", "site"]),
  device,
  result_count: z.number().int().nonnegative().max(2_147_483_647),
  condition: condition.nullish(),
  game_id: JsonIdSchema.nullish(),
  console_id: JsonIdSchema.nullish(),
});

const SCHEMAS = {
  console: ConsoleLineSchema,
  game: GameLineSchema,
  redirect: RedirectLineSchema,
  watch: WatchLineSchema,
  search: SearchLineSchema,
} as const;

/** The NDJSON shapes as written (docs/data-format.md); the demo generator writes these. */
export type ConsoleLine = z.input<typeof ConsoleLineSchema>;
export type GameLine = z.input<typeof GameLineSchema>;
export type RedirectLine = z.input<typeof RedirectLineSchema>;
export type WatchLine = z.input<typeof WatchLineSchema>;
export type SearchLine = z.input<typeof SearchLineSchema>;
export type NdjsonLine = ConsoleLine | GameLine | RedirectLine | WatchLine | SearchLine;

/** Validated records, in the event tables' terms. Instants are canonical ISO strings (UTC, ms). */
export type ConsoleRecord = { type: "console"; id: number; name: string; slug: string };
export type GameRecord = {
  type: "game";
  id: number;
  consoleId: number;
  displayGameName: string;
  marketplaceGameName: string;
  enabled: boolean;
  /** Two-decimal strings ("289.00") or null. */
  prices: { loose: string | null; complete: string | null; new: string | null };
  /** When the prices were seen (canonical UTC); null: when the file is imported. */
  observedAt: string | null;
};
export type RedirectRecord = {
  type: "redirect";
  /** The line's `event_id`, or null: its content is then its identity (event-key.ts). */
  eventId: string | null;
  gameId: number;
  userId: string;
  occurredAt: string;
  day: IsoDay;
  condition: "loose" | "cib" | "new" | null;
  device: "mobile" | "desktop" | null;
};
export type WatchRecord = {
  type: "watch";
  eventId: string | null;
  gameId: number;
  userId: string;
  createdAt: string;
  removedAt: string | null;
  condition: "loose" | "cib" | "new" | null;
};
export type SearchRecord = {
  type: "search";
  eventId: string | null;
  rawQuery: string;
  /** `normalizeQuery(rawQuery)`, never empty. */
  query: string;
  userId: string;
  occurredAt: string;
  day: IsoDay;
  source: "pricing" | "site";
  device: "mobile" | "desktop";
  resultCount: number;
  condition: "loose" | "cib" | "new" | "any" | null;
  gameId: number | null;
  consoleId: number | null;
};
export type ImportRecord = ConsoleRecord | GameRecord | RedirectRecord | WatchRecord | SearchRecord;

/** A refused line: its 1-based number in the file and why, for the import report. */
export type LineError = { line: number; reason: string };

export type ParsedLine =
  | { kind: "record"; record: ImportRecord }
  | { kind: "error"; error: LineError }
  | { kind: "blank" };

const describeIssues = (error: z.ZodError): string =>
  error.issues
    .slice(0, 3)
    .map((issue) => {
      // zod's own wording for a missing key is a bare "Required"; the report reads better as a phrase.
      const message = issue.message === "Required" ? "is required" : issue.message;
      return issue.path.length > 0 ? `${issue.path.join(".")}: ${message}` : message;
    })
    .join("; ");

/** Prices are stored as two-decimal strings: "12.5" and 12.5 both become "12.50". */
const priceText = (value: string | number | null | undefined): string | null =>
  value == null ? null : Number(value).toFixed(2);

/** Redirects and alerts name a listing condition; "any" on them means no preference, stored as null. */
const listingCondition = (value: "loose" | "cib" | "new" | "any" | null | undefined) =>
  value === "any" || value == null ? null : value;

const toRecord = (type: keyof typeof SCHEMAS, data: unknown): ImportRecord | string => {
  switch (type) {
    case "console": {
      const r = ConsoleLineSchema.parse(data);
      return { type, id: r.id, name: r.name, slug: r.slug };
    }
    case "game": {
      const r = GameLineSchema.parse(data);
      return {
        type,
        id: r.id,
        consoleId: r.console_id,
        displayGameName: r.display_game_name,
        marketplaceGameName: r.marketplace_game_name,
        enabled: r.enabled ?? true,
        prices: {
          loose: priceText(r.prices?.loose),
          complete: priceText(r.prices?.complete),
          new: priceText(r.prices?.new),
        },
        observedAt: r.observed_at ?? null,
      };
    }
    case "redirect": {
      const r = RedirectLineSchema.parse(data);
      return {
        type,
        eventId: r.event_id ?? null,
        gameId: r.game_id,
        userId: r.user_id,
        occurredAt: r.occurred_at,
        day: r.occurred_at.slice(0, 10),
        condition: listingCondition(r.condition),
        device: r.device ?? null,
      };
    }
    case "watch": {
      const r = WatchLineSchema.parse(data);
      const removedAt = r.removed_at ?? null;
      if (removedAt !== null && removedAt < r.created_at) return "removed_at: must not be before created_at";
      return {
        type,
        eventId: r.event_id ?? null,
        gameId: r.game_id,
        userId: r.user_id,
        createdAt: r.created_at,
        removedAt,
        condition: listingCondition(r.condition),
      };
    }
    case "search": {
      const r = SearchLineSchema.parse(data);
      const query = normalizeQuery(r.query);
      if (query === "") return "query: nothing searchable after normalization";
      return {
        type,
        eventId: r.event_id ?? null,
        rawQuery: r.query,
        query,
        userId: r.user_id,
        occurredAt: r.occurred_at,
        day: r.occurred_at.slice(0, 10),
        source: r.source,
        device: r.device,
        resultCount: r.result_count,
        condition: r.condition ?? null,
        gameId: r.game_id ?? null,
        consoleId: r.console_id ?? null,
      };
    }
  }
};

// ---------------------------------------------------------------------------------------------
// The fast path. Event lines are most of every file, and zod's parse of one was most of an import's
// CPU (about 8 µs of the 10 a line). These checks accept only what the schemas above accept and
// build the same record; anything they do not recognise at once goes to the schemas, which decide
// and word the error. parse-line.test.ts runs every case through both.

type Json = Record<string, unknown>;

const isId = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 2_147_483_647;
const isIdOrAbsent = (value: unknown): value is number | null | undefined => value == null || isId(value);
/** A user id or event id as stored, or undefined when the value is not one the schema accepts at once. */
const idText = (value: unknown): string | undefined => {
  if (typeof value === "string") return value.length >= 1 && value.length <= 128 ? value : undefined;
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return String(value);
  return undefined;
};
/**
 * The canonical form of a valid instant. Already in UTC with whole seconds or milliseconds (what
 * producers mostly send) it is rewritten by hand: a Date and its ISO text were a tenth of a line.
 */
const instantText = (value: unknown): string | undefined => {
  if (typeof value !== "string" || !INSTANT.test(value)) return undefined;
  if (value.length === 20 && value[19] === "Z") return `${value.slice(0, 19)}.000Z`;
  if (value.length === 24 && value[23] === "Z" && value[19] === ".") return value;
  return new Date(value).toISOString();
};
const CONDITIONS = new Set(["loose", "cib", "new", "any"]);
const isCondition = (value: unknown): value is "loose" | "cib" | "new" | "any" | null | undefined =>
  value == null || (typeof value === "string" && CONDITIONS.has(value));
const isDevice = (value: unknown): value is "mobile" | "desktop" => value === "mobile" || value === "desktop";
/** An optional event_id: null when absent, undefined when present but not a valid id. */
const eventIdOf = (value: unknown): string | null | undefined => (value == null ? null : idText(value));

const fastRedirect = (d: Json): RedirectRecord | undefined => {
  const eventId = eventIdOf(d.event_id);
  const userId = idText(d.user_id);
  const occurredAt = instantText(d.occurred_at);
  const { game_id: gameId, condition, device } = d;
  if (eventId === undefined || userId === undefined || occurredAt === undefined || !isId(gameId))
    return undefined;
  if (!isCondition(condition) || !(device == null || isDevice(device))) return undefined;
  return {
    type: "redirect",
    eventId,
    gameId,
    userId,
    occurredAt,
    day: occurredAt.slice(0, 10),
    condition: listingCondition(condition),
    device: device ?? null,
  };
};

const fastWatch = (d: Json): WatchRecord | undefined => {
  const eventId = eventIdOf(d.event_id);
  const userId = idText(d.user_id);
  const createdAt = instantText(d.created_at);
  const removedAt = d.removed_at == null ? null : instantText(d.removed_at);
  const { game_id: gameId, condition } = d;
  if (eventId === undefined || userId === undefined || createdAt === undefined || removedAt === undefined)
    return undefined;
  if (!isId(gameId) || !isCondition(condition)) return undefined;
  if (removedAt !== null && removedAt < createdAt) return undefined;
  return {
    type: "watch",
    eventId,
    gameId,
    userId,
    createdAt,
    removedAt,
    condition: listingCondition(condition),
  };
};

const fastSearch = (d: Json): SearchRecord | undefined => {
  const eventId = eventIdOf(d.event_id);
  const userId = idText(d.user_id);
  const occurredAt = instantText(d.occurred_at);
  const { query: rawQuery, source, device, result_count: resultCount, condition } = d;
  const { game_id: gameId, console_id: consoleId } = d;
  if (eventId === undefined || userId === undefined || occurredAt === undefined) return undefined;
  if (typeof rawQuery !== "string" || rawQuery.length > MAX_RAW_QUERY_LENGTH) return undefined;
  if ((source !== "pricing" && source !== "site") || !isDevice(device) || !isCondition(condition))
    return undefined;
  if (
    typeof resultCount !== "number" ||
    !Number.isInteger(resultCount) ||
    resultCount < 0 ||
    resultCount > 2_147_483_647
  )
    return undefined;
  if (!isIdOrAbsent(gameId) || !isIdOrAbsent(consoleId)) return undefined;
  const query = normalizedOnce(rawQuery);
  if (query === "") return undefined;
  return {
    type: "search",
    eventId,
    rawQuery,
    query,
    userId,
    occurredAt,
    day: occurredAt.slice(0, 10),
    source,
    device,
    resultCount,
    condition: condition ?? null,
    gameId: gameId ?? null,
    consoleId: consoleId ?? null,
  };
};

/**
 * Normalized queries by raw text: searches repeat their queries (the demo's 570k searches use a few
 * thousand), and normalizing one was a tenth of a line's cost. Emptied when full, so it stays small.
 */
const normalized = new Map<string, string>();
const normalizedOnce = (raw: string): string => {
  let query = normalized.get(raw);
  if (query === undefined) {
    if (normalized.size >= 50_000) normalized.clear();
    query = normalizeQuery(raw);
    normalized.set(raw, query);
  }
  return query;
};

const FAST: Partial<Record<keyof typeof SCHEMAS, (data: Json) => ImportRecord | undefined>> = {
  redirect: fastRedirect,
  watch: fastWatch,
  search: fastSearch,
};

/**
 * Validates one NDJSON line. Unknown fields are ignored (producers may send more than we store);
 * a whitespace-only line is `blank`, not an error, so a trailing newline costs nothing.
 */
export const parseLine = (text: string, line: number): ParsedLine => parse(text, line, true);

/** `parseLine` by the schemas alone, without the fast path: the reference the tests hold it to. */
export const parseLineBySchemas = (text: string, line: number): ParsedLine => parse(text, line, false);

const parse = (text: string, line: number, fast: boolean): ParsedLine => {
  const fail = (reason: string): ParsedLine => ({ kind: "error", error: { line, reason } });
  if (text.trim() === "") return { kind: "blank" };
  if (text.length > MAX_LINE_LENGTH) return fail(`line longer than ${MAX_LINE_LENGTH} characters`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return fail("not valid JSON");
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return fail("not a JSON object");
  const type = (data as { type?: unknown }).type;
  if (typeof type !== "string" || !Object.hasOwn(SCHEMAS, type)) {
    return fail(`type: must be one of ${Object.keys(SCHEMAS).join(", ")}`);
  }
  const quick = fast ? FAST[type as keyof typeof SCHEMAS]?.(data as Json) : undefined;
  if (quick !== undefined) return { kind: "record", record: quick };
  try {
    const record = toRecord(type as keyof typeof SCHEMAS, data);
    return typeof record === "string" ? fail(record) : { kind: "record", record };
  } catch (error) {
    if (error instanceof z.ZodError) return fail(describeIssues(error));
    throw error;
  }
};
