import { ALLOWED } from "./allowed.js";
import { compareAnswers } from "./compare.js";
import { startMockSide } from "./mock-side.js";
import { runScenario } from "./run.js";
import type { Scenario } from "./scenario.js";
import { scenarios } from "./scenarios/index.js";
import { startServerSide } from "./server-side.js";

/**
 * `pnpm test:parity`: every scenario against the real server, then against the mock, compared
 * answer by answer. One line per difference; the last line `parity: N scenarios, M differences`;
 * exit 1 when M > 0 (docs/internals/parity.md).
 */
const show = (value: unknown) => {
  const text = value === undefined ? "(absent)" : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
};

const main = async () => {
  const list: Scenario[] = scenarios();
  const only = process.env.PARITY_ONLY;
  const chosen = only ? list.filter((s) => s.name.includes(only)) : list;
  const names = new Set<string>();
  for (const s of list) {
    if (names.has(s.name)) throw new Error(`two scenarios named ${s.name}`);
    names.add(s.name);
  }
  const server = await startServerSide();
  // PARITY_SELF=1: the server against a second server, the same way (the suite's own determinism check).
  const mock = process.env.PARITY_SELF ? await startServerSide() : await startMockSide();
  console.log(`parity: ${chosen.length} scenarios; allowed differences, by name:`);
  for (const a of ALLOWED) console.log(`  allowed: ${a.field}: ${a.why} (compared instead: ${a.instead})`);
  let differences = 0;
  try {
    for (const scenario of chosen) {
      const keys = scenario.keys ?? { main: {} };
      const onServer = await server.open(keys);
      const onMock = await mock.open(keys, onServer);
      const s = await runScenario(scenario, onServer);
      const m = await runScenario(scenario, onMock);
      await onServer.end();
      await onMock.end();
      const lines: string[] = [];
      for (const check of s.checks) lines.push(`${check.label}: server: ${check.problem}`);
      for (const check of m.checks) lines.push(`${check.label}: mock: ${check.problem}`);
      const count = Math.max(s.exchanges.length, m.exchanges.length);
      for (let i = 0; i < count; i++) {
        const se = s.exchanges[i];
        const me = m.exchanges[i];
        if (!se || !me) {
          lines.push(`${(se ?? me)?.label}: answered on the ${se ? "server" : "mock"} only`);
          continue;
        }
        const cors = se.request.headers?.origin !== undefined;
        for (const d of compareAnswers(se.answer, me.answer, { cors })) {
          lines.push(
            `${se.label} ${se.request.method ?? (se.request.body ? "POST" : "GET")} ${se.request.path}: ${d.field}: server ${show(d.server)}, mock ${show(d.mock)}`,
          );
        }
      }
      differences += lines.length;
      for (const line of lines) console.log(`DIFF [${scenario.name}] ${line}`);
    }
  } finally {
    await mock.close();
    await server.close();
  }
  console.log(`parity: ${chosen.length} scenarios, ${differences} differences`);
  process.exitCode = differences > 0 ? 1 : 0;
};

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 2;
});
