/**
 * The key of the case-insensitive title lookup, stored in games.title_key. Computed in one place
 * (never with SQL lower()) so stored keys and looked-up keys agree for every script.
 */
export const titleKey = (title: string): string => title.normalize("NFC").toLowerCase();

/** URL slug of a title: lower-case ASCII words joined by dashes ("Pokémon Red" -> "pokemon-red"). */
export const slugify = (title: string): string =>
  title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
