import type { ConsoleLine, GameLine } from "../domain/import/parse-line.js";
import type { ConsoleSpec } from "./consoles.js";
import { CONSOLES, famousTitles } from "./consoles.js";
import type { Rng } from "./prng.js";
import { logNormal, substream, zipfWeight } from "./prng.js";
import { generateTitle, slugify } from "./titles.js";

export type Trend = "rising" | "cooling" | "flat";

/** A catalog game plus what the event generator needs to know about it. */
export type DemoGame = {
  line: GameLine & { prices: { loose: string | null; complete: string | null; new: string | null } };
  spec: ConsoleSpec;
  famous: boolean;
  /** Share of demand before trends and rhythm (Zipf over a popularity rank). */
  weight: number;
  trend: Trend;
};

export type DemoCatalog = { consoles: ConsoleLine[]; games: DemoGame[] };

/** Shop-style prices: under $20 end in .99, above that whole dollars (or .99 now and then). */
const shopPrice = (rng: Rng, value: number): string => {
  const dollars = Math.max(1, Math.round(value));
  return value < 20 || rng() < 0.3 ? `${Math.max(0, dollars - 1)}.99` : `${dollars}.00`;
};

/** `position`: order in the console's famous list (the best-known first); -1 for the long tail. */
type Draft = {
  title: string;
  slug: string;
  spec: ConsoleSpec;
  famous: boolean;
  position: number;
  loose: number;
};

const drafts = (rng: Rng): Draft[] =>
  CONSOLES.flatMap((spec) => {
    const slugs = new Set<string>();
    const list: Draft[] = [];
    const add = (title: string, position: number, loose: number) => {
      const slug = slugify(title);
      if (slug === "" || slugs.has(slug)) return false;
      slugs.add(slug);
      list.push({ title, slug, spec, famous: position >= 0, position, loose });
      return true;
    };
    famousTitles(spec).forEach(([title, loose], position) => {
      add(title, position, loose);
    });
    let made = 0;
    for (let attempt = 0; made < spec.library && attempt < spec.library * 50; attempt += 1) {
      // Long-tail prices spread wide around the console's median; 3% are sought-after rarities.
      const rarity = rng() < 0.03 ? 6 + rng() * 20 : 1;
      if (add(generateTitle(rng, spec.years), -1, spec.loose * logNormal(rng, 0.6) * rarity)) made += 1;
    }
    return list;
  });

const pricesOf = (rng: Rng, draft: Draft): DemoGame["line"]["prices"] => {
  // Long-tail only: 3% never priced, 7% without a complete price; sealed copies trade for a minority.
  const unpriced = !draft.famous && rng() < 0.03;
  if (unpriced) return { loose: null, complete: null, new: null };
  const noComplete = !draft.famous && rng() < 0.07;
  const hasSealed = rng() < (draft.famous ? 0.55 : 0.3);
  return {
    loose: shopPrice(rng, draft.loose),
    complete: noComplete ? null : shopPrice(rng, draft.loose * draft.spec.cib * logNormal(rng, 0.2)),
    new: hasSealed ? shopPrice(rng, draft.loose * draft.spec.sealed * logNormal(rng, 0.3)) : null,
  };
};

/**
 * The demo marketplace's catalog: 22 consoles, their famous titles and a generated long tail (about
 * 1,900 games). Popularity follows a Zipf curve over a rank that favours famous titles and large
 * libraries; about one game in ten among the popular ones is rising, one in ten cooling.
 */
export const generateCatalog = (seed: number): DemoCatalog => {
  const rng = substream(seed, "catalog");
  const consoles: ConsoleLine[] = CONSOLES.map((c) => ({
    type: "console",
    id: c.id,
    name: c.name,
    slug: c.slug,
  }));
  const all = drafts(rng);
  // The best-known titles of the big consoles lead; the long tail trails with a wide spread.
  const fame = all.map(
    (d) =>
      (d.famous ? 24 / (1 + 0.25 * d.position) : 1) *
      Math.sqrt(d.spec.library + 20) *
      logNormal(rng, d.famous ? 0.35 : 0.6),
  );
  const rankOf = new Map<number, number>();
  all
    .map((_, index) => index)
    .sort((a, b) => (fame[b] ?? 0) - (fame[a] ?? 0) || a - b)
    .forEach((index, rank) => {
      rankOf.set(index, rank);
    });
  const games = all.map((draft, index): DemoGame => {
    const rank = rankOf.get(index) ?? index;
    const trendRoll = rng();
    const trendShare = rank < 400 ? 0.1 : 0.05;
    const trend: Trend = trendRoll < trendShare ? "rising" : trendRoll < 2 * trendShare ? "cooling" : "flat";
    return {
      line: {
        type: "game",
        id: index + 1,
        console_id: draft.spec.id,
        display_game_name: draft.title,
        marketplace_game_name: draft.slug,
        enabled: draft.famous || rng() >= 0.02,
        prices: pricesOf(rng, draft),
      },
      spec: draft.spec,
      famous: draft.famous,
      weight: zipfWeight(rank),
      trend,
    };
  });
  return { consoles, games };
};
