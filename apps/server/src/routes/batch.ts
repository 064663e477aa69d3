import type { Period } from "@gmi/contract";
import { contract, IntelligenceBatchElementSchema, SignalsBatchElementSchema } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import type { ZodTypeAny, z } from "zod";
import { buildItems, idsOf, summarize } from "../domain/batch/items.js";
import { parseElements } from "../domain/batch/requests.js";
import { batchMeta } from "../reads/meta.js";
import { batchRowOf, signalsOf } from "../reads/profiles.js";
import { snapshotFor } from "../reads/snapshot.js";
import type { RouteDeps } from "./context.js";

const s = initServer();

type Profile = Parameters<typeof batchRowOf>[0];

/**
 * The two batch endpoints differ only in their element and in what a found game becomes. The
 * batch admission ran before this (plugins/batch-admission.ts): `requests` is an array of 1 to
 * max_batch_size elements, charged one unit each, its Idempotency-Key settled. The batch is
 * answered from one snapshot, resolved once.
 */
const answerBatch = async <S extends ZodTypeAny, Data>(
  { reads }: RouteDeps,
  input: { query: { period: Period; date?: string | undefined }; requests: readonly unknown[] },
  element: { schema: S; idOf: (element: z.output<S>) => number; found: (profile: Profile) => Data },
) => {
  const elements = parseElements(input.requests, element.schema, element.idOf);
  const snapshot = await snapshotFor(reads, input.query.period, input.query.date);
  const ids = idsOf(elements);
  const profiles = ids.length > 0 ? await reads.profiles(reads.sql, snapshot, ids, reads.scoring) : new Map();
  const items = buildItems(elements, (id) => {
    const profile = profiles.get(id);
    return profile ? element.found(profile) : { game_id: id, found: false as const };
  });
  const { status, batch } = summarize(items);
  return {
    status,
    body: { data: items, meta: batchMeta(snapshot, batch) },
  };
};

export const intelligenceBatch = (deps: RouteDeps) =>
  s.route(contract.intelligence.batch, async ({ query, body }) =>
    answerBatch(
      deps,
      { query, requests: body.requests },
      {
        schema: IntelligenceBatchElementSchema,
        idOf: (e) => ("game_id" in e ? e.game_id : e.id),
        found: batchRowOf,
      },
    ),
  );

export const signalsBatch = (deps: RouteDeps) =>
  s.route(contract.signals.batch, async ({ query, body }) =>
    answerBatch(
      deps,
      { query, requests: body.requests },
      { schema: SignalsBatchElementSchema, idOf: (e) => e.id, found: signalsOf },
    ),
  );
