-- Every event gets the import's dedupe key (docs/data-format.md, "Loading the same events twice").
-- Events loaded before this migration get their content key, computed here exactly as the importer
-- computes it (domain/import/event-key.ts: each stored field as "<UTF-8 bytes>:<text>", null as "-",
-- instants as ISO UTC with milliseconds, the first 128 bits of its SHA-256). Copies already loaded
-- twice are kept, not deleted (a migration cannot tell which were real): each later copy is keyed by
-- its row id, and a later import of the same line is a duplicate of the first copy.

-- AlterTable
ALTER TABLE "redirect_events" ADD COLUMN "event_key" UUID;
UPDATE "redirect_events" SET "event_key" = substr(encode(sha256(convert_to(CASE WHEN "game_id"::text IS NULL THEN '-' ELSE octet_length("game_id"::text)::text || ':' || "game_id"::text END || CASE WHEN "user_id" IS NULL THEN '-' ELSE octet_length("user_id")::text || ':' || "user_id" END || CASE WHEN to_char("occurred_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') IS NULL THEN '-' ELSE octet_length(to_char("occurred_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text || ':' || to_char("occurred_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END || CASE WHEN "condition" IS NULL THEN '-' ELSE octet_length("condition")::text || ':' || "condition" END || CASE WHEN "device" IS NULL THEN '-' ELSE octet_length("device")::text || ':' || "device" END, 'UTF8')), 'hex'), 1, 32)::uuid;
UPDATE "redirect_events" e SET "event_key" = substr(encode(sha256(convert_to('legacy:' || e."id"::text, 'UTF8')), 'hex'), 1, 32)::uuid
FROM (SELECT "id", row_number() OVER (PARTITION BY "event_key" ORDER BY "id") AS n FROM "redirect_events") d
WHERE d."id" = e."id" AND d.n > 1;
ALTER TABLE "redirect_events" ALTER COLUMN "event_key" SET NOT NULL, ALTER COLUMN "event_key" SET DEFAULT gen_random_uuid();

-- CreateIndex
CREATE UNIQUE INDEX "redirect_events_event_key_key" ON "redirect_events"("event_key");

-- AlterTable
ALTER TABLE "watch_events" ADD COLUMN "event_key" UUID;
UPDATE "watch_events" SET "event_key" = substr(encode(sha256(convert_to(CASE WHEN "game_id"::text IS NULL THEN '-' ELSE octet_length("game_id"::text)::text || ':' || "game_id"::text END || CASE WHEN "user_id" IS NULL THEN '-' ELSE octet_length("user_id")::text || ':' || "user_id" END || CASE WHEN to_char("created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') IS NULL THEN '-' ELSE octet_length(to_char("created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text || ':' || to_char("created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END || CASE WHEN "condition" IS NULL THEN '-' ELSE octet_length("condition")::text || ':' || "condition" END, 'UTF8')), 'hex'), 1, 32)::uuid;
UPDATE "watch_events" e SET "event_key" = substr(encode(sha256(convert_to('legacy:' || e."id"::text, 'UTF8')), 'hex'), 1, 32)::uuid
FROM (SELECT "id", row_number() OVER (PARTITION BY "event_key" ORDER BY "id") AS n FROM "watch_events") d
WHERE d."id" = e."id" AND d.n > 1;
ALTER TABLE "watch_events" ALTER COLUMN "event_key" SET NOT NULL, ALTER COLUMN "event_key" SET DEFAULT gen_random_uuid();

-- CreateIndex
CREATE UNIQUE INDEX "watch_events_event_key_key" ON "watch_events"("event_key");

-- AlterTable
ALTER TABLE "search_events" ADD COLUMN "event_key" UUID;
UPDATE "search_events" SET "event_key" = substr(encode(sha256(convert_to(CASE WHEN "raw_query" IS NULL THEN '-' ELSE octet_length("raw_query")::text || ':' || "raw_query" END || CASE WHEN "user_id" IS NULL THEN '-' ELSE octet_length("user_id")::text || ':' || "user_id" END || CASE WHEN to_char("occurred_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') IS NULL THEN '-' ELSE octet_length(to_char("occurred_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text || ':' || to_char("occurred_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END || CASE WHEN "source" IS NULL THEN '-' ELSE octet_length("source")::text || ':' || "source" END || CASE WHEN "device" IS NULL THEN '-' ELSE octet_length("device")::text || ':' || "device" END || CASE WHEN "result_count"::text IS NULL THEN '-' ELSE octet_length("result_count"::text)::text || ':' || "result_count"::text END || CASE WHEN "condition" IS NULL THEN '-' ELSE octet_length("condition")::text || ':' || "condition" END || CASE WHEN "game_id"::text IS NULL THEN '-' ELSE octet_length("game_id"::text)::text || ':' || "game_id"::text END || CASE WHEN "console_id"::text IS NULL THEN '-' ELSE octet_length("console_id"::text)::text || ':' || "console_id"::text END, 'UTF8')), 'hex'), 1, 32)::uuid;
UPDATE "search_events" e SET "event_key" = substr(encode(sha256(convert_to('legacy:' || e."id"::text, 'UTF8')), 'hex'), 1, 32)::uuid
FROM (SELECT "id", row_number() OVER (PARTITION BY "event_key" ORDER BY "id") AS n FROM "search_events") d
WHERE d."id" = e."id" AND d.n > 1;
ALTER TABLE "search_events" ALTER COLUMN "event_key" SET NOT NULL, ALTER COLUMN "event_key" SET DEFAULT gen_random_uuid();

-- CreateIndex
CREATE UNIQUE INDEX "search_events_event_key_key" ON "search_events"("event_key");
