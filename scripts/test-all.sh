#!/usr/bin/env bash
# Every test of the product: lint, types, unit and integration suites, then the Playwright suites
# of each app against the built product. Called by the README's test command and by .ci/run.
# Prints each stage's time at the end (docs/testing.md has the budget: 12 minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh

times=()
stage() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  times+=("$(printf '%-10s %4d s' "$name" $((SECONDS - start)))")
}
report() {
  [ ${#times[@]} -eq 0 ] && return
  echo "stage times:"
  printf '  %s\n' "${times[@]}"
  printf '  %-10s %4d s\n' total "$SECONDS"
}
trap report EXIT

# Stages at once, where one leaves a core idle: `side_by_side 'NAME=COMMAND …' …`. The first's output shows as it
# runs, the others' is kept and printed once each ends; the script fails if any did.
side_by_side() {
  local dir pids=() names=() failed=0 start=$SECONDS i=0 spec name cmd
  dir=$(mktemp -d)
  for spec in "$@"; do
    name=${spec%%=*}
    read -ra cmd <<<"${spec#*=}"
    (
      s=$SECONDS rc=0
      if [ $i -eq 0 ]; then "${cmd[@]}" || rc=$?; else "${cmd[@]}" >"$dir/$name.log" 2>&1 || rc=$?; fi
      echo "$((SECONDS - s))" >"$dir/$name.time"
      exit $rc
    ) &
    pids+=($!) names+=("$name") i=$((i + 1))
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || failed=1
    if [ -f "$dir/${names[$i]}.log" ]; then
      echo "── ${names[$i]} ──"
      cat "$dir/${names[$i]}.log"
    fi
    times+=("$(printf '%-10s %4d s' "${names[$i]}" "$(cat "$dir/${names[$i]}.time")")")
  done
  times+=("$(printf '%-10s %4d s' "  (all)" $((SECONDS - start)))")
  rm -rf "$dir"
  return $failed
}

# Everything built first (packages, server, apps), so what follows runs its own tasks only (turbo `--only`) and no two
# turbo runs build the same package at once.
stage build pnpm build
# The server's vitest but the chaos CI form (started first: the long pole), and beside it the other packages' vitest,
# lint and the typecheck: the server's suite leaves a core ~25 % idle (its kill, restart and failover waits), which
# they fill (docs/testing.md).
TEST_CHAOS=apart side_by_side 'server=pnpm --filter @pfp/server test' \
  'packages=pnpm exec turbo run test --concurrency=1 --only --filter=!@pfp/server' 'lint=pnpm lint' \
  'typecheck=pnpm typecheck'
# The chaos form is 5 minutes of real time at a few fixes a second (~120 CPU-s): it runs beside the browser suites.
side_by_side 'e2e=pnpm e2e:suites' 'chaos=pnpm test:chaos'
