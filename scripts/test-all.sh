#!/usr/bin/env bash
# Every test of the product: lint, types, unit and integration suites, then the Playwright suites
# of each app against the built product. Called by the README's test command and by .ci/run.
# Prints each stage's time at the end (docs/testing.md has the budget: 12 minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh

# Stage times go to a file: the lanes below run in subshells of their own.
times=$(mktemp)
stage() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  printf '  %-12s %4d s  (ended at %d s)\n' "$name" $((SECONDS - start)) "$SECONDS" >>"$times"
}
report() {
  echo "stage times:"
  cat "$times"
  printf '  %-12s %4d s\n' total "$SECONDS"
  rm -f "$times"
}
trap report EXIT

# Commands at once: `side_by_side 'NAME=COMMAND …' …` (a COMMAND may be a function below). The first's output shows
# as it runs, the others' is kept and printed once each ends; the script fails if any did.
side_by_side() {
  local dir pids=() names=() failed=0 i=0 spec name cmd
  dir=$(mktemp -d)
  for spec in "$@"; do
    name=${spec%%=*}
    read -ra cmd <<<"${spec#*=}"
    (
      if [ $i -eq 0 ]; then stage "$name" "${cmd[@]}"; else stage "$name" "${cmd[@]}" >"$dir/$name.log" 2>&1; fi
    ) &
    pids+=($!) names+=("$name") i=$((i + 1))
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || failed=1
    if [ -f "$dir/${names[$i]}.log" ]; then
      echo "── ${names[$i]} ──"
      cat "$dir/${names[$i]}.log"
    fi
  done
  rm -rf "$dir"
  return $failed
}

# Three at once once the build is done, each lane starting its next stage as soon as its last one ends: the machine
# is CPU-bound throughout, and a barrier between stages left a core idle at each stage's tail (docs/testing.md).
#   checks: the packages' vitest but the server's (one package at a time), lint and the typecheck side by side, then
#     the Playwright suites;
#   server: the server's vitest on both databases, all but the chaos CI form (`TEST_CHAOS=apart`);
#   chaos: the chaos CI form — 5 minutes of real time at a few fixes a second (~120 CPU-s), so it goes from the start
#     (after the server's suite it ran on, the critical path, with a core idle: 1,200 s against 1,023).
checks_lane() {
  side_by_side 'packages=pnpm exec turbo run test --concurrency=1 --only --filter=!@pfp/server' 'lint=pnpm lint' \
    'typecheck=pnpm exec turbo run typecheck --concurrency=1 --only'
  stage e2e pnpm e2e:suites
}

# Everything built first (packages, server, apps), so the lanes run their own tasks only (turbo `--only`) and no two
# turbo runs build the same package at once.
stage build pnpm build
side_by_side 'checks=checks_lane' 'server=env TEST_CHAOS=apart pnpm --filter @pfp/server test' 'chaos=pnpm test:chaos'
