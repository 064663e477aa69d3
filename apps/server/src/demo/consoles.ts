import { FAMOUS_TITLES } from "./famous-titles.js";

/**
 * The demo's consoles: real systems and the price profile of their library (famous titles, with
 * their own prices, are in famous-titles.ts).
 */
export type ConsoleSpec = {
  id: number;
  name: string;
  slug: string;
  /** How buyers write the console in a search box. */
  aliases: readonly string[];
  /** Generated (non-famous) titles to add to the library. */
  library: number;
  /** Release years of the library, for sports-title vintages. */
  years: readonly [number, number];
  /** Median loose price of an ordinary title, US dollars. */
  loose: number;
  /** Complete-in-box and sealed prices as multiples of loose (boxes and seals rarely survive on carts). */
  cib: number;
  sealed: number;
};

type Row = [number, string, string, string[], number, [number, number], number, number, number];

// id, name, slug, search aliases, generated titles, years, loose median, cib ×, sealed ×
const ROWS: Row[] = [
  [1, "NES", "nes", ["nes", "nintendo"], 110, [1985, 1994], 12, 3.2, 9],
  [2, "Super Nintendo", "snes", ["snes", "super nintendo", "super nes"], 120, [1991, 1998], 18, 3, 8],
  [3, "Nintendo 64", "n64", ["n64", "nintendo 64"], 90, [1996, 2002], 15, 3.5, 7],
  [4, "GameCube", "gamecube", ["gamecube", "gcn", "ngc"], 95, [2001, 2007], 14, 1.6, 3.5],
  [5, "Game Boy", "gameboy", ["gameboy", "game boy", "gb"], 85, [1989, 1998], 10, 4, 10],
  [6, "Game Boy Color", "gbc", ["gbc", "game boy color", "gameboy color"], 70, [1998, 2003], 12, 3.5, 8],
  [7, "Game Boy Advance", "gba", ["gba", "game boy advance"], 100, [2001, 2008], 12, 3, 6],
  [8, "Nintendo DS", "nds", ["ds", "nds", "nintendo ds"], 100, [2004, 2013], 10, 1.6, 3],
  [9, "Virtual Boy", "virtual-boy", ["virtual boy", "vb"], 0, [1995, 1996], 30, 3, 6],
  [
    10,
    "Sega Master System",
    "master-system",
    ["master system", "sms", "sega master system"],
    45,
    [1986, 1991],
    15,
    1.8,
    6,
  ],
  [
    11,
    "Sega Genesis",
    "genesis",
    ["genesis", "sega genesis", "mega drive", "megadrive"],
    115,
    [1989, 1997],
    12,
    1.8,
    6,
  ],
  [12, "Sega CD", "sega-cd", ["sega cd", "mega cd"], 30, [1992, 1996], 25, 1.4, 3],
  [13, "Sega Saturn", "saturn", ["saturn", "sega saturn"], 60, [1995, 1999], 30, 1.3, 3],
  [14, "Sega Dreamcast", "dreamcast", ["dreamcast", "dc"], 65, [1999, 2002], 15, 1.4, 3],
  [15, "Game Gear", "game-gear", ["game gear", "gg"], 45, [1991, 1997], 8, 3, 8],
  [16, "PlayStation", "ps1", ["ps1", "psx", "playstation"], 130, [1995, 2004], 10, 1.7, 4],
  [17, "PlayStation 2", "ps2", ["ps2", "playstation 2"], 130, [2000, 2012], 8, 1.6, 3],
  [18, "PSP", "psp", ["psp"], 55, [2005, 2014], 10, 1.5, 3],
  [19, "Atari 2600", "atari-2600", ["atari", "atari 2600", "2600"], 60, [1977, 1989], 5, 4, 10],
  [
    20,
    "TurboGrafx-16",
    "turbografx-16",
    ["turbografx", "turbografx 16", "tg16", "pc engine"],
    35,
    [1989, 1994],
    30,
    1.8,
    4,
  ],
  [21, "Neo Geo AES", "neo-geo-aes", ["neo geo", "neogeo", "aes"], 25, [1990, 2004], 180, 1.5, 2.5],
  [22, "Xbox", "xbox", ["xbox", "original xbox"], 80, [2001, 2008], 8, 1.5, 3],
];

export const CONSOLES: readonly ConsoleSpec[] = ROWS.map(
  ([id, name, slug, aliases, library, years, loose, cib, sealed]) => ({
    id,
    name,
    slug,
    aliases,
    library,
    years,
    loose,
    cib,
    sealed,
  }),
);

/** Famous titles of a console as [title, loose price] pairs. */
export const famousTitles = (spec: ConsoleSpec): [string, number][] =>
  (FAMOUS_TITLES[spec.slug] ?? "")
    .split(";")
    .map((entry) => entry.trim().replace(/\s+/g, " "))
    .filter((entry) => entry !== "")
    .map((entry) => {
      const cut = entry.lastIndexOf(" ");
      return [entry.slice(0, cut), Number(entry.slice(cut + 1))];
    });

/**
 * Titles buyers look for that the catalog does not have (never released in the region, or only
 * imagined): the source of zero-result searches that the unmet ranking is for.
 */
export const ABSENT_TITLES: readonly string[] = [
  "Mother 3 GBA",
  "Radiant Silvergun Saturn",
  "Castlevania Rondo of Blood",
  "Terranigma SNES",
  "Seiken Densetsu 3",
  "Policenauts",
  "Bahamut Lagoon",
  "Sin and Punishment N64",
  "Earthbound 64",
  "Half-Life Dreamcast",
  "Star Ocean SNES",
  "Tales of Phantasia SNES",
  "Dragon Quest V SNES",
  "Front Mission SNES",
  "Super Famicom Wars",
  "Zelda Ocarina of Time Master Quest N64",
  "Pokemon Stadium 3",
  "Mario Kart 64 Special Edition",
  "Metroid Dread GBA",
  "Shenmue 2 Dreamcast US",
  "Snatcher PS1 English",
  "Fire Emblem Thracia 776",
  "Mega Man X Dive",
  "Sonic Xtreme",
];
