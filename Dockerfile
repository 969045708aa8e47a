# syntax=docker/dockerfile:1
# The portal as production runs it (docs/operations.md): compiled API and built web app, production
# dependencies only, non-root. Build: docker build -t oficina-online . ; run: deploy/compose.yaml.

FROM node:20.20-bookworm-slim AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY apps/redsys-sim/package.json apps/redsys-sim/
COPY packages/contract/package.json packages/contract/
COPY packages/redsys/package.json packages/redsys/

FROM manifests AS build
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM manifests AS deps
# The API's dependencies and its workspace packages' (redsys, the simulator's), nothing of dev.
RUN npm ci --omit=dev --no-audit --no-fund --workspace @portal/api

FROM node:20.20-bookworm-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/var/lib/portal
WORKDIR /app
# The whole install, not only the root node_modules: npm nests a package under its workspace when
# another version of it is hoisted (negotiator 1.x under apps/api, 0.6 at the root for koa).
COPY --from=deps /app ./
COPY --from=build /app/apps/api/dist apps/api/dist
COPY --from=build /app/apps/web/dist apps/web/dist
# The web app's server build: /login is sent already rendered (in the tenant's branding and language).
COPY --from=build /app/apps/web/dist-ssr apps/web/dist-ssr
RUN mkdir -p /var/lib/portal && chown node:node /var/lib/portal
USER node
EXPOSE 3000
# On the port the server listens on (PORT may be changed at run time).
HEALTHCHECK --interval=10s --timeout=3s CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/livez`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
# The flags of apps/api/src/node-flags.ts (the server collects its garbage on its main thread).
CMD ["node", "--single-threaded-gc", "apps/api/dist/server.js"]
