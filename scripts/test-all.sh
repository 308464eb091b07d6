#!/usr/bin/env bash
# Every test of the product: lint, types, unit and integration suites, then the Playwright suites
# of each app against the built product. Called by the README's test command and by .ci/run.
# Prints each stage's time at the end (docs/testing.md has the budget: 12 minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
# Node's compile cache on disk (Node ≥ 22) for every Node process of the run: the packages' vitest starts a worker
# per file and the fault suites ~40 servers, each compiling the same modules again without it (docs/testing.md).
export NODE_COMPILE_CACHE=${NODE_COMPILE_CACHE:-$PWD/node_modules/.cache/node-compile}

times=$(mktemp)
report() {
  echo "stage times (took, and the second of the run it ended at):"
  sort -t'@' -k2 -n "$times" | sed 's/@/ ended at /'
  printf '  %-10s %4d s\n' total "$SECONDS"
  rm -f "$times"
}
trap report EXIT
stage() {
  local name=$1 start=$SECONDS
  shift
  "$@" || {
    printf '  %-10s %4d s, FAILED @%d s\n' "$name" $((SECONDS - start)) "$SECONDS" >>"$times"
    return 1
  }
  printf '  %-10s %4d s @%d s\n' "$name" $((SECONDS - start)) "$SECONDS" >>"$times"
}

# `at_once NAME=FUNCTION …`: each at once. The first's output shows as it runs, each other's once it has ended; fails
# if any failed.
at_once() {
  local dir spec pids=() names=() failed=0 i
  dir=$(mktemp -d)
  for spec in "$@"; do
    # shellcheck disable=SC2086 # the command's words
    if [ ${#pids[@]} -eq 0 ]; then ${spec#*=} & else ${spec#*=} >"$dir/${spec%%=*}.log" 2>&1 & fi
    pids+=($!) names+=("${spec%%=*}")
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

# The server's vitest on both databases, but the chaos CI form (its own lane below).
server_suite() { TEST_CHAOS=apart stage server pnpm --filter @pfp/server test; }
# The chaos CI form: 5 minutes of real time at a few fixes a second (~120 CPU-s).
chaos_form() { stage chaos pnpm test:chaos; }
# The Playwright suites: the longest lane (two chains of ~7 minutes of tests), so it starts with the others.
browsers() { stage e2e pnpm e2e:suites; }
# Every other package's and app's vitest as projects of one run (vitest.packages.ts), lint and the typecheck.
checks() {
  at_once packages='stage packages pnpm exec vitest run --config vitest.packages.ts' lint='stage lint pnpm lint' \
    typecheck='stage typecheck pnpm typecheck'
}

# Everything built first (packages, server, apps): the suites after it test the build, and no two build it at once.
stage build pnpm build
# Then four lanes with no barrier between them: the command is CPU-bound on 2 cores, and each lane's waits (the fault
# suites' kills and restarts, the chaos form's minutes, the browsers' round trips) are filled by the others' work
# (docs/testing.md).
at_once server=server_suite e2e=browsers chaos=chaos_form checks=checks
