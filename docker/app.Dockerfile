# syntax=docker/dockerfile:1
# One image per static app: docker build -f docker/app.Dockerfile --build-arg APP=trader .
# (build context = repo root). APP is host | trader | pricer | volatility.

FROM node:24-bookworm-slim AS build
ARG APP
# Fail before the slow install when APP is missing or misspelt.
RUN case "$APP" in host|trader|pricer|volatility) ;; \
      *) echo "build arg APP must be host, trader, pricer or volatility (got '$APP')" >&2; exit 1 ;; esac
# pnpm honours package.json's packageManager (pnpm@10.34.9) and switches to it if this differs.
ARG PNPM_VERSION=10
RUN npm i -g pnpm@${PNPM_VERSION}
# The store lives in a BuildKit cache mount under $PNPM_HOME/store, shared by all five images.
ENV PNPM_HOME=/pnpm TURBO_TELEMETRY_DISABLED=1
WORKDIR /repo
COPY . .
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store pnpm install --frozen-lockfile
RUN pnpm turbo run build --filter=@pfp/${APP}
# Lay the build out as nginx will serve it: the host at /, a remote at its Vite base /remotes/<name>/.
RUN set -eu; \
    if [ "$APP" = host ]; then dest=/site; conf=host; else dest=/site/remotes/$APP; conf=remote; fi; \
    mkdir -p "$dest" /conf; \
    cp -R "apps/$APP/dist/." "$dest/"; \
    cp "docker/nginx/$conf.conf" /conf/default.conf

FROM nginx:1.27-alpine
# Own main config: no `user` directive, pid and temp files in /tmp, gzip; so it runs unprivileged.
COPY docker/nginx/nginx.conf /etc/nginx/nginx.conf
COPY --from=build /conf/default.conf /etc/nginx/conf.d/default.conf
COPY --from=build /site /usr/share/nginx/html
RUN chown -R nginx:nginx /var/cache/nginx
# 101 = nginx in the base image (numeric, so runAsNonRoot checks can verify it).
USER 101
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s CMD wget -qO /dev/null http://127.0.0.1:8080/healthz || exit 1
