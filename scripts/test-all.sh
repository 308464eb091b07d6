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

stage lint pnpm lint
stage typecheck pnpm typecheck
stage test pnpm test
stage e2e pnpm e2e
