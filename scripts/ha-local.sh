#!/usr/bin/env bash
# The highly available database topology of `docker compose --profile ha`, without containers, on
# loopback ports (docs/ha.md): 3 etcd members, 2 PostgreSQL nodes under Patroni with synchronous
# replication, HAProxy routing to the current primary through Patroni's health checks.
#
#   scripts/ha-local.sh start DIR          start everything; last line: DATABASE_URL=… (HAProxy)
#   scripts/ha-local.sh kill-primary DIR   SIGKILL the primary's PostgreSQL and its Patroni; prints the member
#   scripts/ha-local.sh primary DIR        prints the current primary's member name (empty while there is none)
#   scripts/ha-local.sh stop DIR           stop everything it started, by pid
#   scripts/ha-local.sh revive DIR MEMBER  a member killed by kill-primary started again (rejoins as a standby)
#   scripts/ha-local.sh freeze-primary DIR SIGSTOP the primary's PostgreSQL (postmaster and backends); prints the member
#   scripts/ha-local.sh thaw DIR           SIGCONT to what freeze-primary stopped
#   scripts/ha-local.sh backup DIR         a base backup of the primary into DIR/backups/N; prints its path
#   scripts/ha-local.sh restore DIR BACKUP RESTORE_POINT PORT
#                                          a NEW cluster on PORT from BACKUP and the WAL archive, recovered up to
#                                          the named restore point (pg_create_restore_point) and promoted;
#                                          prints DATABASE_URL=… as its last line
#
# Both nodes archive every WAL segment into DIR/archive (archive_command), the backup repository a
# base backup and a point-in-time restore start from (docs/ha.md).
# Ports: HA_BASE_PORT (default 25400) + 1..3 etcd clients, +11..13 etcd peers, +21..22 Patroni REST,
# +31..32 PostgreSQL, +40 HAProxy. Debian's packages: etcd-server, patroni, haproxy, postgresql.
set -euo pipefail
cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || {
  echo "usage: $0 start|kill-primary|primary|revive|freeze-primary|thaw|backup|restore|stop DIR …" >&2
  exit 2
}
base=${HA_BASE_PORT:-25400}
members=(pg1 pg2)

pgbin() {
  local v
  v=$(ls /usr/lib/postgresql | sort -n | tail -n 1)
  echo "/usr/lib/postgresql/$v/bin"
}
# PostgreSQL refuses to run as root: Patroni (and so PostgreSQL) runs as `postgres` when we are root.
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
rest_port() { echo $((base + 21 + $1)); }
pg_port() { echo $((base + 31 + $1)); }

# The member whose Patroni answers 200 on /primary (the leader with a running PostgreSQL).
primary() {
  local i
  for i in 0 1; do
    if curl -fsS -o /dev/null --max-time 1 "http://127.0.0.1:$(rest_port $i)/primary" 2>/dev/null; then
      echo "${members[$i]}"
      return 0
    fi
  done
  return 1
}

# exec: the pid written is Patroni's own (runuser would stand between).
run_patroni() {
  as_pg sh -c 'echo $$ >"$1.pid"; exec patroni "$1.yml"' sh "$dir/$1" >>"$dir/$1.log" 2>&1 &
}

start() {
  command -v etcd >/dev/null && command -v patroni >/dev/null && command -v haproxy >/dev/null || {
    echo "need Debian's etcd-server, patroni and haproxy (apt-get install -y etcd-server patroni haproxy)" >&2
    exit 1
  }
  mkdir -p "$dir/archive"
  dir=$(cd "$dir" && pwd)
  [ "$(id -u)" -eq 0 ] && chown postgres "$dir" "$dir/archive"
  local cluster="" i
  for i in 1 2 3; do cluster+="${cluster:+,}e$i=http://127.0.0.1:$((base + 10 + i))"; done
  local hosts=""
  for i in 1 2 3; do hosts+="${hosts:+,}127.0.0.1:$((base + i))"; done
  for i in 1 2 3; do
    mkdir -p "$dir/etcd$i"
    # v2 API: Debian's Patroni speaks it (python3-etcd).
    etcd --name "e$i" --data-dir "$dir/etcd$i" --enable-v2=true \
      --listen-client-urls "http://127.0.0.1:$((base + i))" --advertise-client-urls "http://127.0.0.1:$((base + i))" \
      --listen-peer-urls "http://127.0.0.1:$((base + 10 + i))" \
      --initial-advertise-peer-urls "http://127.0.0.1:$((base + 10 + i))" \
      --initial-cluster "$cluster" --initial-cluster-state new --initial-cluster-token pfp-ha \
      --heartbeat-interval 100 --election-timeout 1000 >"$dir/etcd$i.log" 2>&1 &
    echo $! >"$dir/etcd$i.pid"
  done
  for _ in $(seq 1 100); do
    curl -fsS --max-time 1 "http://127.0.0.1:$((base + 1))/health" 2>/dev/null | grep -q true && break
    sleep 0.2
  done
  local bin
  bin=$(pgbin)
  for i in 0 1; do
    local m=${members[$i]}
    mkdir -p "$dir/$m"
    cat >"$dir/$m.yml" <<EOF
scope: pfp
name: $m
restapi:
  listen: 127.0.0.1:$(rest_port $i)
  connect_address: 127.0.0.1:$(rest_port $i)
etcd:
  hosts: $hosts
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 5
    maximum_lag_on_failover: 1048576
    # A commit is acknowledged only once a standby has it; with the standby gone the primary keeps
    # serving (synchronous_mode_strict off), as a 2-node cluster must to survive a lost machine.
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      parameters:
        max_connections: 200
        wal_level: replica
        hot_standby: 'on'
        wal_log_hints: 'on'
        max_wal_senders: 10
        max_replication_slots: 10
        synchronous_commit: 'on'
        archive_mode: 'on'
        archive_timeout: 10
        archive_command: 'test ! -f $dir/archive/%f && cp %p $dir/archive/%f'
  initdb:
    - encoding: UTF8
    - no-locale
  pg_hba:
    - host replication replicator 127.0.0.1/32 trust
    - host all all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:$(pg_port $i)
  connect_address: 127.0.0.1:$(pg_port $i)
  data_dir: $dir/$m/data
  bin_dir: $bin
  pgpass: $dir/$m/pgpass
  authentication:
    superuser: {username: pfp, password: pfp}
    replication: {username: replicator, password: rep}
  parameters:
    unix_socket_directories: '$dir/$m'
tags: {nofailover: false, noloadbalance: false, clonefrom: false, nosync: false}
EOF
    [ "$(id -u)" -eq 0 ] && chown -R postgres "$dir/$m" "$dir/$m.yml"
    run_patroni "$m"
    # The first member bootstraps the cluster before the second clones from it.
    if [ "$i" -eq 0 ]; then
      for _ in $(seq 1 300); do primary >/dev/null && break || sleep 0.2; done
      primary >/dev/null || {
        echo "Patroni did not elect a primary; see $dir/$m.log" >&2
        exit 1
      }
    fi
  done
  cat >"$dir/haproxy.cfg" <<EOF
global
  maxconn 1000
defaults
  mode tcp
  timeout connect 2s
  timeout client 30m
  timeout server 30m
  timeout check 1s
listen primary
  bind 127.0.0.1:$((base + 40))
  option httpchk OPTIONS /primary
  http-check expect status 200
  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
  server pg1 127.0.0.1:$(pg_port 0) maxconn 500 check port $(rest_port 0)
  server pg2 127.0.0.1:$(pg_port 1) maxconn 500 check port $(rest_port 1)
EOF
  haproxy -f "$dir/haproxy.cfg" >"$dir/haproxy.log" 2>&1 &
  echo $! >"$dir/haproxy.pid"
  # Ready when the standby streams synchronously and HAProxy reaches the primary.
  local url="postgres://pfp:pfp@127.0.0.1:$((base + 40))/postgres"
  for _ in $(seq 1 300); do
    if as_pg "$bin/psql" -tA "$url" -c "select count(*) from pg_stat_replication where sync_state = 'sync'" 2>/dev/null | grep -q '^1$'; then
      as_pg "$bin/psql" -q "$url" -c 'create database pfp' 2>/dev/null || true
      echo "primary: $(primary)"
      echo "DATABASE_URL=postgres://pfp:pfp@127.0.0.1:$((base + 40))/pfp"
      return 0
    fi
    sleep 0.2
  done
  echo "the standby never became synchronous; see $dir/pg*.log" >&2
  exit 1
}

kill_primary() {
  local m
  m=$(primary) || {
    echo "no primary to kill" >&2
    exit 1
  }
  # Its Patroni first (so nothing restarts the PostgreSQL), then the postmaster and every backend.
  kill -9 "$(cat "$dir/$m.pid")" 2>/dev/null || true
  local pm
  pm=$(head -n 1 "$dir/$m/data/postmaster.pid" 2>/dev/null || true)
  if [ -n "$pm" ]; then
    pkill -9 -P "$pm" 2>/dev/null || true
    kill -9 "$pm" 2>/dev/null || true
  fi
  echo "$m"
}

stop() {
  local f pm m
  [ -f "$dir/haproxy.pid" ] && kill "$(cat "$dir/haproxy.pid")" 2>/dev/null || true
  for m in "${members[@]}"; do
    [ -f "$dir/$m.pid" ] && kill "$(cat "$dir/$m.pid")" 2>/dev/null || true
  done
  sleep 1
  for m in "${members[@]}"; do
    pm=$(head -n 1 "$dir/$m/data/postmaster.pid" 2>/dev/null || true)
    [ -n "$pm" ] && kill -9 "$pm" 2>/dev/null || true
    [ -f "$dir/$m.pid" ] && kill -9 "$(cat "$dir/$m.pid")" 2>/dev/null || true
  done
  for f in "$dir"/etcd*.pid; do [ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null || true; done
  for f in "$dir"/restored-*.datadir; do
    [ -f "$f" ] && as_pg "$(pgbin)/pg_ctl" -D "$(cat "$f")" -m immediate stop >/dev/null 2>&1 || true
  done
  rm -f "$dir"/*.pid
}

# A member killed by kill-primary back (its machine repaired): its Patroni again, which rewinds the old
# primary's data (use_pg_rewind) and rejoins it as a standby.
revive() {
  local m=$1
  [ -f "$dir/$m.yml" ] || {
    echo "no member $m in $dir" >&2
    exit 1
  }
  [ -f "$dir/$m.pid" ] && kill -0 "$(cat "$dir/$m.pid")" 2>/dev/null && return 0
  run_patroni "$m"
  echo "$m"
}

# The primary's PostgreSQL frozen (SIGSTOP to the postmaster and every backend; its Patroni keeps running and
# may lose the leader key); `thaw` sends SIGCONT to the same processes. Prints the member.
freeze_primary() {
  local m pm
  m=$(primary) || {
    echo "no primary to freeze" >&2
    exit 1
  }
  pm=$(head -n 1 "$dir/$m/data/postmaster.pid")
  { echo "$pm"; pgrep -P "$pm" || true; } >"$dir/frozen.pids"
  xargs kill -STOP <"$dir/frozen.pids" 2>/dev/null || true
  echo "$m"
}

thaw() {
  [ -f "$dir/frozen.pids" ] || return 0
  xargs kill -CONT <"$dir/frozen.pids" 2>/dev/null || true
  rm -f "$dir/frozen.pids"
}

backup() {
  local m i n bin
  m=$(primary) || {
    echo "no primary to back up" >&2
    exit 1
  }
  for i in 0 1; do [ "${members[$i]}" = "$m" ] && break; done
  bin=$(pgbin)
  mkdir -p "$dir/backups"
  n=$(find "$dir/backups" -mindepth 1 -maxdepth 1 | wc -l)
  [ "$(id -u)" -eq 0 ] && chown postgres "$dir/backups"
  # The WAL it needs comes from the archive at restore time (-X none keeps the backup small).
  as_pg "$bin/pg_basebackup" -h 127.0.0.1 -p "$(pg_port "$i")" -U replicator -D "$dir/backups/$n" -X none -c fast >&2
  echo "$dir/backups/$n"
}

restore() {
  local backup=$1 target=$2 port=$3 bin data
  bin=$(pgbin)
  data="$dir/restored-$port"
  as_pg cp -a "$backup" "$data"
  chmod 700 "$data"
  rm -f "$data/postmaster.pid" "$data/standby.signal"
  # A cluster of its own: no Patroni, no replication, its own port and socket; recover to the point, then promote.
  cat >>"$data/postgresql.auto.conf" <<CONF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$data'
archive_mode = off
synchronous_standby_names = ''
primary_conninfo = ''
primary_slot_name = ''
restore_command = 'cp $dir/archive/%f %p'
recovery_target_name = '$target'
recovery_target_action = 'promote'
CONF
  as_pg touch "$data/recovery.signal"
  as_pg "$bin/pg_ctl" -D "$data" -l "$data.log" -w -t 120 start >&2
  for _ in $(seq 1 600); do
    [ "$(as_pg "$bin/psql" -tA -h 127.0.0.1 -p "$port" -U pfp -d postgres -c 'select pg_is_in_recovery()' 2>/dev/null)" = f ] && break
    sleep 0.2
  done
  echo "$data" >"$dir/restored-$port.datadir"
  echo "DATABASE_URL=postgres://pfp:pfp@127.0.0.1:$port/pfp"
}

case "$cmd" in
  start) start ;;
  kill-primary) kill_primary ;;
  primary) primary || true ;;
  stop)
    thaw
    stop
    ;;
  revive) revive "${3:?MEMBER}" ;;
  freeze-primary) freeze_primary ;;
  thaw) thaw ;;
  backup) backup ;;
  restore) restore "${3:?BACKUP}" "${4:?RESTORE_POINT}" "${5:?PORT}" ;;
  *)
    echo "usage: $0 start|kill-primary|primary|revive|freeze-primary|thaw|backup|restore|stop DIR …" >&2
    exit 2
    ;;
esac
