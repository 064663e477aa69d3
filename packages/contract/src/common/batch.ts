import { z } from "zod";
import { ErrorBodySchema } from "./errors.js";
import { IsoDateSchema, JsonIdSchema, PeriodQuerySchema, PeriodSchema } from "./params.js";

export const BatchQuerySchema = PeriodQuerySchema;

/**
 * The body's static type. At run time the server checks `requests` itself, once, in its batch
 * admission (present, an array, 1 to the plan's max_batch_size: a limit no static schema knows),
 * before anything is charged, and then each element on its own, so that one bad element fails only
 * its own item (spec: per-item 422). Here the envelope therefore checks nothing about `requests`;
 * its static type and the OpenAPI document (built from `metadata.element`, `minItems: 1`) show the
 * real shape.
 */
export const batchBody = <Element extends z.ZodTypeAny>(_element: Element) =>
  z.object({
    requests: z.custom<Array<z.input<Element>>>(() => true),
  });

export const BatchMetaSchema = z.object({
  total: z.number().int().nonnegative(),
  succeeded: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
});
export type BatchMeta = z.infer<typeof BatchMetaSchema>;

/** A successful item (2xx with `data`) or a failed one (non-2xx with `error`). */
export const batchItem = <Data extends z.ZodTypeAny>(data: Data) =>
  z.union([
    z.object({ status: z.number().int().min(200).max(299), data }),
    z.object({ status: z.number().int().min(400).max(599), error: ErrorBodySchema }),
  ]);

export const batchEnvelope = <Data extends z.ZodTypeAny>(data: Data) =>
  z.object({
    data: z.array(batchItem(data)),
    meta: z.object({
      period: PeriodSchema,
      period_date: IsoDateSchema,
      batch: BatchMetaSchema,
    }),
  });

/** `{game_id}` or, as the spec allows, `{id}`. */
export const IntelligenceBatchElementSchema = z.union([
  z.object({ game_id: JsonIdSchema }),
  z.object({ id: JsonIdSchema }),
]);
export type IntelligenceBatchElement = z.input<typeof IntelligenceBatchElementSchema>;

export const SignalsBatchElementSchema = z.object({ id: JsonIdSchema });
export type SignalsBatchElement = z.input<typeof SignalsBatchElementSchema>;
