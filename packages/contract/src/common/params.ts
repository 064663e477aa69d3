import { z } from "zod";

export const PERIODS = ["day", "7d", "30d"] as const;
export const PeriodSchema = z.enum(PERIODS);
export type Period = z.infer<typeof PeriodSchema>;

/** Days covered by a period ending on its date (D, D-6..D, D-29..D). */
export const PERIOD_DAYS = { day: 1, "7d": 7, "30d": 30 } as const satisfies Record<Period, number>;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The dates a request may name: inside what JavaScript, PostgreSQL (which has no year 0) and the
 * 30-day window arithmetic all handle. Whether data exists for a date is the server's check.
 */
export const MIN_DATE = "1970-01-01";
export const MAX_DATE = "9999-12-31";

/** A real calendar date written YYYY-MM-DD (2026-02-30 is refused, not rolled over), 1970-01-01 to 9999-12-31. */
export const IsoDateSchema = z
  .string()
  .regex(ISO_DATE, "must be a date written YYYY-MM-DD")
  .refine((value) => {
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
  }, "must be a real calendar date")
  // Same-length YYYY-MM-DD strings compare as dates.
  .refine((value) => value >= MIN_DATE && value <= MAX_DATE, `must be between ${MIN_DATE} and ${MAX_DATE}`);

/**
 * Free text in a path (a slug, a title): 1 to `max` characters, none of them a control character.
 * NUL cannot be stored or compared by PostgreSQL, and no name or slug contains a control character,
 * so they are refused here for every text parameter at once.
 */
export const TextParamSchema = (max: number) =>
  z
    .string()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
    .regex(/^[^\u0000-\u001f\u007f]+$/, "must not contain control characters");

/** Positive 32-bit ids; query and path values arrive as strings, hence the coercion. */
export const IdSchema = z.coerce
  .number({ invalid_type_error: "must be an integer" })
  .int("must be an integer")
  .min(1, "must be 1 or more")
  .max(2_147_483_647, "must be at most 2147483647");

export const DecimalStringSchema = z.string().regex(/^\d+\.\d{2}$/, "must be a decimal string like 149.99");

/**
 * Query schemas are strict: a parameter the endpoint does not take (`/trending?sort=volume`,
 * `/searches?game_id=981`) is a 422 naming it, as an invalid value is, rather than silently
 * ignored (docs/decisions.md). `merge` keeps the strictness of the schema merged in and `extend`
 * that of the schema extended, so every query schema built from these stays strict.
 */
export const PeriodQuerySchema = z
  .object({
    period: PeriodSchema.default("7d"),
    date: IsoDateSchema.optional(),
  })
  .strict();

export const ConsoleScopeQuerySchema = z.object({ console_id: IdSchema.optional() }).strict();

/** The query of an endpoint that takes no parameters: any parameter is a 422 naming it. */
export const NoQuerySchema = z.object({}).strict();

/** Ids inside JSON bodies are numbers, not numeric strings. */
export const JsonIdSchema = z
  .number({ invalid_type_error: "must be an integer", required_error: "is required" })
  .int("must be an integer")
  .min(1, "must be 1 or more")
  .max(2_147_483_647, "must be at most 2147483647");
