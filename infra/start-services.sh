#!/usr/bin/env bash
# Starts the local PostgreSQL and Redis this project needs, when they are not already up,
# and installs the USI engine (Fairy-Stockfish) when it is missing.
# Without a Docker engine (the CI machine) they run as local services; with Docker,
# `docker compose up -d postgres redis` does the same job.
#   infra/start-services.sh --redis-cluster   also the local Redis Cluster (infra/start-redis-cluster.sh)
set -euo pipefail

CLUSTER=0
for arg in "$@"; do
  case "$arg" in
    --redis-cluster) CLUSTER=1 ;;
    *) echo "usage: $0 [--redis-cluster]" >&2; exit 2 ;;
  esac
done

# the USI engine behind the house bots and analysis (packages/usi): Debian's Fairy-Stockfish
# (`npm start` runs the same install first: apps/server/src/ensure-engine.ts)
"$(dirname "$0")/install-engine.sh" ||
  echo "Fairy-Stockfish could not be installed: the tests against a real engine will be skipped." >&2

if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  echo "Starting PostgreSQL..."
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n 1)" main start
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "Starting Redis..."
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --maxmemory-policy noeviction --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi
for _ in $(seq 1 30); do
  if pg_isready -q -h 127.0.0.1 -p 5432 && redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    # BullMQ needs noeviction; a server started elsewhere may have another policy
    redis-cli -h 127.0.0.1 -p 6379 config set maxmemory-policy noeviction >/dev/null
    echo "PostgreSQL and Redis are up."
    if [ "$CLUSTER" -eq 1 ]; then exec "$(dirname "$0")/start-redis-cluster.sh" start; fi
    exit 0
  fi
  sleep 1
done
echo "PostgreSQL or Redis did not come up on localhost:5432 / localhost:6379." >&2
exit 1
