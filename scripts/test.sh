#!/bin/sh
# npm test: install what is missing, then the whole suite. The suite's global setup builds dist/ and
# finds Kafka, ClickHouse and Redis (env vars, else Docker via testcontainers, else `sluice stack up`).
set -e
cd "$(dirname "$0")/.."
npm install --no-audit --no-fund --loglevel=error
exec npx vitest run "$@"
