#!/usr/bin/env bash
# The production install, proven: builds the image contents (build-image-contents.sh, as the
# Dockerfile does) into a scratch folder, then, from that folder only and with NODE_ENV=production
# against a fresh PostgreSQL database and Redis: checks the server refuses to start on an unmigrated
# database, migrates with the CLI, creates an organization and key with the CLI, starts the server,
# calls /healthz, /readyz, authenticated endpoints, /metrics and /docs, checks the request log lines,
# and stops the server with SIGTERM expecting a clean exit. The database is dropped afterwards.
#
# Usage: scripts/deploy/smoke.sh [existing image-contents folder]
# Env: SMOKE_DATABASE_URL (admin URL; default TEST_DATABASE_URL, else postgres@127.0.0.1:5432),
#      SMOKE_REDIS_URL (default TEST_REDIS_URL's host on logical database 14), KEEP_SMOKE=1 keeps the folder.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [ -x "$root/.tools/node/bin/node" ]; then export PATH="$root/.tools/node/bin:$PATH"; fi
started_at=$(date +%s)
say() { printf '[smoke %3ss] %s\n' "$(($(date +%s) - started_at))" "$*"; }
fail() {
  printf '[smoke] FAILED: %s\n' "$*" >&2
  if [ -n "${log:-}" ] && [ -f "$log" ]; then
    printf '[smoke] server log (last 40 lines):\n' >&2
    tail -n 40 "$log" >&2
  fi
  exit 1
}

scratch="$(mktemp -d "${TMPDIR:-/tmp}/gmi-smoke.XXXXXX")"
app="${1:-$scratch/app}"
log="$scratch/server.log"
admin_url="${SMOKE_DATABASE_URL:-${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}}"
redis_base="${SMOKE_REDIS_URL:-${TEST_REDIS_URL:-redis://127.0.0.1:6379}}"
# Its own Redis logical database: the fresh database numbers organizations from 1, as the test
# databases do, and their rate-limit counters must not meet.
redis_url="${SMOKE_REDIS_URL:-${redis_base%/}/14}"
db_name="gmi_smoke_$(date +%s)_$$"
server_pid=""

# Database administration through the repository's pg package (the folder bundles its own copy,
# which only the server can use): the server itself still runs from the folder alone.
admin_sql() {
  (cd "$root/apps/server" && ADMIN_URL="$admin_url" SQL="$1" node --input-type=module -e '
    import pg from "pg";
    const client = new pg.Client({ connectionString: process.env.ADMIN_URL });
    await client.connect();
    try { await client.query(process.env.SQL); } finally { await client.end(); }
  ')
}

cleanup() {
  local code=$?
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid" 2>/dev/null || true; fi
  if [ -n "${db_created:-}" ]; then admin_sql "DROP DATABASE IF EXISTS $db_name WITH (FORCE)" || true; fi
  if [ "${KEEP_SMOKE:-}" = "1" ]; then say "kept $scratch"; else rm -rf "$scratch"; fi
  exit "$code"
}
trap cleanup EXIT

if [ -z "${1:-}" ]; then
  say "building the image contents into $app"
  bash "$root/scripts/deploy/build-image-contents.sh" "$app" >"$scratch/build.log" 2>&1 || {
    cat "$scratch/build.log" >&2
    fail "build-image-contents.sh"
  }
fi
[ -f "$app/dist/main.js" ] || fail "$app holds no dist/main.js"
say "image contents: $(du -sh "$app" | cut -f1)"

port="$(node -e 'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
base="http://127.0.0.1:$port"
db_url="$(node -e 'const u=new URL(process.argv[1]);u.pathname="/"+process.argv[2];console.log(u.toString())' "$admin_url" "$db_name")"
metrics_token="$(node -e 'console.log(require("node:crypto").randomBytes(24).toString("hex"))')"
admin_sql "CREATE DATABASE $db_name"
db_created=1
say "database $db_name created; redis $redis_url; port $port"

# The production environment, and nothing else from this shell (env -i): the server must not
# depend on anything the repository or CI happens to set. `env -C` rather than a subshell, so that
# the server's PID is the one $! gives (SIGTERM must reach node itself).
production_env=(
  -C "$app" -i PATH="$PATH" HOME="$scratch" NODE_ENV=production HOST=127.0.0.1 PORT="$port"
  DATABASE_URL="$db_url" REDIS_URL="$redis_url" LOG_LEVEL=info METRICS_TOKEN="$metrics_token"
  CURSOR_SECRET="smoke-cursor-secret-$metrics_token" PUBLIC_BASE_URL="$base"
)
run() { env "${production_env[@]}" "$@"; }

say "without DATABASE_URL: a one-line refusal (the image has no embedded database)"
if env -C "$app" -i PATH="$PATH" HOME="$scratch" NODE_ENV=production DATA_DIR="$scratch/data" \
  CURSOR_SECRET="smoke-cursor-secret-$metrics_token" node dist/main.js >"$scratch/no-db.log" 2>&1; then
  fail "the server started without DATABASE_URL"
fi
grep -q "DATABASE_URL is not set" "$scratch/no-db.log" || fail "unclear refusal: $(cat "$scratch/no-db.log")"
[ ! -e "$scratch/data" ] || fail "wrote under DATA_DIR without an embedded database"

say "server refuses an unmigrated database"
if run node dist/main.js >"$scratch/refused.log" 2>&1; then fail "the server started on an unmigrated database"; fi
grep -q "pending migration" "$scratch/refused.log" || fail "unexpected refusal: $(cat "$scratch/refused.log")"

say "gmi migrate"
run bin/gmi migrate || fail "gmi migrate"
run bin/gmi migrate | grep -q "Applied 0 migration" || fail "a second gmi migrate applied something"

say "gmi import (a production server invents no data)"
printf '%s\n' \
  '{"type":"console","id":1,"name":"Super Nintendo","slug":"snes"}' \
  '{"type":"game","id":101,"console_id":1,"display_game_name":"Chrono Trigger","marketplace_game_name":"chrono-trigger","enabled":true,"prices":{"loose":"149.99","complete":"289.00","new":null}}' \
  '{"type":"redirect","game_id":101,"user_id":"u1","occurred_at":"2026-11-20T10:00:00Z","condition":"cib","device":"mobile"}' \
  | gzip > "$scratch/catalog.ndjson.gz"
run bin/gmi import "$scratch/catalog.ndjson.gz" || fail "gmi import"
run bin/gmi rollup --date 2026-11-20 || fail "gmi rollup"

say "gmi orgs create / keys create"
org_id="$(run bin/gmi orgs create --name "Smoke Test" --plan pro --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).id))')"
api_key="$(run bin/gmi keys create --org "$org_id" --scopes games.read,intelligence.read,demand-intent.read --json |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).key))')"
case "$api_key" in gmi_live_*) ;; *) fail "keys create gave no key" ;; esac

say "starting node dist/main.js"
env "${production_env[@]}" node dist/main.js >"$log" 2>&1 &
server_pid=$!
for _ in $(seq 1 120); do
  curl -fsS "$base/healthz" >/dev/null 2>&1 && break
  kill -0 "$server_pid" 2>/dev/null || fail "the server exited during start-up"
  sleep 0.25
done
curl -fsS "$base/healthz" >/dev/null || fail "/healthz never answered"
say "listening"

# expect STATUS URL [curl args...]: the body lands in $scratch/body.
expect() {
  local want="$1" url="$2"
  shift 2
  local got
  got="$(curl -sS -o "$scratch/body" -w '%{http_code}' "$@" "$base$url")" || fail "curl $url"
  [ "$got" = "$want" ] || fail "$url answered $got, expected $want: $(head -c 400 "$scratch/body")"
}
body_has() { grep -q -- "$1" "$scratch/body" || fail "$2: body lacks $1: $(head -c 400 "$scratch/body")"; }
bearer=(-H "Authorization: Bearer $api_key")

expect 200 /healthz
expect 200 /readyz
body_has '"status":"ready"' "/readyz"
expect 401 /api/v1/games/titles
body_has '"code":"unauthorized"' "anonymous request"
expect 200 "/api/v1/games/titles?limit=5" "${bearer[@]}"
body_has '"display_game_name":"Chrono Trigger"' "/games/titles"
expect 200 "/api/v1/intelligence/101" "${bearer[@]}"
body_has '"liquidity_score"' "/intelligence/101"
expect 200 /api/v1/me "${bearer[@]}"
body_has '"Smoke Test"' "/me"
expect 200 /api/v1/openapi.json
say "health, readiness and authenticated endpoints answer"

expect 401 /metrics
expect 200 /metrics -H "Authorization: Bearer $metrics_token"
body_has 'gmi_http_requests_total{method="GET",route="/api/v1/games/titles",status="200"} 1' "/metrics"
body_has 'gmi_db_pool_connections' "/metrics"
expect 301 /docs
expect 200 /docs/
body_has 'js/scalar.js' "/docs/"
expect 200 /docs/js/scalar.js
say "/metrics and /docs answer"

say "SIGTERM"
kill -TERM "$server_pid"
code=0
for _ in $(seq 1 60); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.25; done
kill -0 "$server_pid" 2>/dev/null && fail "still running 15 s after SIGTERM"
wait "$server_pid" || code=$?
server_pid=""
[ "$code" = 0 ] || fail "exit code $code after SIGTERM"
grep -q "shutting down" "$log" || fail "no shutdown line in the log"
say "clean exit after SIGTERM"

# One JSON line per request with id, route, status, duration and organization; never the key.
# Read after the exit: the logger writes asynchronously and flushes on shutdown.
node -e '
  const [file, orgId, key] = process.argv.slice(1);
  const text = require("node:fs").readFileSync(file, "utf8");
  if (text.includes(key) || text.includes(key.slice(9))) { console.error("the API key appears in the log"); process.exit(1); }
  const lines = text.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
  const line = lines.find((l) => l.msg === "request" && l.route === "/api/v1/games/titles" && l.status === 200);
  const ok = line && typeof line.request_id === "string" && typeof line.duration_ms === "number" && line.organization_id === Number(orgId);
  if (!ok) { console.error("no complete request log line:", JSON.stringify(line ?? lines.at(-1))); process.exit(1); }
' "$log" "$org_id" "$api_key" || fail "request log line"
say "request log lines carry request_id, route, status, duration_ms, organization_id, and no key"
say "smoke passed"
