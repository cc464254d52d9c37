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
# The independent SCIM compliance tester (scim2-cli's `test`, scim2-tester), pinned, in a venv of its own.
SCIM_VENV=.sluice/venv-scim2
if [ ! -x "$SCIM_VENV/bin/scim2" ]; then
  python3 -m venv "$SCIM_VENV" 2>/dev/null || { apt-get install -y -q python3-venv >/dev/null && python3 -m venv "$SCIM_VENV"; }
  "$SCIM_VENV/bin/pip" install --quiet --disable-pip-version-check scim2-cli==0.6.0 scim2-tester==0.5.2 scim2-client==0.13.2 scim2-models==0.12.3 pydantic==2.14.3 click==8.5.1
fi
# scipy, statsmodels and GrowthBook's gbstats, the independent statistics the experiment results are checked against,
# and icalendar (with dateutil), the independent reader of on-call schedules' feeds (pinned).
STATS_VENV=.sluice/venv-stats
if [ ! -x "$STATS_VENV/bin/python" ] || ! "$STATS_VENV/bin/python" -c 'import gbstats, scipy, statsmodels, icalendar' 2>/dev/null; then
  python3 -m venv "$STATS_VENV" 2>/dev/null || { apt-get install -y -q python3-venv >/dev/null && python3 -m venv "$STATS_VENV"; }
  "$STATS_VENV/bin/pip" install --quiet --disable-pip-version-check gbstats==0.8.0 scipy==1.17.1 numpy==1.26.4 pandas==1.5.3 statsmodels==0.14.4 icalendar==6.3.1
fi
# aiosmtpd, a real SMTP server the notification tests deliver mail to (pinned, in a venv of its own).
SMTP_VENV=.sluice/venv-smtp
if [ ! -x "$SMTP_VENV/bin/python" ] || ! "$SMTP_VENV/bin/python" -c 'import aiosmtpd' 2>/dev/null; then
  python3 -m venv "$SMTP_VENV" 2>/dev/null || { apt-get install -y -q python3-venv >/dev/null && python3 -m venv "$SMTP_VENV"; }
  "$SMTP_VENV/bin/pip" install --quiet --disable-pip-version-check aiosmtpd==1.4.6
fi
# Debian's Chromium for the console's browser tests (driven by playwright-core; no browser can be downloaded).
if [ ! -x /usr/bin/chromium ]; then
  apt-get install -y -q --no-install-recommends chromium >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends chromium >/dev/null; }
fi
# A real Prometheus Alertmanager for the alert-lifecycle test (Debian's package; started by the test itself).
if [ ! -x /usr/bin/prometheus-alertmanager ]; then
  apt-get install -y -q --no-install-recommends prometheus-alertmanager >/dev/null
fi
# promtool, from Debian's prometheus package, checks the alert rules of deploy/prometheus.
if [ ! -x /usr/bin/promtool ]; then
  apt-get install -y -q --no-install-recommends prometheus >/dev/null
fi
exec npx vitest run "$@"
