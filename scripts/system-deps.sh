#!/usr/bin/env bash
# Installs what the tests need from Debian's packages: chromium for Playwright (never a downloaded
# browser), PostgreSQL for the database suites, a CJK font so screenshots show Chinese, and etcd,
# Patroni and HAProxy for the failover suite.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
# The same build without the desktop browser: what the Playwright suites run in (1.5x less CPU, docs/testing.md).
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
fc-list 2>/dev/null | grep -qiE 'wqy|noto sans cjk' || missing+=(fonts-wqy-microhei)
# The failover suite's topology (scripts/ha-local.sh, docs/ha.md).
command -v etcd >/dev/null || missing+=(etcd-server)
command -v patroni >/dev/null || missing+=(patroni)
command -v haproxy >/dev/null || missing+=(haproxy)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing from Debian: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
  echo "need root (or sudo) to install: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
