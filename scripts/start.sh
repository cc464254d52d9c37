#!/bin/sh
# npm start: install dependencies, bring the local stack up, create the demo account, serve.
set -e
cd "$(dirname "$0")/.."
npm install --no-audit --no-fund --loglevel=error
npm run --silent build
node bin/sluice.js stack up
mkdir -p .sluice
node bin/sluice.js bootstrap --json > .sluice/demo.json
echo "Demo account and SDK keys: $(pwd)/.sluice/demo.json"
echo "Sluice listens on http://${SLUICE_HOST:-127.0.0.1}:${SLUICE_PORT:-8080} (Ctrl-C stops it; 'npx sluice stack down' stops Kafka, ClickHouse and Redis)"
exec node bin/sluice.js serve
