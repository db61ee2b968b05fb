# Capa in one image: Bun (from npm, as package.json pins it) serving /api, /v2 and the admin app on port 3000,
# with every SQLite file under the /data volume.
#
#   docker build -t capa .
#   docker run -p 3000:3000 -v capa-data:/data capa
#
# The first start prints the owner's login and two read keys once: read them with `docker logs`.

# Stage 1: production dependencies only. npm ci runs Bun's postinstall, which puts the native
# binary for this platform at node_modules/.bin/bun (and Litestream's, for replication).
FROM node:20-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force \
 && node_modules/.bin/bun --version

# Stage 2: the admin app, bundled by Bun into fingerprinted, precompressed files (admin/dist),
# and the server bundled into dist/server (what `npm start` runs: it starts faster and idles
# smaller than the sources; docs/performance.md). React and the app's other libraries are dev
# dependencies, so this stage installs everything; only its output reaches the image
# (docs/configuration.md, "Production install").
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY admin ./admin
COPY src ./src
COPY scripts/build-admin.ts scripts/build-server.ts ./scripts/
RUN node_modules/.bin/bun scripts/build-admin.ts \
 && node_modules/.bin/bun scripts/build-server.ts

# Stage 3: the runtime. node stays because the Litestream launcher is a Node script;
# ca-certificates lets Litestream reach S3 over TLS.
FROM node:20-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates tini \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system capa \
 && useradd --system --gid capa --home-dir /app --shell /usr/sbin/nologin capa \
 && mkdir -p /data \
 && chown capa:capa /data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
# The sources stay for the committed migrations, which the bundle reads at start.
COPY src ./src
COPY --from=build /app/admin/dist ./admin/dist
COPY --from=build /app/dist/server ./dist/server

# MALLOC_ARENA_MAX=2: glibc's malloc keeps a heap per thread (up to 8 per core), and memory that
# image decoding freed stays in them; two arenas hand most of it back (docs/performance.md).
ENV HOST=0.0.0.0 CAPA_DATA_DIR=/data PORT=3000 NODE_ENV=production MALLOC_ARENA_MAX=2 PATH=/app/node_modules/.bin:$PATH
VOLUME /data
EXPOSE 3000
USER capa

# GET /api/versions needs no key; behind a CDN (CAPA_EDGE_SECRET set) it carries the edge header too.
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["bun", "-e", "const e = process.env.CAPA_EDGE_SECRET; fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/versions', { headers: e ? { 'x-svc-edge': e } : {} }).then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# tini forwards SIGTERM to Bun (which drains in-flight requests) and reaps the Litestream child.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["bun", "dist/server/main.js"]
