#!/usr/bin/env bash
# A private PostgreSQL server for the tests and the load figures: a fresh cluster in DIR,
# on a free loopback port, trusting local connections (it listens on 127.0.0.1 only).
# Installs Debian's postgresql with apt-get when missing. PostgreSQL refuses to run as
# root: as root, the cluster belongs to the user `postgres` (created by the package).
#
#   url=$(scripts/postgres.sh start DIR)   # prints postgres://sowing@127.0.0.1:PORT/postgres
#                                          # (DIR and its parents readable by its owner)
#   scripts/postgres.sh down DIR           # stops the server, keeping its data (a chaos test)
#   scripts/postgres.sh up DIR             # starts it again, on the same port
#   scripts/postgres.sh stop DIR           # stops the server and deletes DIR
set -euo pipefail

usage() {
  echo "usage: scripts/postgres.sh start|down|up|stop DIR" >&2
  exit 2
}
[ $# -eq 2 ] || usage
command=$1
dir=$2

bin_dir() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

as_owner() { # runs a command as the cluster's owner
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

serve() { # starts the cluster in $dir on $port
  # Room for many test stores at once (each a pool of up to 16 connections).
  as_owner "$(bin_dir)/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=400" start >&2 ||
    { cat "$dir/server.log" >&2; exit 1; }
}

case "$command" in
start)
  if [ -z "$(bin_dir)" ] || [ ! -x "$(bin_dir)/initdb" ]; then
    echo "postgres.sh: installing Debian's postgresql" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
  fi
  bin=$(bin_dir)
  mkdir -p "$dir"
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$dir"
    if ! runuser -u postgres -- test -w "$dir"; then
      echo "postgres.sh: the user postgres cannot reach $dir (a parent directory is private)" >&2
      exit 1
    fi
  fi
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  echo "$port" >"$dir/port"
  as_owner "$bin/initdb" -D "$dir/data" -U sowing --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  serve
  echo "postgres://sowing@127.0.0.1:$port/postgres"
  ;;
down)
  as_owner "$(bin_dir)/pg_ctl" -D "$dir/data" -m fast -w stop >&2
  ;;
up)
  port=$(cat "$dir/port")
  serve
  ;;
stop)
  if [ -d "$dir/data" ]; then
    as_owner "$(bin_dir)/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
  fi
  rm -rf "$dir"
  ;;
*)
  usage
  ;;
esac
