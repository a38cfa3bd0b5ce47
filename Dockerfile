# syntax=docker/dockerfile:1
# The service image: one image, three roles chosen by the command (docker-compose.yml runs each
# as its own service):
#   npm run api          REST API, stream and /tracker.js on HOST:PORT (the default command)
#   npm run processors   the Kafka pipeline; more copies share the partitions
#   npm run workers      Postgres-driven workers (webhooks, reports, exports, …); safe to run twice
# Every role migrates, creates topics and registers schemas at start (idempotent), so the image
# needs nothing run before it. TypeScript runs directly through tsx, a production dependency.
# The role scripts `exec` tsx, so the SIGTERM of `docker stop` reaches the role through npm (npm
# runs scripts through sh, which would not pass it on) and the role stops cleanly.

# Build stage: dev dependencies, for the browser bundles only.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The console bundle is built when the project has one (npm skips a missing script with --if-present).
RUN npm run build:tracker && npm run --if-present build:console

# Runtime stage: production dependencies, the sources and the built bundles; runs as `node`.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    HOST=0.0.0.0 \
    PORT=3000 \
    DUCKDB_DIR=/app/data/duckdb \
    PARQUET_DIR=/app/data/parquet
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY . .
COPY --from=build /app/dist ./dist
# DuckDB and Parquet warehouse exports are written here (a volume in docker-compose.yml); the rest stays root's, read-only to the service.
RUN mkdir -p data/duckdb data/parquet && chown -R node:node data
USER node
EXPOSE 3000
CMD ["npm", "run", "api"]
