import { declareTable } from "./table.js";

/** The event tables the importer loads (jobs/import.ts, data/import-events.ts). */

export const REDIRECT_EVENTS = declareTable({
  name: "redirect_events",
  columns: [
    { name: "id", type: "int8", generated: true },
    { name: "game_id", type: "int4" },
    { name: "user_id", type: "text" },
    { name: "occurred_at", type: "timestamptz" },
    { name: "day", type: "date" },
    { name: "condition", type: "text", nullable: true },
    { name: "device", type: "text", nullable: true },
    { name: "event_key", type: "uuid" },
  ],
});

export const WATCH_EVENTS = declareTable({
  name: "watch_events",
  columns: [
    { name: "id", type: "int8", generated: true },
    { name: "game_id", type: "int4" },
    { name: "user_id", type: "text" },
    { name: "created_at", type: "timestamptz" },
    { name: "removed_at", type: "timestamptz", nullable: true },
    { name: "condition", type: "text", nullable: true },
    { name: "event_key", type: "uuid" },
  ],
});

export const SEARCH_EVENTS = declareTable({
  name: "search_events",
  columns: [
    { name: "id", type: "int8", generated: true },
    { name: "raw_query", type: "text" },
    { name: "query", type: "text" },
    { name: "user_id", type: "text" },
    { name: "occurred_at", type: "timestamptz" },
    { name: "day", type: "date" },
    { name: "source", type: "text" },
    { name: "device", type: "text" },
    { name: "result_count", type: "int4" },
    { name: "condition", type: "text", nullable: true },
    { name: "game_id", type: "int4", nullable: true },
    { name: "console_id", type: "int4", nullable: true },
    { name: "event_key", type: "uuid" },
  ],
});

export const EVENT_TABLES = [REDIRECT_EVENTS, WATCH_EVENTS, SEARCH_EVENTS] as const;
