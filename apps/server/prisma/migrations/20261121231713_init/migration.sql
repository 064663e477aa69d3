-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "consoles" (
    "id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,

    CONSTRAINT "consoles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "games" (
    "id" INTEGER NOT NULL,
    "console_id" INTEGER NOT NULL,
    "display_game_name" TEXT NOT NULL,
    "title_key" TEXT NOT NULL,
    "marketplace_game_name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "price_loose" DECIMAL(12,2),
    "price_complete" DECIMAL(12,2),
    "price_new" DECIMAL(12,2),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "games_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plans" (
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "rate_limit_per_minute" INTEGER NOT NULL,
    "rate_limit_per_day" INTEGER NOT NULL,
    "monthly_quota" INTEGER,
    "max_batch_size" INTEGER NOT NULL,
    "max_page_size" INTEGER NOT NULL,
    "overage" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "plans_pkey" PRIMARY KEY ("slug")
);

-- CreateTable
CREATE TABLE "organizations" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "plan_slug" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organizations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_clients" (
    "id" SERIAL NOT NULL,
    "organization_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_clients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" SERIAL NOT NULL,
    "organization_id" INTEGER NOT NULL,
    "client_id" INTEGER,
    "name" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "last_four" TEXT NOT NULL,
    "scopes" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "usage_months" (
    "organization_id" INTEGER NOT NULL,
    "month" TEXT NOT NULL,
    "used" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "usage_months_pkey" PRIMARY KEY ("organization_id","month")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "organization_id" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "lease_until" TIMESTAMPTZ(3),
    "status" INTEGER,
    "headers" JSONB,
    "body" BYTEA,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("organization_id","key")
);

-- CreateTable
CREATE TABLE "redirect_events" (
    "id" BIGSERIAL NOT NULL,
    "game_id" INTEGER NOT NULL,
    "user_id" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "day" DATE NOT NULL,
    "condition" TEXT,
    "device" TEXT,

    CONSTRAINT "redirect_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "watch_events" (
    "id" BIGSERIAL NOT NULL,
    "game_id" INTEGER NOT NULL,
    "user_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "removed_at" TIMESTAMPTZ(3),
    "condition" TEXT,

    CONSTRAINT "watch_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "search_events" (
    "id" BIGSERIAL NOT NULL,
    "raw_query" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "day" DATE NOT NULL,
    "source" TEXT NOT NULL,
    "device" TEXT NOT NULL,
    "result_count" INTEGER NOT NULL,
    "condition" TEXT,
    "game_id" INTEGER,
    "console_id" INTEGER,

    CONSTRAINT "search_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "snapshots" (
    "id" SERIAL NOT NULL,
    "period" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "duration_ms" INTEGER NOT NULL,

    CONSTRAINT "snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "liquidity_snapshot_rows" (
    "snapshot_id" INTEGER NOT NULL,
    "scope_console_id" INTEGER NOT NULL,
    "game_id" INTEGER NOT NULL,
    "redirects" INTEGER NOT NULL,
    "distinct_users" INTEGER NOT NULL,
    "watch_count" INTEGER NOT NULL,
    "search_count" INTEGER NOT NULL,
    "demand_index" DOUBLE PRECISION NOT NULL,
    "momentum_value" DOUBLE PRECISION,
    "momentum_label" TEXT NOT NULL,
    "price_accessibility" DOUBLE PRECISION NOT NULL,
    "liquidity_score" INTEGER NOT NULL,
    "rank_liquidity" INTEGER,
    "rank_demand" INTEGER,
    "rank_value" INTEGER,

    CONSTRAINT "liquidity_snapshot_rows_pkey" PRIMARY KEY ("snapshot_id","scope_console_id","game_id")
);

-- CreateTable
CREATE TABLE "search_snapshot_rows" (
    "snapshot_id" INTEGER NOT NULL,
    "scope_console_id" INTEGER NOT NULL,
    "query" TEXT NOT NULL,
    "search_count" INTEGER NOT NULL,
    "pricing_count" INTEGER NOT NULL,
    "site_search_count" INTEGER NOT NULL,
    "distinct_users" INTEGER NOT NULL,
    "mobile_share" DOUBLE PRECISION NOT NULL,
    "avg_result_count" DOUBLE PRECISION NOT NULL,
    "zero_result_count" INTEGER NOT NULL,
    "zero_result_share" DOUBLE PRECISION NOT NULL,
    "momentum_value" DOUBLE PRECISION,
    "momentum_label" TEXT NOT NULL,
    "demand_score" INTEGER NOT NULL,
    "rank_volume" INTEGER NOT NULL,
    "rank_momentum" INTEGER,
    "rank_unmet" INTEGER,

    CONSTRAINT "search_snapshot_rows_pkey" PRIMARY KEY ("snapshot_id","scope_console_id","query")
);

-- CreateTable
CREATE TABLE "condition_snapshot_rows" (
    "snapshot_id" INTEGER NOT NULL,
    "game_id" INTEGER NOT NULL,
    "condition" TEXT NOT NULL,
    "rank" INTEGER NOT NULL,
    "search_count" INTEGER NOT NULL,
    "condition_share" DOUBLE PRECISION NOT NULL,
    "distinct_users" INTEGER NOT NULL,
    "mobile_share" DOUBLE PRECISION NOT NULL,
    "redirects" INTEGER NOT NULL,
    "watch_count" INTEGER NOT NULL,

    CONSTRAINT "condition_snapshot_rows_pkey" PRIMARY KEY ("snapshot_id","game_id","condition")
);

-- CreateIndex
CREATE UNIQUE INDEX "consoles_slug_key" ON "consoles"("slug");

-- CreateIndex
CREATE INDEX "consoles_name_id_idx" ON "consoles"("name", "id");

-- CreateIndex
CREATE INDEX "games_enabled_display_game_name_id_idx" ON "games"("enabled", "display_game_name", "id");

-- CreateIndex
CREATE INDEX "games_enabled_marketplace_game_name_id_idx" ON "games"("enabled", "marketplace_game_name", "id");

-- CreateIndex
CREATE INDEX "games_enabled_console_id_display_game_name_id_idx" ON "games"("enabled", "console_id", "display_game_name", "id");

-- CreateIndex
CREATE INDEX "games_title_key_idx" ON "games"("title_key");

-- CreateIndex
CREATE UNIQUE INDEX "games_console_id_marketplace_game_name_key" ON "games"("console_id", "marketplace_game_name");

-- CreateIndex
CREATE INDEX "api_clients_organization_id_idx" ON "api_clients"("organization_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_organization_id_idx" ON "api_keys"("organization_id");

-- CreateIndex
CREATE INDEX "idempotency_records_expires_at_idx" ON "idempotency_records"("expires_at");

-- CreateIndex
CREATE INDEX "redirect_events_day_game_id_idx" ON "redirect_events"("day", "game_id");

-- CreateIndex
CREATE INDEX "watch_events_game_id_idx" ON "watch_events"("game_id");

-- CreateIndex
CREATE INDEX "watch_events_created_at_idx" ON "watch_events"("created_at");

-- CreateIndex
CREATE INDEX "search_events_day_query_idx" ON "search_events"("day", "query");

-- CreateIndex
CREATE INDEX "search_events_day_game_id_idx" ON "search_events"("day", "game_id");

-- CreateIndex
CREATE UNIQUE INDEX "snapshots_period_date_key" ON "snapshots"("period", "date");

-- CreateIndex
CREATE INDEX "liquidity_snapshot_rows_snapshot_id_scope_console_id_rank_l_idx" ON "liquidity_snapshot_rows"("snapshot_id", "scope_console_id", "rank_liquidity");

-- CreateIndex
CREATE INDEX "liquidity_snapshot_rows_snapshot_id_scope_console_id_rank_d_idx" ON "liquidity_snapshot_rows"("snapshot_id", "scope_console_id", "rank_demand");

-- CreateIndex
CREATE INDEX "liquidity_snapshot_rows_snapshot_id_scope_console_id_rank_v_idx" ON "liquidity_snapshot_rows"("snapshot_id", "scope_console_id", "rank_value");

-- CreateIndex
CREATE INDEX "search_snapshot_rows_snapshot_id_scope_console_id_rank_volu_idx" ON "search_snapshot_rows"("snapshot_id", "scope_console_id", "rank_volume");

-- CreateIndex
CREATE INDEX "search_snapshot_rows_snapshot_id_scope_console_id_rank_mome_idx" ON "search_snapshot_rows"("snapshot_id", "scope_console_id", "rank_momentum");

-- CreateIndex
CREATE INDEX "search_snapshot_rows_snapshot_id_scope_console_id_rank_unme_idx" ON "search_snapshot_rows"("snapshot_id", "scope_console_id", "rank_unmet");

-- AddForeignKey
ALTER TABLE "games" ADD CONSTRAINT "games_console_id_fkey" FOREIGN KEY ("console_id") REFERENCES "consoles"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_plan_slug_fkey" FOREIGN KEY ("plan_slug") REFERENCES "plans"("slug") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_clients" ADD CONSTRAINT "api_clients_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "api_clients"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "usage_months" ADD CONSTRAINT "usage_months_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
