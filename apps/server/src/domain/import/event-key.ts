import { hash } from "node:crypto";
import type { RedirectRecord, SearchRecord, WatchRecord } from "./parse-line.js";

/**
 * The dedupe key of an event (docs/data-format.md, "Loading the same events twice"): a UUID made of
 * the first 128 bits of a SHA-256, over the line's `event_id` when it has one, else over its stored
 * content. Two lines with one key are one event: the second is a duplicate, however many files apart.
 *
 * The content is written field by field as `<UTF-8 bytes>:<text>` (null as `-`), which no two
 * different field lists share; the migration that added the keys computes the same string in SQL
 * for the events loaded before it (prisma/migrations/*_event_keys). An id is written `#<id>`, so it
 * never meets a content string (they start with a digit or `-`).
 */
const field = (value: string | number | null): string => {
  if (value === null) return "-";
  const text = typeof value === "number" ? String(value) : value;
  return `${Buffer.byteLength(text)}:${text}`;
};

/** `field` of a text known to be ASCII (numbers, instants, enum values): its length is its size. */
const asciiField = (value: string | number | null): string => {
  if (value === null) return "-";
  const text = typeof value === "number" ? String(value) : value;
  return `${text.length}:${text}`;
};

/** A UUID as its 32 hex digits (PostgreSQL reads them without dashes too). */
const asUuid = (text: string): string => hash("sha256", text, "hex").slice(0, 32);

/** What the key is computed over: the line's own id, or the fields that make the event what it is. */
export const eventKeySource = (record: RedirectRecord | WatchRecord | SearchRecord): string => {
  if (record.eventId !== null) return `#${record.eventId}`;
  switch (record.type) {
    case "redirect":
      return (
        asciiField(record.gameId) +
        field(record.userId) +
        asciiField(record.occurredAt) +
        asciiField(record.condition) +
        asciiField(record.device)
      );
    case "watch":
      // Not removed_at: a later export of the same alert, now removed, is the same alert in a later
      // state (the importer records its removal), not a second alert.
      return (
        asciiField(record.gameId) +
        field(record.userId) +
        asciiField(record.createdAt) +
        asciiField(record.condition)
      );
    case "search":
      return (
        field(record.rawQuery) +
        field(record.userId) +
        asciiField(record.occurredAt) +
        asciiField(record.source) +
        asciiField(record.device) +
        asciiField(record.resultCount) +
        asciiField(record.condition) +
        asciiField(record.gameId) +
        asciiField(record.consoleId)
      );
  }
};

export const eventKey = (record: RedirectRecord | WatchRecord | SearchRecord): string =>
  asUuid(eventKeySource(record));
