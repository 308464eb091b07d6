# syntax=docker/dockerfile:1
# API/WebSocket/OIDC server: docker build -f docker/server.Dockerfile . (build context = repo root).

FROM node:24-bookworm-slim AS build
# pnpm honours package.json's packageManager (pnpm@10.34.9) and switches to it if this differs.
ARG PNPM_VERSION=10
RUN npm i -g pnpm@${PNPM_VERSION}
ENV PNPM_HOME=/pnpm TURBO_TELEMETRY_DISABLED=1
WORKDIR /repo
COPY . .
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store pnpm install --frozen-lockfile
RUN pnpm turbo run build --filter=@pfp/server
# Production node_modules of the server alone. pnpm 10's deploy otherwise requires
# inject-workspace-packages=true; --legacy works with the workspace as configured.
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store \
    pnpm --filter @pfp/server deploy --prod --legacy /out

FROM node:24-bookworm-slim
WORKDIR /app
# package.json carries "type": "module", which dist/main.js (ESM) needs.
COPY --from=build /out/package.json ./
COPY --from=build /out/node_modules ./node_modules
# Copied explicitly rather than trusting deploy's file selection; workspace packages are bundled in.
COPY --from=build /repo/apps/server/dist ./dist
# Created here so the volume starts out owned by the unprivileged user.
RUN mkdir -p /data && chown node:node /data
# HOST must be 0.0.0.0 to be reachable from outside the container; APPS_DIR="" = serve no
# app builds (the nginx images do).
ENV NODE_ENV=production NODE_OPTIONS=--enable-source-maps \
    HOST=0.0.0.0 PORT=8080 APPS_DIR="" DATA_DIR=/data
USER node
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/health').then(r=>r.json()).then(b=>process.exit(b.result==='ok'?0:1),()=>process.exit(1))"]
CMD ["node", "dist/main.js"]
