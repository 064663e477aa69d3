import type { Period } from "@gmi/contract";
import { contract, IntelligenceBatchElementSchema, SignalsBatchElementSchema } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import type { ZodTypeAny, z } from "zod";
import { profileMemo } from "../analytics/profile-memo.js";
import { batchRowOf, loadProfiles, signalsOf } from "../analytics/profiles.js";
import { type ReadCache, readCache } from "../analytics/read-cache.js";
import { scoringOf } from "../analytics/scoring.js";
import { cachedSnapshot } from "../analytics/snapshot.js";
import { buildItems, idsOf, summarize } from "../domain/batch/items.js";
import { parseElements } from "../domain/batch/requests.js";
import type { RouteDeps } from "./context.js";

const s = initServer();

type Profile = Parameters<typeof batchRowOf>[0];

/** A batch route's memos: the latest snapshot (a second), the games' profiles (while the data holds). */
type BatchReads = { cache: ReadCache; profiles: typeof loadProfiles };
const batchReads = (deps: RouteDeps): BatchReads => ({
  cache: readCache(deps.clock),
  profiles: deps.dataVersion ? profileMemo(deps.dataVersion) : loadProfiles,
});

/**
 * The two batch endpoints differ only in their element and in what a found game becomes. The
 * batch admission ran before this (plugins/batch-admission.ts): `requests` is an array of 1 to
 * max_batch_size elements, charged one unit each, its Idempotency-Key settled. The batch is
 * answered from one snapshot, resolved once.
 */
const answerBatch = async <S extends ZodTypeAny, Data>(
  deps: RouteDeps,
  reads: BatchReads,
  input: { query: { period: Period; date?: string | undefined }; requests: readonly unknown[] },
  element: { schema: S; idOf: (element: z.output<S>) => number; found: (profile: Profile) => Data },
) => {
  const elements = parseElements(input.requests, element.schema, element.idOf);
  const snapshot = await cachedSnapshot(
    reads.cache,
    deps.sql,
    deps.clock,
    input.query.period,
    input.query.date,
  );
  const ids = idsOf(elements);
  const profiles =
    ids.length > 0
      ? await reads.profiles(deps.sql, snapshot, ids, scoringOf(deps.config.analytics))
      : new Map();
  const items = buildItems(elements, (id) => {
    const profile = profiles.get(id);
    return profile ? element.found(profile) : { game_id: id, found: false as const };
  });
  const { status, batch } = summarize(items);
  return {
    status,
    body: { data: items, meta: { period: snapshot.period, period_date: snapshot.date, batch } },
  };
};

export const intelligenceBatch = (deps: RouteDeps) => {
  const reads = batchReads(deps);
  return s.route(contract.intelligence.batch, async ({ query, body }) =>
    answerBatch(
      deps,
      reads,
      { query, requests: body.requests },
      {
        schema: IntelligenceBatchElementSchema,
        idOf: (e) => ("game_id" in e ? e.game_id : e.id),
        found: batchRowOf,
      },
    ),
  );
};

export const signalsBatch = (deps: RouteDeps) => {
  const reads = batchReads(deps);
  return s.route(contract.signals.batch, async ({ query, body }) =>
    answerBatch(
      deps,
      reads,
      { query, requests: body.requests },
      { schema: SignalsBatchElementSchema, idOf: (e) => e.id, found: signalsOf },
    ),
  );
};
