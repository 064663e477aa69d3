import type { Answer, Req, Scenario, Session, Step } from "./scenario.js";

/** One answer of a scenario on one side, with the request it answers. */
export type Exchange = { label: string; request: Req; answer: Answer };

/** Defects of one side alone (a replay that is not byte for byte the original). */
export type SelfCheck = { label: string; problem: string };

const HOLD_WAIT_MS = 5_000;

/** The request for the page after `answer`, or null at the end of the list. */
const nextPage = (request: Req, answer: Answer, follow: "links.next" | "cursor"): Req | null => {
  let body: { links?: { next?: unknown }; meta?: { pagination?: { next_cursor?: unknown } } };
  try {
    body = JSON.parse(answer.body);
  } catch {
    return null;
  }
  if (answer.status !== 200) return null;
  if (follow === "cursor") {
    const cursor = body.meta?.pagination?.next_cursor;
    if (typeof cursor !== "string") return null;
    return { ...request, query: { ...request.query, cursor } };
  }
  const link = body.links?.next;
  if (typeof link !== "string") return null;
  const url = new URL(link);
  return { ...request, path: url.pathname, query: Object.fromEntries(url.searchParams) };
};

/** Runs the steps of one scenario on one side, in order; every answer is kept. */
export const runScenario = async (
  scenario: Scenario,
  session: Session,
): Promise<{ exchanges: Exchange[]; checks: SelfCheck[] }> => {
  const exchanges: Exchange[] = [];
  const checks: SelfCheck[] = [];
  const send = async (label: string, request: Req) => {
    const answer = await session.send(request);
    exchanges.push({ label, request, answer });
    return answer;
  };
  for (const [index, step] of scenario.steps.entries()) {
    await runStep(step, index, send, session, exchanges, checks);
  }
  return { exchanges, checks };
};

const runStep = async (
  step: Step,
  index: number,
  send: (label: string, request: Req) => Promise<Answer>,
  session: Session,
  exchanges: Exchange[],
  checks: SelfCheck[],
) => {
  const at = `step ${index + 1}`;
  switch (step.kind) {
    case "send": {
      let request = step.request;
      if (step.cursorFrom !== undefined) {
        const from = exchanges.find((e) => e.label === step.cursorFrom);
        const cursor = from && nextPage(from.request, from.answer, "cursor")?.query?.cursor;
        request = { ...request, query: { ...request.query, cursor: cursor ?? "(no cursor)" } };
      }
      const answer = await send(step.label ?? at, request);
      if (step.sameBytesAs !== undefined) {
        const original = exchanges.find((e) => e.label === step.sameBytesAs);
        if (!original) throw new Error(`no answer labelled ${step.sameBytesAs}`);
        if (original.answer.body !== answer.body || original.answer.status !== answer.status) {
          checks.push({
            label: step.label ?? at,
            problem: `not byte for byte the answer of ${step.sameBytesAs} (status ${original.answer.status} → ${answer.status})`,
          });
        }
      }
      return;
    }
    case "walk": {
      let request: Req | null = step.request;
      for (let page = 1; request && page <= (step.max ?? 60); page++) {
        const answer = await send(`${at} page ${page}`, request);
        request = nextPage(request, answer, step.follow);
      }
      return;
    }
    case "repeat":
      for (let i = 1; i <= step.times; i++) await send(`${at} #${i}`, step.request);
      return;
    case "held": {
      const hold = session.holdNextBatch();
      const held = session.send(step.held);
      const reached = await Promise.race([
        hold.reached.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), HOLD_WAIT_MS).unref()),
      ]);
      if (!reached) checks.push({ label: `${at} held`, problem: "the held batch never reached its charge" });
      for (const [i, request] of step.during.entries()) await send(`${at} during #${i + 1}`, request);
      hold.release();
      exchanges.push({ label: `${at} held`, request: step.held, answer: await held });
      return;
    }
    case "advance":
      session.advance(step.ms);
      return;
  }
};
