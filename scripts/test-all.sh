#!/usr/bin/env bash
# Every test of the product: lint, types, unit and integration suites, then the Playwright suites
# of each app against the built product. Called by the README's test command and by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
pnpm lint
pnpm typecheck
pnpm test
pnpm e2e
