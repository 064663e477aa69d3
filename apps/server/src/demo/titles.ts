import type { Rng } from "./prng.js";
import { drawWeighted, intBetween, pick } from "./prng.js";

/**
 * Word stock for the library's long tail: the way retro titles were actually named (a strong word
 * and a noun, "X of Y", numbered sequels, licensed sports with a vintage, mascot adventures).
 */
const ADJECTIVES = [
  "Super",
  "Mega",
  "Ultra",
  "Hyper",
  "Dark",
  "Crystal",
  "Golden",
  "Shadow",
  "Iron",
  "Neon",
  "Cosmic",
  "Savage",
  "Silent",
  "Burning",
  "Wild",
  "Thunder",
  "Star",
  "Night",
  "Steel",
  "Mystic",
  "Turbo",
  "Final",
  "Lost",
  "Eternal",
  "Blazing",
  "Phantom",
  "Crimson",
  "Galactic",
  "Secret",
  "Ancient",
  "Rogue",
  "Atomic",
  "Sonic",
  "Lunar",
  "Frozen",
];
const NOUNS = [
  "Blaster",
  "Knight",
  "Quest",
  "Fighter",
  "Warrior",
  "Legend",
  "Force",
  "Hunter",
  "Squadron",
  "Racer",
  "Ninja",
  "Dragon",
  "Striker",
  "Commando",
  "Kingdom",
  "Saga",
  "Odyssey",
  "Chronicles",
  "Tactics",
  "Assault",
  "Gladiator",
  "Raider",
  "Wings",
  "Labyrinth",
  "Sorcerer",
  "Titan",
  "Crusade",
  "Fortress",
  "Paladin",
  "Storm",
  "Runner",
  "Guardian",
  "Vanguard",
  "Empire",
  "Outlaw",
  "Pilot",
  "Phoenix",
  "Samurai",
  "Rebellion",
  "Dungeon",
];
const PLACES = [
  "Atlantis",
  "the Void",
  "Mars",
  "Avalon",
  "Eldoria",
  "Neo Tokyo",
  "the Abyss",
  "Zanac",
  "Valhalla",
  "the Deep",
  "Shadow Keep",
  "the Lost Isles",
  "Doom Valley",
  "the Ancients",
  "Dragon Peak",
  "Hydra Bay",
  "the Moon",
  "Xanadu",
];
const SUBTITLES = [
  "The Lost Relic",
  "Return of the King",
  "Revenge of the Clones",
  "Dawn of Steel",
  "The Final Chapter",
  "Beyond the Stars",
  "Rise of the Machines",
  "The Cursed Crown",
  "Legacy",
  "Resurrection",
  "Gaiden",
  "Origins",
];
const SPORTS = [
  "Baseball",
  "Hockey",
  "Golf",
  "Tennis",
  "Soccer",
  "Basketball",
  "Football",
  "Boxing",
  "Wrestling",
  "Bowling",
];
const SPORT_BRANDS = [
  "World Series",
  "Pro",
  "All-Star",
  "Championship",
  "International",
  "Ultimate",
  "Extreme",
  "Super",
];
const MASCOTS = [
  "Zool",
  "Rex",
  "Kiki",
  "Puggsy",
  "Chuck",
  "Bubsy",
  "Tiki",
  "Gex",
  "Jojo",
  "Pip",
  "Milo",
  "Sparky",
  "Rolo",
  "Yumi",
];
const MASCOT_ENDINGS = [
  "Adventure",
  "Big Adventure",
  "Island",
  "Quest",
  "Racing",
  "Party",
  "Dream Land",
  "World",
  "Rescue",
];
const NUMERALS = ["II", "III", "IV", "2", "3", "X", "Zero", "64", "Plus", "Deluxe"];

type Pattern = (rng: Rng, years: readonly [number, number]) => string;

const PATTERNS: readonly (readonly [Pattern, number])[] = [
  [(rng) => `${pick(rng, ADJECTIVES)} ${pick(rng, NOUNS)}`, 5],
  [(rng) => `${pick(rng, NOUNS)} of ${pick(rng, PLACES)}`, 3],
  [(rng) => `${pick(rng, ADJECTIVES)} ${pick(rng, NOUNS)} ${pick(rng, NUMERALS)}`, 3],
  [(rng) => `${pick(rng, NOUNS)}: ${pick(rng, SUBTITLES)}`, 2],
  [
    (rng, [from, to]) => {
      const year = intBetween(rng, from, to);
      return `${pick(rng, SPORT_BRANDS)} ${pick(rng, SPORTS)} '${String(year % 100).padStart(2, "0")}`;
    },
    2,
  ],
  [
    (rng) => {
      const mascot = pick(rng, MASCOTS);
      return rng() < 0.5
        ? `${mascot}'s ${pick(rng, MASCOT_ENDINGS)}`
        : `${mascot} ${pick(rng, MASCOT_ENDINGS)}`;
    },
    2,
  ],
  [(rng) => `${pick(rng, ADJECTIVES)} ${pick(rng, ADJECTIVES)} ${pick(rng, NOUNS)}`, 1],
];

/** One long-tail title in the style of a console's era. */
export const generateTitle = (rng: Rng, years: readonly [number, number]): string =>
  drawWeighted(rng, PATTERNS)(rng, years);

/** The marketplace slug of a title: lower-case ASCII words joined by single hyphens. */
export const slugify = (title: string): string =>
  title
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/['\u2019]/g, "")
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
