import type { Period } from "@gmi/contract";
import { contract, IntelligenceBatchElementSchema, SignalsBatchElementSchema } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import type { ZodTypeAny, z } from "zod";
import { batchJson, buildItems, idsOf, summarize } from "../domain/batch/items.js";
import { parseElements } from "../domain/batch/requests.js";
import { batchMeta } from "../reads/meta.js";
import { batchRowOf, signalsOf } from "../reads/profiles.js";
import { snapshotFor } from "../reads/snapshot.js";
import { type Reply, sendSerialized } from "./answer.js";
import type { RouteDeps } from "./context.js";

const s = initServer();

type Profile = Parameters<typeof batchRowOf>[0];

/**
 * What a found game becomes in a batch, made once per profile with its JSON: profiles are kept
 * while the data holds (caches/profile-memo.ts) and popular games are asked for in batch after
 * batch, so their items are neither rebuilt nor serialized again. Keyed by the profile object,
 * so an entry lives exactly as long as the memo keeps its profile.
 */
const renderedOnce = <Data extends object>(found: (profile: Profile) => Data) => {
  const data = new WeakMap<Profile, Data>();
  const json = new WeakMap<object, string>();
  return {
    found(profile: Profile): Data {
      let made = data.get(profile);
      if (made === undefined) {
        made = found(profile);
        data.set(profile, made);
      }
      return made;
    },
    jsonOf(value: object): string {
      let made = json.get(value);
      if (made === undefined) {
        made = JSON.stringify(value);
        json.set(value, made);
      }
      return made;
    },
  };
};

/**
 * The two batch endpoints differ only in their element and in what a found game becomes. The
 * batch admission ran before this (plugins/batch-admission.ts): `requests` is an array of 1 to
 * max_batch_size elements, charged one unit each, its Idempotency-Key settled. The batch is
 * answered from one snapshot, resolved once, and serialized from its items' kept JSON.
 */
const answerBatch = async <S extends ZodTypeAny, Data extends object>(
  { reads }: RouteDeps,
  input: { query: { period: Period; date?: string | undefined }; requests: readonly unknown[]; reply: Reply },
  element: {
    schema: S;
    idOf: (element: z.output<S>) => number;
    rendered: ReturnType<typeof renderedOnce<Data>>;
  },
) => {
  const elements = parseElements(input.requests, element.schema, element.idOf);
  const ids = idsOf(elements);
  const { snapshot, profiles } = await reads.oneServer(async () => {
    const snapshot = await snapshotFor(reads, input.query.period, input.query.date);
    const profiles = ids.length > 0 ? await reads.profiles(snapshot, ids) : new Map();
    return { snapshot, profiles };
  });
  const items = buildItems(elements, (id) => {
    const profile = profiles.get(id);
    return profile ? element.rendered.found(profile) : { game_id: id, found: false as const };
  });
  const { status, batch } = summarize(items);
  const meta = batchMeta(snapshot, batch);
  // The answer joined from the items' kept JSON.
  const json = batchJson(items, meta, (data) =>
    "found" in data && data.found === false ? JSON.stringify(data) : element.rendered.jsonOf(data),
  );
  sendSerialized(input.reply, json);
  return { status, body: { data: items, meta } };
};

export const intelligenceBatch = (deps: RouteDeps) => {
  const rendered = renderedOnce(batchRowOf);
  return s.route(contract.intelligence.batch, async ({ query, body, reply }) =>
    answerBatch(
      deps,
      { query, requests: body.requests, reply },
      { schema: IntelligenceBatchElementSchema, idOf: (e) => ("game_id" in e ? e.game_id : e.id), rendered },
    ),
  );
};

export const signalsBatch = (deps: RouteDeps) => {
  const rendered = renderedOnce(signalsOf);
  return s.route(contract.signals.batch, async ({ query, body, reply }) =>
    answerBatch(
      deps,
      { query, requests: body.requests, reply },
      { schema: SignalsBatchElementSchema, idOf: (e) => e.id, rendered },
    ),
  );
};
