-- CreateTable
CREATE TABLE "redirect_day_cells" (
    "day" DATE NOT NULL,
    "game_id" INTEGER NOT NULL,
    "gap" SMALLINT NOT NULL,
    "users" INTEGER NOT NULL,
    "redirects" INTEGER NOT NULL,
    "loose" INTEGER NOT NULL,
    "cib" INTEGER NOT NULL,
    "sealed" INTEGER NOT NULL,

    CONSTRAINT "redirect_day_cells_pkey" PRIMARY KEY ("day","game_id","gap")
);

-- CreateTable
CREATE TABLE "search_day_cells" (
    "day" DATE NOT NULL,
    "scope_console_id" INTEGER NOT NULL,
    "query" TEXT NOT NULL,
    "gap" SMALLINT NOT NULL,
    "users" INTEGER NOT NULL,
    "searches" INTEGER NOT NULL,
    "pricing" INTEGER NOT NULL,
    "mobile" INTEGER NOT NULL,
    "result_sum" BIGINT NOT NULL,
    "zero_results" INTEGER NOT NULL,

    CONSTRAINT "search_day_cells_pkey" PRIMARY KEY ("day","scope_console_id","query","gap")
);

-- CreateTable
CREATE TABLE "search_condition_day_cells" (
    "day" DATE NOT NULL,
    "game_id" INTEGER NOT NULL,
    "condition" TEXT NOT NULL,
    "gap" SMALLINT NOT NULL,
    "users" INTEGER NOT NULL,
    "searches" INTEGER NOT NULL,
    "mobile" INTEGER NOT NULL,

    CONSTRAINT "search_condition_day_cells_pkey" PRIMARY KEY ("day","game_id","condition","gap")
);

-- CreateTable
CREATE TABLE "watch_day_cells" (
    "day" DATE NOT NULL,
    "game_id" INTEGER NOT NULL,
    "condition" TEXT NOT NULL,
    "created" INTEGER NOT NULL,
    "removed" INTEGER NOT NULL,

    CONSTRAINT "watch_day_cells_pkey" PRIMARY KEY ("day","game_id","condition")
);

-- CreateTable
CREATE TABLE "event_cell_dirty" (
    "id" BIGSERIAL NOT NULL,
    "family" TEXT NOT NULL,
    "day" DATE,

    CONSTRAINT "event_cell_dirty_pkey" PRIMARY KEY ("id")
);

-- Triggers (not expressible in schema.prisma). The migration runner splits this file on every
-- semicolon, dollar quotes included: function bodies are E'' strings with \073 for the semicolon.
-- Triggers: whatever writes events (the importer, a test, an
-- operator's SQL), the days it changes are marked stale, so the cells can never silently disagree
-- with the events. Statement-level with transition tables: one INSERT per COPY batch, not per row.
CREATE FUNCTION "mark_event_days"() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN INSERT INTO "event_cell_dirty" ("family", "day") SELECT DISTINCT TG_ARGV[0], "day" FROM "changed"\073 RETURN NULL\073 END';

-- An alert counts on the UTC day it was created and on the one it was removed.
CREATE FUNCTION "mark_watch_days"() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN INSERT INTO "event_cell_dirty" ("family", "day") SELECT DISTINCT ''watch'', d FROM "changed", LATERAL (VALUES (("created_at" AT TIME ZONE ''UTC'')::date), (("removed_at" AT TIME ZONE ''UTC'')::date)) AS v(d) WHERE d IS NOT NULL\073 RETURN NULL\073 END';

-- A search's console scope falls back to its game's console: a new game, or a game moved to
-- another console, can move searches between scopes, so every search day is rebuilt.
CREATE FUNCTION "mark_search_scopes"() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN IF TG_OP = ''INSERT'' THEN IF EXISTS (SELECT 1 FROM "new_games") THEN INSERT INTO "event_cell_dirty" ("family", "day") VALUES (''search'', NULL)\073 END IF\073 ELSIF EXISTS ( SELECT 1 FROM "old_games" o JOIN "new_games" n ON n."id" = o."id" WHERE n."console_id" IS DISTINCT FROM o."console_id" ) THEN INSERT INTO "event_cell_dirty" ("family", "day") VALUES (''search'', NULL)\073 END IF\073 RETURN NULL\073 END';

CREATE TRIGGER "redirect_events_insert_cells" AFTER INSERT ON "redirect_events"
  REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "mark_event_days"('redirect');
CREATE TRIGGER "redirect_events_delete_cells" AFTER DELETE ON "redirect_events"
  REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "mark_event_days"('redirect');
CREATE TRIGGER "redirect_events_update_old_cells" AFTER UPDATE ON "redirect_events"
  REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "mark_event_days"('redirect');
CREATE TRIGGER "redirect_events_update_new_cells" AFTER UPDATE ON "redirect_events"
  REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "mark_event_days"('redirect');

CREATE TRIGGER "search_events_insert_cells" AFTER INSERT ON "search_events"
  REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "mark_event_days"('search');
CREATE TRIGGER "search_events_delete_cells" AFTER DELETE ON "search_events"
  REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "mark_event_days"('search');
CREATE TRIGGER "search_events_update_old_cells" AFTER UPDATE ON "search_events"
  REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "mark_event_days"('search');
CREATE TRIGGER "search_events_update_new_cells" AFTER UPDATE ON "search_events"
  REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "mark_event_days"('search');

CREATE TRIGGER "watch_events_insert_cells" AFTER INSERT ON "watch_events"
  REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "mark_watch_days"();
CREATE TRIGGER "watch_events_delete_cells" AFTER DELETE ON "watch_events"
  REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "mark_watch_days"();
CREATE TRIGGER "watch_events_update_old_cells" AFTER UPDATE ON "watch_events"
  REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "mark_watch_days"();
CREATE TRIGGER "watch_events_update_new_cells" AFTER UPDATE ON "watch_events"
  REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "mark_watch_days"();

CREATE TRIGGER "games_insert_cells" AFTER INSERT ON "games"
  REFERENCING NEW TABLE AS "new_games" FOR EACH STATEMENT EXECUTE FUNCTION "mark_search_scopes"();
CREATE TRIGGER "games_update_cells" AFTER UPDATE ON "games"
  REFERENCING OLD TABLE AS "old_games" NEW TABLE AS "new_games" FOR EACH STATEMENT EXECUTE FUNCTION "mark_search_scopes"();

-- Events loaded before this migration: every day is stale until the first rebuild.
INSERT INTO "event_cell_dirty" ("family", "day") VALUES ('redirect', NULL), ('search', NULL), ('watch', NULL);
