#!/usr/bin/env bash
# What the number of hash partitions of game_events costs a game's read: the store's
# readStream statement, prepared and planned generically as the store's sessions run it, on a
# log of the same rows as a plain table and hashed into 8, 16 and 64 partitions. Prints pgbench's
# transactions per second for each, the counts taken in turn ROUNDS times (so load from
# elsewhere on the machine falls on all of them alike). A scratch database, dropped at the end.
#   bash bench/store/partition-count.sh [SECONDS] [GAMES] [ROUNDS]
set -euo pipefail
SECONDS_EACH=${1:-10}
GAMES=${2:-20000}
ROUNDS=${3:-3}
URL=${DATABASE_URL:-postgres://postgres@localhost:5432/postgres}
DB=shogi_bench_partitions_$$
psql "$URL" -qc "create database $DB"
trap 'psql "$URL" -qc "drop database if exists $DB with (force)"' EXIT
BENCH_URL=$(node -e "const u=new URL(process.argv[1]);u.pathname='/$DB';console.log(u.toString())" "$URL")
cols="game_id text not null, seq integer not null, type text not null, payload jsonb not null,
  recorded_at timestamptz not null default now(), global_position bigint not null"
rows="select (i / 20)::text, i % 20 + 1, 'MoveAccepted', '{\"usi\":\"7g7f\",\"ply\":1}', now(), i
  from generate_series(0, $GAMES * 20 - 1) i"
{
  echo "create table ev_1 ($cols, primary key (game_id, seq));"
  for n in 8 16 64; do
    echo "create table ev_$n ($cols, primary key (game_id, seq)) partition by hash (game_id);"
    for ((r = 0; r < n; r++)); do
      echo "create table ev_${n}_p$r partition of ev_$n for values with (modulus $n, remainder $r);"
    done
  done
  for n in 1 8 16 64; do echo "insert into ev_$n $rows; create index on ev_$n (global_position);"; done
  echo "vacuum analyze;"
} | psql "$BENCH_URL" -q
for ((round = 1; round <= ROUNDS; round++)); do
  line="round $round:"
  for n in 1 8 16 64; do
    script=$(mktemp)
    cat >"$script" <<SQL
\\set g random(0, $GAMES - 1)
select game_id, seq, type, payload, recorded_at, global_position
  from ev_$n where game_id = :g::text and seq > 0 order by seq;
SQL
    tps=$(PGOPTIONS='-c plan_cache_mode=force_generic_plan -c jit=off -c max_parallel_workers_per_gather=0' \
      pgbench -n -M prepared -c 2 -j 2 -T "$SECONDS_EACH" -f "$script" "$BENCH_URL" | sed -n 's/^tps = \([0-9]*\).*/\1/p')
    rm -f "$script"
    line="$line  $n partitions: $tps/s"
  done
  echo "$line"
done
