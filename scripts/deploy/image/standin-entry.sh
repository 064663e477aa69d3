#!/bin/sh
# Starts one stand-in service the way the official image would from the same settings.
#   standin postgres            POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB, as the postgres image
#   standin redis ARGS...       redis-server ARGS (the compose command, minus its program name)
#   standin nginx               /etc/nginx/conf.d/default.conf, as the nginx image
set -eu
service="$1"
shift
case "$service" in
  postgres)
    data=/var/lib/postgresql/data
    if [ ! -s "$data/PG_VERSION" ]; then
      printf '%s\n' "$POSTGRES_PASSWORD" >/tmp/pwfile
      # UTF8, as the official image (en_US.utf8) has: minbase has no locales, and initdb would
      # otherwise pick SQL_ASCII, where ICU collations (the migrations use und-x-icu) do not exist.
      runuser -u postgres -- initdb -D "$data" -U "$POSTGRES_USER" --pwfile=/tmp/pwfile \
        --encoding=UTF8 --locale=C.UTF-8 --auth-local=trust --auth-host=scram-sha-256 >/dev/null
      rm -f /tmp/pwfile
      echo "host all all all scram-sha-256" >>"$data/pg_hba.conf"
      runuser -u postgres -- pg_ctl -D "$data" -w -o "-c listen_addresses=''" start >/dev/null
      if [ "${POSTGRES_DB:-$POSTGRES_USER}" != postgres ]; then
        runuser -u postgres -- createdb -U "$POSTGRES_USER" "$POSTGRES_DB"
      fi
      runuser -u postgres -- pg_ctl -D "$data" -w stop >/dev/null
    fi
    exec runuser -u postgres -- postgres -D "$data" -c listen_addresses='*'
    ;;
  redis)
    [ "${1:-}" = "redis-server" ] && shift
    # The official image builds Redis with protected mode off; Debian's is on, which refuses
    # clients from other containers when no password is set.
    exec runuser -u redis -- redis-server "$@" --protected-mode no
    ;;
  nginx)
    # Logs to the container's output, as the official image does.
    ln -sf /dev/stdout /var/log/nginx/access.log
    ln -sf /dev/stderr /var/log/nginx/error.log
    exec nginx -g 'daemon off;'
    ;;
  *)
    echo "standin: unknown service $service" >&2
    exit 2
    ;;
esac
