#!/bin/sh
# npm test: install what is missing, then the whole suite. The suite's global setup builds dist/ and
# finds Kafka, ClickHouse and Redis (env vars, else Docker via testcontainers, else `sluice stack up`).
set -e
cd "$(dirname "$0")/.."
npm install --no-audit --no-fund --loglevel=error
# Split's own Python client, for the compatibility test of the Admin API (pinned, in a venv of its own).
VENV=.sluice/venv-splitapiclient
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import splitapiclient' 2>/dev/null; then
  python3 -m venv "$VENV" 2>/dev/null || { apt-get install -y -q python3-venv >/dev/null && python3 -m venv "$VENV"; }
  "$VENV/bin/pip" install --quiet --disable-pip-version-check splitapiclient==3.5.9 requests==2.32.3
fi
exec npx vitest run "$@"
