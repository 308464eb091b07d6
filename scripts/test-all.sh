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

# Lint and the type check side by side: lint is mostly one process (ESLint) and tsc leaves a core free half its
# time, so together they take ~30 s less than one after the other on 2 cores (docs/testing.md). Each one's output
# is printed whole once both end; the script fails if either did.
side_by_side() {
  local dir pids=() names=() failed=0 start=$SECONDS i
  dir=$(mktemp -d)
  for name in "$@"; do
    (
      s=$SECONDS
      rc=0
      pnpm "$name" >"$dir/$name.log" 2>&1 || rc=$?
      echo "$((SECONDS - s))" >"$dir/$name.time"
      exit $rc
    ) &
    pids+=($!)
    names+=("$name")
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || failed=1
    echo "── ${names[$i]} ──"
    cat "$dir/${names[$i]}.log"
    times+=("$(printf '%-10s %4d s' "${names[$i]}" "$(cat "$dir/${names[$i]}.time")")")
  done
  times+=("$(printf '%-10s %4d s' "  (both)" $((SECONDS - start)))")
  rm -rf "$dir"
  return $failed
}

side_by_side lint typecheck
stage test pnpm test
stage e2e pnpm e2e
