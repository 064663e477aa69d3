import { z } from "zod";
import { LinksSchema, PaginationSchema } from "./pagination.js";

/** `{ data: [row], meta: { ...meta, pagination }, links }`: every paginated list. */
export const paginatedEnvelope = <Row extends z.ZodTypeAny, Meta extends z.ZodRawShape>(
  row: Row,
  meta: Meta,
) =>
  z.object({
    data: z.array(row),
    meta: z.object({ ...meta, pagination: PaginationSchema }),
    links: LinksSchema,
  });

/** `{ data, meta }`: a single resource or an unpaginated collection. */
export const dataEnvelope = <Data extends z.ZodTypeAny, Meta extends z.ZodRawShape>(data: Data, meta: Meta) =>
  z.object({ data, meta: z.object(meta) });
