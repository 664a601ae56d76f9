# syntax=docker/dockerfile:1
# Parley in one image: the server (Node runs its TypeScript directly: type stripping, hence
# Node 24), the built agent web app (web/dist) and widget (widget/dist). See docs/operations.md.
#
#   docker build -t parley .
#   docker run -p 9000:9000 -v parley-data:/data parley

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: every dependency (dev ones included), then the web app and the widget ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Manifests first: the dependency layer is reused until they change.
COPY package.json package-lock.json ./
COPY server/package.json server/
COPY web/package.json web/
COPY widget/package.json widget/
# Scripts off: the root postinstall would build before the sources are here, and the pinned
# `node` devDependency would download a second Node. esbuild (Vite) is set up on its own.
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild esbuild
COPY server server
COPY web web
COPY widget widget
RUN npm run build --workspace web --workspace widget
# The migrated image of the embedded database (server/src/db/image.ts): a first start on an
# empty /data loads it instead of creating and migrating a database.
RUN node server/scripts/build-db-image.ts

# ---- production dependencies only (the server's) ----
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY server/package.json server/
COPY web/package.json web/
COPY widget/package.json widget/
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --workspace server --include-workspace-root \
  && npm cache clean --force

# ---- runtime ----
FROM ${NODE_IMAGE} AS runtime
# glibc's allocator: two arenas, and blocks of 128 KB or more mapped and returned to the system
# when freed (docs/operations.md, "Memory").
ENV NODE_ENV=production \
    PORT=9000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072 \
    MALLOC_TRIM_THRESHOLD_=131072
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules node_modules
COPY --chown=root:root package.json package-lock.json ./
COPY --chown=root:root server/package.json server/package.json
COPY --chown=root:root server/src server/src
COPY --from=build --chown=root:root /app/server/.cache server/.cache
COPY --from=build --chown=root:root /app/web/dist web/dist
COPY --from=build --chown=root:root /app/widget/dist widget/dist
# The code belongs to root and is read-only to the service; only DATA_DIR and Node's compile
# cache are its own.
RUN mkdir -p /data server/.cache/compile && chown node:node /data server/.cache/compile
USER node
# Node's compile cache (server/src/start.mjs), filled at build by the user and with the flags
# of CMD (Node keys the cache by both): the server starts without stripping its TypeScript
# again, and never loads the stripper.
RUN node --max-semi-space-size=8 --heap-growing-percent=20 server/src/start.mjs --warm-compile-cache
# The embedded database (pgdata/), the uploads and the generated secret key, unless
# DATABASE_URL / S3_BUCKET / SECRET_KEY say otherwise.
VOLUME ["/data"]
EXPOSE 9000
# /ready answers 200 once the server listens and its database answers (503 otherwise).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||9000)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# main.ts stops gracefully on SIGTERM (stops accepting, drains requests, closes sockets with
# 1001, releases job claims) within 15 s; give `docker stop -t` at least 20.
STOPSIGNAL SIGTERM
# Semi-spaces of 8 MB, as `npm start` runs it (V8 sizes them from the host's memory otherwise).
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=20", "server/src/start.mjs"]
