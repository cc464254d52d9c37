#!/bin/sh
# npm start: install dependencies, bring the local stack up, create the demo account, serve.
set -e
cd "$(dirname "$0")/.."
npm install --no-audit --no-fund --loglevel=error
npm run --silent build
node bin/sluice.js stack up
mkdir -p .sluice
# The key HMAC secrets of alert senders are sealed with: made once for this checkout (production sets its own).
[ -s .sluice/secrets-key ] || (umask 077 && node -e "process.stdout.write(require('crypto').randomBytes(32).toString('base64'))" > .sluice/secrets-key)
SLUICE_SECRETS_KEY="${SLUICE_SECRETS_KEY:-$(cat .sluice/secrets-key)}"
export SLUICE_SECRETS_KEY
node bin/sluice.js bootstrap --json > .sluice/demo.json
echo "Demo account and SDK keys: $(pwd)/.sluice/demo.json"
echo "Sluice listens on http://${SLUICE_HOST:-127.0.0.1}:${SLUICE_PORT:-8080} (Ctrl-C stops it; 'npx sluice stack down' stops Kafka, ClickHouse and Redis)"
echo "The console: http://${SLUICE_HOST:-127.0.0.1}:${SLUICE_PORT:-8080}/console/ (sign in with adminApiKey from .sluice/demo.json)"
exec node bin/sluice.js serve
