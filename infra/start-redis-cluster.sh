#!/usr/bin/env bash
# A local Redis Cluster from Debian's redis-server: three masters with one replica each (or
# none), in cluster mode, without persistence, for the tests and benches that run on a cluster
# (REDIS_CLUSTER_NODES; docs/operations.md#redis-cluster).
#
#   infra/start-redis-cluster.sh [start]   start it, or say it is up already; prints REDIS_CLUSTER_NODES
#   infra/start-redis-cluster.sh stop      stop its six servers and forget the cluster
#   infra/start-redis-cluster.sh status    CLUSTER INFO's state and the nodes, or "down"
#   infra/start-redis-cluster.sh nodes     the REDIS_CLUSTER_NODES value, nothing else
#
# REDIS_CLUSTER_PORT (7000): the first of six consecutive ports (masters on the first three;
# another base runs a second cluster beside this one). REDIS_CLUSTER_REPLICAS (1): replicas per
# master, 1 or 0 (three masters alone, on the first three ports: what the cluster bench compares
# with one Redis, which has no replica either). REDIS_CLUSTER_MASTERS (3): 3, or 1 (one node
# holding every slot, without replicas: the cluster client's path on a single server process,
# the bench's measure of what the client costs apart from spreading the work). REDIS_CLUSTER_DIR
# (/tmp/shogi-redis-cluster-PORT): each node's nodes.conf and log. REDIS_CLUSTER_NODE_TIMEOUT
# (2000 ms): how long a master may be unreachable before its replica takes over. A replica
# takes over however long its link to the master has been down (validity factor 0): with no
# persistence, a replica that refused would leave its slots unserved for good.
set -euo pipefail

BASE="${REDIS_CLUSTER_PORT:-7000}"
DIR="${REDIS_CLUSTER_DIR:-/tmp/shogi-redis-cluster-$BASE}"
TIMEOUT="${REDIS_CLUSTER_NODE_TIMEOUT:-2000}"
REPLICAS="${REDIS_CLUSTER_REPLICAS:-1}"
MASTER_COUNT="${REDIS_CLUSTER_MASTERS:-3}"
case "$MASTER_COUNT/$REPLICAS" in
  3/0) PORTS=$(seq "$BASE" $((BASE + 2))) ;;
  3/1) PORTS=$(seq "$BASE" $((BASE + 5))) ;;
  1/0) PORTS=$BASE ;;
  *) echo "REDIS_CLUSTER_MASTERS must be 3 or 1, REDIS_CLUSTER_REPLICAS 0 or 1 (0 with one master)" >&2; exit 2 ;;
esac
NODES=$(wc -w <<<"$PORTS")
LAST=$((BASE + NODES - 1))
MASTERS=$(seq "$BASE" $((BASE + MASTER_COUNT - 1)))

nodes() {
  local out=()
  for p in $MASTERS; do out+=("127.0.0.1:$p"); done
  (IFS=,; echo "${out[*]}")
}

answers() { redis-cli -p "$1" ping >/dev/null 2>&1; }

healthy() {
  # every node up, the cluster's state ok and all 16384 slots served
  for p in $PORTS; do answers "$p" || return 1; done
  local info
  info=$(redis-cli -p "$BASE" cluster info 2>/dev/null) || return 1
  grep -q '^cluster_state:ok' <<<"$info" && grep -q '^cluster_slots_ok:16384' <<<"$info"
}

start() {
  if healthy; then
    echo "Redis Cluster is up already on ports $BASE-$LAST."
    echo "REDIS_CLUSTER_NODES=$(nodes)"
    return 0
  fi
  for p in $PORTS; do
    if answers "$p"; then
      echo "Port $p answers but the cluster is not healthy: run '$0 stop' first." >&2
      return 1
    fi
  done
  command -v redis-server >/dev/null || { echo "redis-server is not installed (apt-get install -y redis-server)" >&2; return 1; }
  echo "Starting a Redis Cluster on ports $BASE-$LAST ($MASTER_COUNT master(s), $REPLICAS replica each)..."
  rm -rf "$DIR"
  for p in $PORTS; do
    mkdir -p "$DIR/$p"
    redis-server --port "$p" --bind 127.0.0.1 --daemonize yes \
      --cluster-enabled yes --cluster-config-file "$DIR/$p/nodes.conf" \
      --cluster-node-timeout "$TIMEOUT" --cluster-require-full-coverage no \
      --cluster-replica-validity-factor 0 --cluster-announce-ip 127.0.0.1 \
      --save '' --appendonly no --maxmemory-policy noeviction \
      --dir "$DIR/$p" --logfile "$DIR/$p/redis.log" --pidfile "$DIR/$p/redis.pid"
  done
  for _ in $(seq 1 50); do
    local up=0
    for p in $PORTS; do answers "$p" && up=$((up + 1)); done
    [ "$up" -eq "$NODES" ] && break
    sleep 0.1
  done
  local all=()
  for p in $PORTS; do all+=("127.0.0.1:$p"); done
  if [ "$MASTER_COUNT" -eq 1 ]; then
    # redis-cli --cluster create wants three masters: one node takes every slot itself
    redis-cli -p "$BASE" cluster addslotsrange 0 16383 >"$DIR/create.log" 2>&1 || {
      cat "$DIR/create.log" >&2
      return 1
    }
  else
    redis-cli --cluster create "${all[@]}" --cluster-replicas "$REPLICAS" --cluster-yes >"$DIR/create.log" 2>&1 || {
      cat "$DIR/create.log" >&2
      return 1
    }
  fi
  for _ in $(seq 1 100); do
    if healthy && [ "$(replicas)" -eq $((3 * REPLICAS)) ]; then
      echo "Redis Cluster is up."
      echo "REDIS_CLUSTER_NODES=$(nodes)"
      return 0
    fi
    sleep 0.2
  done
  echo "The cluster did not become healthy; see $DIR/*/redis.log" >&2
  return 1
}

# replicas that see their master (each node's view through the first master)
replicas() { redis-cli -p "$BASE" cluster nodes 2>/dev/null | grep -c ' slave ' || true; }

stop() {
  local any=0
  for p in $PORTS; do
    if answers "$p"; then
      redis-cli -p "$p" shutdown nosave >/dev/null 2>&1 || true
      any=1
    fi
  done
  rm -rf "$DIR"
  [ "$any" -eq 1 ] && echo "Redis Cluster on ports $BASE-$LAST stopped." || echo "Redis Cluster on ports $BASE-$LAST was not running."
}

status() {
  if ! answers "$BASE"; then
    echo "down"
    return 1
  fi
  redis-cli -p "$BASE" cluster info | grep -E '^cluster_(state|slots_ok|known_nodes|size):'
  redis-cli -p "$BASE" cluster nodes | awk '{print $2, $3}' | sort
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  nodes) nodes ;;
  *)
    echo "usage: $0 [start|stop|status|nodes]" >&2
    exit 2
    ;;
esac
