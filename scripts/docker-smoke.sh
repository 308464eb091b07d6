#!/usr/bin/env bash
# The compose stack built and used through its gateway, as people use it (issue 34). Needs root
# (it may install Debian's docker.io and start a private Docker daemon) and the workspace
# installed (`pnpm install`: Playwright drives scripts/chromium.mjs's chromium, the helpers run on the
# repo's Node). What it does, in order:
#   1. a Docker daemon: the one at DOCKER_HOST or /var/run/docker.sock, else a private one (its
#      own data root under $PFP_DOCKER_CACHE, exec root, socket; no bridge, no iptables);
#   2. base images: NODE_IMAGE, NGINX_IMAGE, POSTGRES_IMAGE when present or pullable, else
#      stand-ins made from Debian's packages (debootstrap, apt) and the npm registry's Node;
#   3. every image built from docker/Dockerfile (one shared workspace stage), host networking;
#   4. the stack started (SEED_DEMO=1) and used through the gateway: pages, remote entries,
#      a 404, a customer's market fix, a trader's sign-in in chromium, a streamed curve;
#   5. the trader app redeployed alone (host, server, gateway keep running, the console loads
#      the new build), the server recreated (orders and sessions survive), two server replicas
#      with one stopped during 100 customer fixes (none lost, none doubled);
#   6. everything it started stopped, its daemon too; no mount or process left behind.
# Kept between runs (a rerun takes minutes): $PFP_DOCKER_CACHE (default /var/cache/pfp-docker),
# outside the clone: the private daemon's images and build cache, the stand-ins' sources.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

CACHE=${PFP_DOCKER_CACHE:-/var/cache/pfp-docker}
PROJECT=pfp-smoke
PORT=${SMOKE_PORT:-18080}
BASE=http://localhost:$PORT
# Debian's client (20.10, BuildKit built in) and docker-compose 1.29: the newer client some
# machines have in /usr/local/bin lacks buildx and cannot build with BuildKit.
DOCKER=/usr/bin/docker
COMPOSE_BIN=/usr/bin/docker-compose
NODE=$ROOT/node_modules/.bin/node
HELPER=$ROOT/scripts/docker-smoke/use.mjs

NODE_IMAGE=${NODE_IMAGE:-node:24-bookworm-slim}
NGINX_IMAGE=${NGINX_IMAGE:-nginx:1.27-alpine}
POSTGRES_IMAGE=${POSTGRES_IMAGE:-postgres:17}

# Private daemon (only when no daemon answers).
RUN_DIR=/run/pfp-docker
SOCK=$RUN_DIR/docker.sock
WORK=$(mktemp -d /tmp/pfp-docker-smoke.XXXXXX)
# The last run's build logs, for a look after it (kept with the cache, outside the clone).
LOGS=$CACHE/logs

compose() {
  # The project's compose file with the smoke's settings; docker-compose v1 (see above).
  "$COMPOSE_BIN" -p "$PROJECT" -f "$ROOT/docker/compose.yaml" "$@"
}
failure_logs() {
  echo '--- last server logs'
  compose logs --no-color --tail=60 server gateway
}
SMOKE=docker-smoke
# shellcheck source=docker-smoke/lib.sh
source "$ROOT/scripts/docker-smoke/lib.sh"

mkdir -p "$LOGS"
[ "$(id -u)" = 0 ] || die 'needs root: it may install packages and start a Docker daemon'
[ -x "$NODE" ] || die "$NODE missing: run \`npx -y pnpm@10 install\` first"

# ---------------------------------------------------------------------------------------------
log 'Docker engine'
install_docker
if [ -n "${DOCKER_HOST:-}" ] && "$DOCKER" info >/dev/null 2>&1; then
  log "using the daemon at $DOCKER_HOST"
elif [ -z "${DOCKER_HOST:-}" ] && [ -S /var/run/docker.sock ] && "$DOCKER" -H unix:///var/run/docker.sock info >/dev/null 2>&1; then
  export DOCKER_HOST=unix:///var/run/docker.sock
  log "using the daemon at $DOCKER_HOST"
else
  start_dockerd
fi
"$DOCKER" version --format 'engine {{.Server.Version}}, client {{.Client.Version}}'
"$COMPOSE_BIN" version --short
# A run killed before its clean-up may have left its stack on a kept data root.
compose down -v --remove-orphans --timeout 5 >/dev/null 2>&1 || true
phase_done 'engine up'

# ---------------------------------------------------------------------------------------------
log 'base images'
have() { "$DOCKER" image inspect "$1" >/dev/null 2>&1; }
REGISTRY=
if have "$NODE_IMAGE" && have "$NGINX_IMAGE" && have "$POSTGRES_IMAGE"; then
  REGISTRY=present
elif timeout 20 "$DOCKER" pull -q "$NODE_IMAGE" >/dev/null 2>&1; then
  "$DOCKER" pull -q "$NGINX_IMAGE" && "$DOCKER" pull -q "$POSTGRES_IMAGE"
  REGISTRY=pulled
fi
if [ -n "$REGISTRY" ]; then
  log "bases $REGISTRY: $NODE_IMAGE, $NGINX_IMAGE, $POSTGRES_IMAGE"
else
  log 'no registry answers: stand-in bases from Debian packages and the npm registry'
  NODE_IMAGE=pfp-standin/node:24
  NGINX_IMAGE=pfp-standin/nginx:1.22
  POSTGRES_IMAGE=pfp-standin/postgres:15
  bash "$ROOT/scripts/docker-smoke/standin-bases.sh" "$CACHE/standin" "$DOCKER"
fi
export NODE_IMAGE NGINX_IMAGE POSTGRES_IMAGE
phase_done 'base images'

# ---------------------------------------------------------------------------------------------
# The compose file's settings for this run (docker-compose reads them from the environment).
export PFP_IMAGE_PREFIX=pfp-smoke PFP_TAG=latest GATEWAY_PORT=$PORT PUBLIC_URL=$BASE SEED_DEMO=1
SECRET_KEY=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
export SECRET_KEY
compose config -q
log 'the compose file: docker-compose 1.29 accepts it'
if docker compose version >/dev/null 2>&1; then
  docker compose -p "$PROJECT" -f "$ROOT/docker/compose.yaml" config -q
  log "and $(docker compose version --short 2>/dev/null || echo 'docker compose v2') accepts it"
else
  log 'docker compose v2 is not installed here: not checked with it'
fi

build() { # build <target> <app or ''> <context>
  local target=$1 app=$2 ctx=$3 name=${2:-server} t=$SECONDS
  DOCKER_BUILDKIT=1 "$DOCKER" build --network host --progress plain \
    -f "$ROOT/docker/Dockerfile" --target "$target" ${app:+--build-arg "APP=$app"} \
    --build-arg "NODE_IMAGE=$NODE_IMAGE" --build-arg "NGINX_IMAGE=$NGINX_IMAGE" \
    -t "$PFP_IMAGE_PREFIX/$name:$PFP_TAG" "$ctx" >"$LOGS/build-$name.log" 2>&1 ||
    { tail -60 "$LOGS/build-$name.log" >&2; die "build of $name failed"; }
  echo "  built $name in $((SECONDS - t)) s"
}
log 'building every image (the workspace stage once, then each target from its cache)'
build server '' "$ROOT"
for app in host trader pricer volatility; do build app "$app" "$ROOT"; done
if [ -n "$DOCKERD_PID" ]; then
  # Its own daemon's kept cache stays bounded (a shared daemon's is left to its owner): images
  # no tag names any more, and the least recently used build cache beyond 5 GB (the pnpm store
  # and turbo's cache are used every run, so they stay).
  "$DOCKER" image prune -f >/dev/null
  "$DOCKER" builder prune -f --keep-storage 5gb >/dev/null
fi
mb() { "$DOCKER" image inspect -f '{{.Size}}' "$1" | awk '{ printf "%.0f", $1 / 1e6 }'; }
echo '  image sizes (MB; what the project adds to its base):'
for name in server host trader pricer volatility; do
  base=$NGINX_IMAGE
  [ "$name" = server ] && base=$NODE_IMAGE
  printf '    %-11s %4s = %-24s %4s + %3s\n' "$name" "$(mb "$PFP_IMAGE_PREFIX/$name:$PFP_TAG")" "$base" "$(mb "$base")" \
    "$(($(mb "$PFP_IMAGE_PREFIX/$name:$PFP_TAG") - $(mb "$base")))"
done
printf '    %-11s %4s\n' postgres "$(mb "$POSTGRES_IMAGE")"
phase_done 'images built'

# ---------------------------------------------------------------------------------------------
wait_healthy() { # wait_healthy <seconds> <service>...
  local limit=$1 svc id state t=$SECONDS
  shift
  for _ in $(seq 1 "$limit"); do
    local all=1
    for svc in "$@"; do
      [ -n "$(compose ps -q "$svc")" ] || all=0
      for id in $(compose ps -q "$svc"); do
        # healthy, or running for a container without a health check (the gateway)
        state=$("$DOCKER" inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}' "$id")
        [ "$state" = healthy ] || [ "$state" = running ] || all=0
      done
    done
    if [ "$all" = 1 ]; then
      echo "  healthy after $((SECONDS - t)) s: $*"
      return 0
    fi
    sleep 1
  done
  compose ps >&2
  die "not healthy in $limit s: $*"
}
log 'starting the stack'
STACK_UP=1
compose up -d --no-build
wait_healthy 120 postgres server host trader pricer volatility
"$NODE" "$HELPER" wait "$BASE"
compose ps
compose logs --no-color server | grep -E "API only|no app builds|demo data" | sed 's/^/  /' || true
if compose logs --no-color server | grep -q 'no app builds found'; then
  die "the server's start-up log says 'no app builds found' although APPS_DIR='' is on purpose"
fi
phase_done 'stack up'

log 'through the gateway: pages, remote entries, 404s'
"$NODE" "$HELPER" pages "$BASE"
log 'a demo customer signs in and a market fix fills'
"$NODE" "$HELPER" customer "$BASE" "$WORK/customer.json"
log 'the WebSocket view streams a curve'
"$NODE" "$HELPER" curve "$BASE"
log 'a trader signs in through the embedded provider in chromium'
"$NODE" "$HELPER" trader "$BASE" "$WORK/trader.json"
phase_done 'stack used through the gateway'

# ---------------------------------------------------------------------------------------------
log 'the trader app redeployed alone'
cid() { compose ps -q "$1"; }
started() { "$DOCKER" inspect -f '{{.Id}} {{.State.StartedAt}}' "$(cid "$1")"; }
before_host=$(started host) before_server=$(started server) before_gateway=$(started gateway)
before_trader=$(cid trader)
# A changed trader build: a copy of the sources with one line more in the remote's module, which
# the console logs when the host loads it.
MARK="pfp-smoke-build-$(date +%s)"
CTX=$WORK/context
mkdir -p "$CTX"
tar -C "$ROOT" --exclude=./.git --exclude=node_modules --exclude=dist --exclude=.turbo \
  --exclude=./data --exclude=./e2e/artifacts -cf - . | tar -C "$CTX" -xf -
printf '\nconsole.info(%s);\n' "'$MARK'" >>"$CTX/apps/trader/src/App.tsx"
build app trader "$CTX"
compose up -d --no-deps --no-build trader
wait_healthy 60 trader
[ "$(cid trader)" != "$before_trader" ] || die 'the trader container was not replaced'
[ "$(started host)" = "$before_host" ] || die 'the host container was restarted'
[ "$(started server)" = "$before_server" ] || die 'the server container was restarted'
[ "$(started gateway)" = "$before_gateway" ] || die 'the gateway container was restarted'
echo '  trader container replaced; host, server and gateway kept running'
"$NODE" "$HELPER" trader "$BASE" "$WORK/trader.json" "$MARK"
phase_done 'trader redeployed alone'

log 'the server recreated: orders and sessions survive on the PostgreSQL volume'
compose up -d --no-deps --no-build --force-recreate server
wait_healthy 90 server
"$NODE" "$HELPER" wait "$BASE"
"$NODE" "$HELPER" survived "$BASE" "$WORK/customer.json" "$WORK/trader.json"
phase_done 'server recreated'

log 'two server replicas; one stopped during 100 customer fixes'
compose up -d --no-deps --no-build --no-recreate --scale server=2 server
wait_healthy 90 server
mapfile -t replicas < <(compose ps -q server)
[ "${#replicas[@]}" = 2 ] || die "expected 2 server replicas, got ${#replicas[@]}"
"$NODE" "$HELPER" fixes "$BASE" "$WORK/customer.json" 100 "$WORK/fixes-progress" &
fixes_pid=$!
progress() { local n; n=$(cat "$WORK/fixes-progress" 2>/dev/null || true); echo "${n:-0}"; }
for _ in $(seq 1 600); do
  [ "$(progress)" -ge 25 ] && break
  kill -0 "$fixes_pid" 2>/dev/null || break
  sleep 0.1
done
victim=${replicas[0]}
echo "  stopping replica $("$DOCKER" inspect -f '{{.Name}}' "$victim") after $(progress) fixes answered"
"$DOCKER" stop -t 0 "$victim" >/dev/null
wait "$fixes_pid" || die 'the fixes did not all succeed'
# Counted in the database itself: one order per client_order_id, all 100 there.
read -r rows keys < <(compose exec -T postgres psql -U pfp -d pfp -At -F ' ' -c \
  "select count(*), count(distinct client_order_id) from orders where client_order_id like 'smoke100-%'")
echo "  orders in the database: $rows rows, $keys distinct client_order_id"
[ "$rows" = 100 ] && [ "$keys" = 100 ] || die "expected 100 orders with 100 keys, got $rows rows with $keys keys"
# And every one of them reaches the simulated broker and ends there, those the stopped replica
# had taken included: filled, or cancelled by the exchange with its reason (a market order finds
# no more volume on the other side when 100 arrive within seconds). None left PENDING or ALIVE.
for i in $(seq 1 60); do
  statuses=$(compose exec -T postgres psql -U pfp -d pfp -At -F ' ' -c \
    "select status, count(*) from orders where client_order_id like 'smoke100-%' group by status order by status" | tr '\n' ' ')
  open=$(compose exec -T postgres psql -U pfp -d pfp -At -c \
    "select count(*) from orders where client_order_id like 'smoke100-%' and status in ('PENDING', 'ALIVE')")
  [ "$open" = 0 ] && break
  [ "$i" = 60 ] && die "after 60 s the 100 fixes are: $statuses"
  sleep 1
done
echo "  their statuses: $statuses"
phase_done 'replicas: 100 fixes, one replica stopped'

log 'stopping the stack'
compose down -v --remove-orphans --timeout 5 >/dev/null 2>&1
STACK_UP=
phase_done 'stack down'

log 'timings'
printf '  %s\n' "${TIMINGS[@]}"
printf '  %-44s %4ss\n' total "$((SECONDS - T0))"
log 'docker-smoke: passed'
