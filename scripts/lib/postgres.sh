# SPDX-FileCopyrightText: 2026 The VettID Authors
# SPDX-License-Identifier: Apache-2.0

# Throwaway PostgreSQL on a free loopback port, for tests and benchmarks. Source this file, then:
#   postgres_start   # exports VETTID_TEST_DATABASE_URL
#   postgres_stop    # (also registered by the caller's trap)
# initdb/pg_ctl refuse to run as root, so as root they run as the `postgres` user.

postgres_free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

postgres_as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

postgres_start() {
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$bin" ] || { echo "postgres: no server binaries under /usr/lib/postgresql" >&2; return 1; }
  PG_DATA_DIR=$(mktemp -d /tmp/vettid-pg.XXXXXX)
  [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$PG_DATA_DIR"
  postgres_as_owner "$bin/initdb" -D "$PG_DATA_DIR/data" -A trust -U postgres --no-sync >/dev/null
  PG_PORT=$(postgres_free_port)
  postgres_as_owner "$bin/pg_ctl" -D "$PG_DATA_DIR/data" -l "$PG_DATA_DIR/server.log" -w -t 60 \
    -o "-p $PG_PORT -k $PG_DATA_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
  postgres_as_owner "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres vettid_test
  PG_BIN="$bin"
  export VETTID_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/vettid_test?sslmode=disable"
  echo "postgres: running on 127.0.0.1:$PG_PORT (data $PG_DATA_DIR)"
}

postgres_stop() {
  if [ -n "${PG_DATA_DIR:-}" ] && [ -d "$PG_DATA_DIR/data" ]; then
    postgres_as_owner "$PG_BIN/pg_ctl" -D "$PG_DATA_DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$PG_DATA_DIR"
  fi
}
