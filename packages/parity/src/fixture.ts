/**
 * The suite's marketplace, as the NDJSON `gmi import` reads (docs/data-format.md): small enough to
 * import and roll up in seconds, shaped to reach every rule the scenarios walk: more titles than a
 * Free page, the same title on two consoles, a disabled game, a game without prices, a console
 * without games, queries without results, queries without a 30-day baseline, 42 days of events so
 * 30-day momentum has its baseline.
 */

/** The last day with events, the newest rolled-up date, and the dates rolled up (oldest first). */
export const LATEST_DATE = "2026-11-20";
export const ROLLED_UP_DATES = ["2026-11-18", "2026-11-19", "2026-11-20"] as const;
/** Both sides' clock, frozen: the day after the latest date, 30.5 s into its minute. */
export const NOW = Date.parse("2026-11-21T12:00:30.500Z");
const FIRST_DAY = "2026-10-10";

/** Ids the scenarios name. */
export const IDS = {
  /** Enabled, priced, with the most demand. */
  game: 101,
  /** Same title as 101, on the other console. */
  twin: 102,
  /** Enabled, no prices at all. */
  unpriced: 104,
  /** Disabled: in no answer (404 where looked up). */
  disabled: 106,
  /** Enabled, never clicked, watched or searched. */
  quiet: 107,
  /** No such game. */
  missing: 999_999,
  consoleA: 1,
  consoleB: 2,
  emptyConsole: 3,
  missingConsole: 77,
} as const;

/** mulberry32: small, seedable; the same lines on every run. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const DAY_MS = 86_400_000;
const dayAt = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const slugify = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

type Game = { id: number; console: number; name: string; prices: [string, string, string | null] | null };

const WORDS = ["Apple", "Banana", "Cherry", "Delta", "Echo", "Falcon", "Galaxy", "Harbor", "Iron", "Jade"];
const GAMES: Game[] = [
  { id: 101, console: 1, name: "Chrono Trigger", prices: ["149.99", "289.00", "999.50"] },
  { id: 102, console: 2, name: "Chrono Trigger", prices: ["120.00", "250.00", "800.00"] },
  { id: 103, console: 1, name: "Apple Quest", prices: ["5.00", "10.00", "20.00"] },
  { id: 104, console: 1, name: "Zebra Racer", prices: null },
  { id: 105, console: 2, name: "Mango Mania", prices: ["7.25", "12.50", null] },
  { id: 106, console: 1, name: "Hidden Gem", prices: ["1.00", "2.00", "3.00"] },
  { id: 107, console: 2, name: "Quiet Corner", prices: ["3.10", "6.20", "12.40"] },
  // Filler: enough titles for several pages on every plan's cap at small limits.
  ...Array.from({ length: 38 }, (_, i) => {
    const cents = 150 + i * 137;
    const price = (c: number) => (c / 100).toFixed(2);
    return {
      id: 200 + i,
      console: 1 + (i % 2),
      name: `${WORDS[i % WORDS.length]} Legend ${String(i).padStart(2, "0")}`,
      prices: [price(cents), price(cents * 2), i % 3 === 0 ? null : price(cents * 4)] as [
        string,
        string,
        string | null,
      ],
    };
  }),
];

const QUERIES = [
  ...GAMES.filter((g) => g.id !== 106 && g.id !== 107)
    .slice(0, 18)
    .map((g) => ({ text: g.name.toLowerCase(), game: g.id, zero: false })),
  { text: "earthbound cartridge", game: null, zero: true },
  { text: "mother 3 english", game: null, zero: true },
  { text: "virtual boy red alarm", game: null, zero: true },
  { text: "chrono trigger snes cib", game: 101, zero: false },
];

/** The catalog and 42 days of events, one JSON object per line. */
export const fixtureLines = (): string[] => {
  const next = random(29);
  const lines: object[] = [
    { type: "console", id: 1, name: "Alpha Console", slug: "alpha-console" },
    { type: "console", id: 2, name: "Beta Console", slug: "beta-console" },
    { type: "console", id: 3, name: "Empty Console", slug: "empty-console" },
  ];
  for (const g of GAMES) {
    lines.push({
      type: "game",
      id: g.id,
      console_id: g.console,
      display_game_name: g.name,
      marketplace_game_name: slugify(g.name),
      enabled: g.id !== IDS.disabled,
      ...(g.prices
        ? { prices: { loose: g.prices[0], complete: g.prices[1], new: g.prices[2] } }
        : { prices: { loose: null, complete: null, new: null } }),
      observed_at: `${FIRST_DAY}T00:00:00Z`,
    });
  }
  const conditions = ["loose", "cib", "new", null] as const;
  const clicked = GAMES.filter((g) => g.id !== IDS.quiet);
  const first = dayNumber(FIRST_DAY);
  const last = dayNumber(LATEST_DATE);
  let event = 0;
  for (let day = first; day <= last; day++) {
    const date = dayAt(day);
    const at = (hour: number) =>
      `${date}T${String(hour).padStart(2, "0")}:${String(event % 60).padStart(2, "0")}:00Z`;
    // Some games only in the last week (rising), some only before it (cooling).
    const recent = last - day < 7;
    for (const [i, g] of clicked.entries()) {
      const weight = g.id === IDS.game ? 0.9 : (i % 5 === 0) === recent ? 0.5 : 0.12;
      if (next() > weight) continue;
      const clicks = 1 + Math.floor(next() * (g.id === IDS.game ? 4 : 2));
      for (let c = 0; c < clicks; c++) {
        event += 1;
        lines.push({
          type: "redirect",
          event_id: `r${event}`,
          game_id: g.id,
          user_id: `u${Math.floor(next() * 40)}`,
          occurred_at: at(8 + (c % 12)),
          condition: conditions[Math.floor(next() * 4)],
          device: next() < 0.4 ? "mobile" : "desktop",
        });
      }
    }
    for (const [i, q] of QUERIES.entries()) {
      // The zero-result queries start late: no 30-day baseline for two of them.
      if (q.zero && i % 2 === 0 && !recent) continue;
      if (next() > (q.zero ? 0.6 : 0.45)) continue;
      const count = 1 + Math.floor(next() * 3);
      for (let c = 0; c < count; c++) {
        event += 1;
        lines.push({
          type: "search",
          event_id: `s${event}`,
          query: q.text,
          user_id: `u${Math.floor(next() * 40)}`,
          occurred_at: at(10 + (c % 10)),
          source: next() < 0.5 ? "pricing" : "site",
          device: next() < 0.5 ? "mobile" : "desktop",
          result_count: q.zero ? 0 : Math.floor(next() * 30),
          condition: [...conditions, "any"][Math.floor(next() * 5)] ?? null,
          game_id: q.game,
          console_id: null,
        });
      }
    }
    if (day % 4 === 0) {
      const g = clicked[Math.floor(next() * clicked.length)] as Game;
      event += 1;
      lines.push({
        type: "watch",
        event_id: `w${event}`,
        game_id: g.id,
        user_id: `w${Math.floor(next() * 20)}`,
        created_at: at(7),
        removed_at: next() < 0.3 && day + 2 <= last ? `${dayAt(day + 2)}T07:00:00Z` : null,
        condition: conditions[Math.floor(next() * 4)],
      });
    }
  }
  return lines.map((line) => JSON.stringify(line));
};
