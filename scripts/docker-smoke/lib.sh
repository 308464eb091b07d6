# What scripts/docker-smoke.sh and scripts/docker-ha-smoke.sh share: their log lines, Debian's
# Docker packages, a private dockerd and its teardown. Sourced; the caller sets SMOKE (its name
# in log lines), DOCKER, COMPOSE_BIN, CACHE, RUN_DIR and SOCK, and defines compose() and
# failure_logs() (what to print from the stack when the run fails).

T0=$SECONDS
T_PHASE=$SECONDS
TIMINGS=()
DOCKERD_PID=
STACK_UP=
log() { printf '\n[%s %s +%ss] %s\n' "$SMOKE" "$(date -u +%H:%M:%S)" "$((SECONDS - T0))" "$*"; }
phase_done() {
  TIMINGS+=("$(printf '%-44s %4ss' "$1" "$((SECONDS - T_PHASE))")")
  T_PHASE=$SECONDS
}
die() {
  echo "$SMOKE: $*" >&2
  exit 1
}

# Debian's client (20.10, BuildKit built in), docker-compose 1.29 and debootstrap (the stand-ins).
install_docker() {
  local missing=()
  [ -x /usr/sbin/dockerd ] && [ -x "$DOCKER" ] || missing+=(docker.io)
  [ -x "$COMPOSE_BIN" ] || missing+=(docker-compose)
  command -v debootstrap >/dev/null || missing+=(debootstrap)
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]} from Debian"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" ||
      { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; }
  fi
}

# start_dockerd [dockerd args…]: a private daemon with its own data root, exec root and socket; no
# bridge, no iptables. setsid: it and its containerd stay out of the caller's process group (a
# Ctrl-C reaches the script, whose trap stops them in order).
start_dockerd() {
  [ -e "$RUN_DIR" ] && die "$RUN_DIR exists: another $SMOKE run is going on, or one was killed (see its dockerd there)"
  mkdir -p "$RUN_DIR" "$CACHE/data-root"
  log "starting a private dockerd (data root $CACHE/data-root, socket $SOCK${*:+, $*})"
  setsid /usr/sbin/dockerd \
    --data-root "$CACHE/data-root" --exec-root "$RUN_DIR/exec" --pidfile "$RUN_DIR/dockerd.pid" \
    --host "unix://$SOCK" --storage-driver overlay2 \
    --iptables=false --ip6tables=false --bridge=none "$@" \
    >"$RUN_DIR/dockerd.log" 2>&1 </dev/null &
  DOCKERD_PID=$!
  export DOCKER_HOST=unix://$SOCK
  local i
  for i in $(seq 1 120); do
    "$DOCKER" info >/dev/null 2>&1 && return 0
    kill -0 "$DOCKERD_PID" 2>/dev/null || { cat "$RUN_DIR/dockerd.log" >&2; die 'dockerd exited'; }
    sleep 0.5
  done
  tail -30 "$RUN_DIR/dockerd.log" >&2
  die 'dockerd did not answer in 60 s'
}

# The EXIT trap: the stack down (its logs first when the run failed), the private daemon stopped
# and what it leaves mounted when it dies (network namespaces, overlay layers) unmounted.
cleanup() {
  local rc=$?
  set +e
  trap - EXIT INT TERM
  log "cleaning up (exit status $rc)"
  if [ -n "$STACK_UP" ]; then
    if [ "$rc" -ne 0 ]; then
      echo '--- container states' >&2
      compose ps >&2
      failure_logs >&2
    fi
    compose down -v --remove-orphans --timeout 5 >/dev/null 2>&1
  fi
  if [ -n "$DOCKERD_PID" ]; then
    kill -TERM "$DOCKERD_PID" 2>/dev/null
    for _ in $(seq 1 60); do kill -0 "$DOCKERD_PID" 2>/dev/null || break; sleep 0.5; done
    if kill -0 "$DOCKERD_PID" 2>/dev/null; then
      echo "$SMOKE: dockerd $DOCKERD_PID did not stop, killing it" >&2
      kill -KILL "$DOCKERD_PID" 2>/dev/null
      sleep 1
    fi
    mount | awk -v a="$RUN_DIR" -v b="$CACHE/" 'index($3, a) == 1 || index($3, b) == 1 { print $3 }' |
      sort -r | while read -r m; do umount -l "$m" 2>/dev/null; done
    rm -rf "$RUN_DIR" "$SOCK"
  fi
  rm -rf "$WORK"
  log "total $((SECONDS - T0)) s"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
