/**
 * The bench's input: the demo marketplace (its catalog, ~2,000 games, then `events` events over 90
 * days) written as NDJSON, streamed to the file so 10M events never sit in memory.
 */

import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { generateDemo } from "../src/demo/generate.js";
import type { IsoDay } from "../src/domain/analytics/windows.js";

export const writeDemoFile = async (file: string, events: number, endDate: IsoDay): Promise<number> => {
  const out = createWriteStream(file);
  let block = "";
  let lines = 0;
  for (const record of generateDemo({ endDate, seed: 7, scale: events })) {
    block += `${JSON.stringify(record)}\n`;
    lines += 1;
    if (block.length >= 1 << 20) {
      if (!out.write(block)) await once(out, "drain");
      block = "";
    }
  }
  out.end(block);
  await once(out, "finish");
  return lines;
};
