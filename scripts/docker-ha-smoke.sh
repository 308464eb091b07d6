#!/usr/bin/env bash
# The `ha` compose profile (docker/compose.yaml; docs/ha.md) built, used through its gateway and
# failed over, as people run it (issue 45). Needs root and the workspace installed, as
# scripts/docker-smoke.sh, which it follows. In order:
#   1. its own Docker daemon, always (never the machine's, never docker-smoke's): its own data root
#      ($PFP_HA_DOCKER_CACHE/data-root), exec root, socket /tmp/ha-docker.sock, networks from
#      10.213.0.0/16; no default bridge, no iptables;
#   2. base images: the registry's when it answers, else docker-smoke's stand-ins (Debian 12
#      minbase, Node, nginx) made from Debian's packages and the npm registry;
#   3. the server, the four apps, etcd, Patroni and HAProxy images (docker/Dockerfile,
#      docker/ha/Dockerfile), host networking;
#   4. `--profile ha up gateway-ha`: 3 etcd, 2 Patroni nodes (the standby synchronous), HAProxy, 2
#      server replicas, the gateway; through the gateway a trader signs in (chromium) and makes a
#      customer and a contract, the customer's first fix fills;
#   5. `docker kill` of the Patroni primary's container (its machine lost): a new primary within
#      30 s; the second fix, sent at once and resent with its client_order_id, is refused with 503 +
#      Retry-After (nothing else) until the servers reach the new primary by themselves (neither
#      replica restarted), then fills; the first fix still there;
#   6. everything it started stopped, its daemon too. Prints each phase's time and the time
#      without a primary.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

CACHE=${PFP_HA_DOCKER_CACHE:-/var/cache/pfp-docker-ha}
# docker-smoke's kept stand-in sources (debootstrap's tarball, Node): copied once, never written.
SMOKE_STANDIN=${PFP_DOCKER_CACHE:-/var/cache/pfp-docker}/standin
PROJECT=pfp-ha-smoke
PORT=${HA_SMOKE_PORT:-18090}
BASE=http://localhost:$PORT
DOCKER=/usr/bin/docker
COMPOSE_BIN=/usr/bin/docker-compose
NODE=$ROOT/node_modules/.bin/node
USE=$ROOT/scripts/docker-smoke/use.mjs
HA=$ROOT/scripts/docker-smoke/ha.mjs

NODE_IMAGE=${NODE_IMAGE:-node:24-bookworm-slim}
NGINX_IMAGE=${NGINX_IMAGE:-nginx:1.27-alpine}
DEBIAN_IMAGE=${DEBIAN_IMAGE:-debian:bookworm-slim}

RUN_DIR=/run/pfp-docker-ha
SOCK=/tmp/ha-docker.sock
ADDRESS_POOL=${HA_SMOKE_ADDRESS_POOL:-10.213.0.0/16}
WORK=$(mktemp -d /tmp/pfp-docker-ha-smoke.XXXXXX)
LOGS=$CACHE/logs

compose() { "$COMPOSE_BIN" -p "$PROJECT" -f "$ROOT/docker/compose.yaml" --profile ha "$@"; }
failure_logs() {
  echo '--- last logs'
  compose logs --no-color --tail=40 pg1 pg2 haproxy server-ha
}
SMOKE=docker-ha-smoke
# shellcheck source=docker-smoke/lib.sh
source "$ROOT/scripts/docker-smoke/lib.sh"

mkdir -p "$LOGS"
[ "$(id -u)" = 0 ] || die 'needs root: it may install packages and starts a Docker daemon'
[ -x "$NODE" ] || die "$NODE missing: run \`npx -y pnpm@10 install\` first"

# ---------------------------------------------------------------------------------------------
log 'Docker engine (a private one)'
install_docker
start_dockerd --default-address-pool "base=$ADDRESS_POOL,size=24"
"$DOCKER" version --format 'engine {{.Server.Version}}, client {{.Client.Version}}'
compose down -v --remove-orphans --timeout 5 >/dev/null 2>&1 || true
phase_done 'engine up'

# ---------------------------------------------------------------------------------------------
log 'base images'
have() { "$DOCKER" image inspect "$1" >/dev/null 2>&1; }
if have "$NODE_IMAGE" && have "$NGINX_IMAGE" && have "$DEBIAN_IMAGE"; then
  log "bases present: $NODE_IMAGE, $NGINX_IMAGE, $DEBIAN_IMAGE"
elif timeout 20 "$DOCKER" pull -q "$DEBIAN_IMAGE" >/dev/null 2>&1; then
  "$DOCKER" pull -q "$NODE_IMAGE" && "$DOCKER" pull -q "$NGINX_IMAGE"
  log "bases pulled: $NODE_IMAGE, $NGINX_IMAGE, $DEBIAN_IMAGE"
else
  log 'no registry answers: stand-in bases from Debian packages and the npm registry'
  NODE_IMAGE=pfp-standin/node:24 NGINX_IMAGE=pfp-standin/nginx:1.22 DEBIAN_IMAGE=pfp-standin/debian:bookworm
  mkdir -p "$CACHE/standin"
  if [ ! -s "$CACHE/standin/bookworm-minbase.tar" ] && [ -s "$SMOKE_STANDIN/bookworm-minbase.tar" ]; then
    cp "$SMOKE_STANDIN/bookworm-minbase.tar" "$CACHE/standin/"
    [ -d "$SMOKE_STANDIN/node/node" ] && mkdir -p "$CACHE/standin/node" &&
      cp -a "$SMOKE_STANDIN/node/node" "$SMOKE_STANDIN/node/npm" "$CACHE/standin/node/"
    echo "  docker-smoke's stand-in sources copied from $SMOKE_STANDIN"
  fi
  bash "$ROOT/scripts/docker-smoke/standin-bases.sh" "$CACHE/standin" "$DOCKER"
fi
export NODE_IMAGE NGINX_IMAGE DEBIAN_IMAGE
phase_done 'base images'

# ---------------------------------------------------------------------------------------------
export PFP_IMAGE_PREFIX=pfp-ha-smoke PFP_TAG=latest HA_GATEWAY_PORT=$PORT HA_PUBLIC_URL=$BASE SEED_DEMO=1
SECRET_KEY=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
export SECRET_KEY
compose config -q
log 'the compose file with --profile ha: docker-compose 1.29 accepts it'

build() { # build <name> <dockerfile> <context> <target> [build args…]
  local name=$1 file=$2 ctx=$3 target=$4 t=$SECONDS
  shift 4
  DOCKER_BUILDKIT=1 "$DOCKER" build --network host --progress plain -f "$file" --target "$target" "$@" \
    -t "$PFP_IMAGE_PREFIX/$name:$PFP_TAG" "$ctx" >"$LOGS/build-$name.log" 2>&1 ||
    { tail -60 "$LOGS/build-$name.log" >&2; die "build of $name failed"; }
  echo "  built $name in $((SECONDS - t)) s"
}
log 'building the images'
for target in etcd patroni haproxy; do
  build "$target" "$ROOT/docker/ha/Dockerfile" "$ROOT/docker/ha" "$target" --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE"
done
apps=(--build-arg "NODE_IMAGE=$NODE_IMAGE" --build-arg "NGINX_IMAGE=$NGINX_IMAGE")
build server "$ROOT/docker/Dockerfile" "$ROOT" server "${apps[@]}"
for app in host trader pricer volatility; do
  build "$app" "$ROOT/docker/Dockerfile" "$ROOT" app --build-arg "APP=$app" "${apps[@]}"
done
# The kept cache stays bounded: untagged images, build cache beyond 5 GB.
"$DOCKER" image prune -f >/dev/null
"$DOCKER" builder prune -f --keep-storage 5gb >/dev/null
mb() { "$DOCKER" image inspect -f '{{.Size}}' "$1" | awk '{ printf "%.0f", $1 / 1e6 }'; }
echo "  image sizes (MB): etcd $(mb "$PFP_IMAGE_PREFIX/etcd:latest"), patroni $(mb "$PFP_IMAGE_PREFIX/patroni:latest"), haproxy $(mb "$PFP_IMAGE_PREFIX/haproxy:latest") on $DEBIAN_IMAGE $(mb "$DEBIAN_IMAGE")"
phase_done 'images built'

# ---------------------------------------------------------------------------------------------
# The project's containers straight from the engine (docker-compose 1.29 takes seconds a call here).
cid() { "$DOCKER" ps -aq --filter "label=com.docker.compose.project=$PROJECT" --filter "label=com.docker.compose.service=$1"; }
wait_healthy() { # wait_healthy <seconds> <service>...
  local limit=$1 svc t=$SECONDS states
  shift
  for _ in $(seq 1 "$limit"); do
    local all=1
    # "<service> <state> <status>": running, and healthy or without a health check (the gateway)
    states=$("$DOCKER" ps -a --filter "label=com.docker.compose.project=$PROJECT" \
      --format '{{.Label "com.docker.compose.service"}} {{.State}} {{.Status}}')
    for svc in "$@"; do
      grep -q "^$svc " <<<"$states" || all=0
      if grep "^$svc " <<<"$states" | grep -qv ' running Up' ||
        grep "^$svc " <<<"$states" | grep -q -e 'health: starting' -e '(unhealthy)'; then
        all=0
      fi
    done
    if [ "$all" = 1 ]; then
      echo "  healthy after $((SECONDS - t)) s: $*"
      return 0
    fi
    sleep 1
  done
  echo "$states" >&2
  die "not healthy in $limit s: $*"
}
# The members as Patroni's REST API on <member> sees them: "pg1:leader:running pg2:sync_standby:running".
members() {
  "$DOCKER" exec "$(cid "$1")" python3 -c "
import json, urllib.request
c = json.load(urllib.request.urlopen('http://127.0.0.1:8008/cluster', timeout=2))
print(' '.join(m['name'] + ':' + m['role'] + ':' + m.get('state', '') for m in c['members']))" 2>/dev/null
}
log 'starting the ha profile (gateway-ha and what it depends on)'
STACK_UP=1
compose up -d --no-build gateway-ha
wait_healthy 300 etcd1 etcd2 etcd3 pg1 pg2 haproxy server-ha host trader pricer volatility gateway-ha
for i in $(seq 1 120); do
  m=$(members pg1 || true)
  [[ "$m" == *leader:running* && "$m" == *sync_standby:* ]] && break
  [ "$i" = 120 ] && die "no synchronous standby in 60 s: $m"
  sleep 0.5
done
echo "  Patroni: $m"
sync=$("$DOCKER" exec "$(cid "$(echo "$m" | tr ' ' '\n' | awk -F: '$2 == "leader" { print $1 }')")" \
  psql -U pfp -d pfp -Atc "select application_name || ' ' || sync_state from pg_stat_replication")
[[ "$sync" == *' sync'* ]] || die "the standby does not replicate synchronously: $sync"
echo "  the leader's pg_stat_replication: $sync"
mapfile -t replicas < <(cid server-ha)
[ "${#replicas[@]}" = 2 ] || die "expected 2 server replicas, got ${#replicas[@]}"
"$NODE" "$USE" wait "$BASE"
compose ps
phase_done 'ha profile up'

log 'through the gateway: a trader signs in, makes a customer and a contract; the first fix'
"$NODE" "$USE" trader "$BASE" "$WORK/trader.json"
"$NODE" "$HA" contract "$BASE" "$WORK/trader.json" "$WORK/state.json"
phase_done 'contract and first fix'

# ---------------------------------------------------------------------------------------------
started() { "$DOCKER" inspect -f '{{.Id}} {{.State.StartedAt}} {{.RestartCount}} {{.State.Status}}' "$@"; }
before=$(started "${replicas[@]}")
leader=$(members pg1 | tr ' ' '\n' | awk -F: '$2 == "leader" { print $1 }')
case "$leader" in pg1) survivor=pg2 ;; pg2) survivor=pg1 ;; *) die "no leader: $(members pg1)" ;; esac
log "killing the Patroni primary's container ($leader): its machine is lost"
"$DOCKER" kill "$(cid "$leader")" >/dev/null
t_kill=$(date +%s.%N)
"$NODE" "$HA" fix-again "$BASE" "$WORK/state.json" "$WORK/fix-again.json" &
fix_pid=$!
# A new primary: the survivor's own Patroni answers 200 on /primary.
survivor_id=$(cid "$survivor")
for i in $(seq 1 240); do
  if "$DOCKER" exec "$survivor_id" curl -fsS -o /dev/null --max-time 1 http://127.0.0.1:8008/primary 2>/dev/null; then
    t_primary=$(date +%s.%N)
    break
  fi
  [ "$i" = 240 ] && die "no new primary within 60 s"
  sleep 0.25
done
no_primary=$(awk -v a="$t_kill" -v b="$t_primary" 'BEGIN { printf "%.1f", b - a }')
echo "  $survivor is the primary: ${no_primary} s without a primary"
awk -v s="$no_primary" 'BEGIN { exit !(s <= 30) }' || die "the time without a primary, $no_primary s, is over 30 s"
wait "$fix_pid" || die 'the second fix failed'
[ "$(started "${replicas[@]}")" = "$before" ] || die "a server replica was restarted: $before → $(started "${replicas[@]}")"
echo "  both server replicas the same containers, not restarted: $(started "${replicas[@]}" | awk '{ printf "%s %s restarts %s; ", substr($1, 1, 12), $4, $3 }')"
"$NODE" "$HA" books "$BASE" "$WORK/state.json"
echo "  Patroni after the failover: $(members "$survivor")"
echo "  the killed container: $("$DOCKER" inspect -f '{{.State.Status}}' "$(cid "$leader")")"
phase_done 'primary killed, failover, fixes kept'

log 'stopping the stack'
compose down -v --remove-orphans --timeout 5 >/dev/null 2>&1
STACK_UP=
phase_done 'stack down'

log 'timings'
printf '  %s\n' "${TIMINGS[@]}"
printf '  %-44s %4ss\n' total "$((SECONDS - T0))"
printf '  %-44s %5ss\n' 'time without a primary (kill → new primary)' "$no_primary"
log 'docker-ha-smoke: passed'
