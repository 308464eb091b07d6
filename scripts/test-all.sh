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

# Two stages at once, where one leaves a core idle: `side_by_side NAME=SCRIPT NAME=SCRIPT`. The first's output
# shows as it runs, the second's is kept and printed once it ends; the script fails if either did.
side_by_side() {
  local dir pids=() names=() failed=0 start=$SECONDS i=0 spec name script
  dir=$(mktemp -d)
  for spec in "$@"; do
    name=${spec%%=*} script=${spec#*=}
    (
      s=$SECONDS rc=0
      if [ $i -eq 0 ]; then pnpm "$script" || rc=$?; else pnpm "$script" >"$dir/$name.log" 2>&1 || rc=$?; fi
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
  times+=("$(printf '%-10s %4d s' "  (both)" $((SECONDS - start)))")
  rm -rf "$dir"
  return $failed
}

# Lint is mostly one process (ESLint) and tsc leaves a core free half its time: together ~30 s less than one after
# the other on 2 cores (docs/testing.md).
side_by_side lint=lint typecheck=typecheck
# Every package's vitest but the chaos CI form, which runs beside the browser suites below.
stage test env TEST_CHAOS=apart pnpm test
stage build pnpm build
# The chaos form is 5 minutes of real time at a few fixes a second: alone it left a core 30 % idle (docs/testing.md).
side_by_side e2e=e2e:suites chaos=test:chaos
