#!/usr/bin/env node
// A change beside the commit before it: `npm run bench` sections run for this build and for another
// one (a worktree of the earlier commit, built), alternating, one run each time, so the machine's
// drift falls on both alike; prints each figure's median and spread per build.
//   git worktree add /tmp/base <commit> && (cd /tmp/base && ln -s "$PWD/node_modules" . && npm run build)
//   node bench/ab.mjs --base /tmp/base --only events,webhooks [--pairs 3]
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'

const { values: opts } = parseArgs({
  options: {
    base: { type: 'string' },
    only: { type: 'string', default: 'events,webhooks' },
    pairs: { type: 'string', default: '3' },
  },
})
if (!opts.base) throw new Error('--base <dir of the earlier build> is required')

/** The figures compared: a path in bench/results/latest.json and how it is shown. */
const FIGURES = [
  ['events.clickhouseInsert.median', 'raw ClickHouse inserts, rows/s'],
  ['events.clickhousePreEncoded.median', 'pre-encoded ClickHouse inserts, rows/s'],
  ['events.bodies.500.endToEnd.median', 'events end to end, bodies of 500, events/s'],
  ['events.bodies.500.cpuUsPerEvent.median', 'Sluice CPU per event, bodies of 500, µs'],
  ['events.bodies.5000.endToEnd.median', 'events end to end, bodies of 5000, events/s'],
  ['events.bodies.5000.cpuUsPerEvent.median', 'Sluice CPU per event, bodies of 5000, µs'],
  ['webhooks.bareFastify.median', 'bare Fastify, req/s'],
  ['webhooks.allRoles.rps.median', 'webhooks all roles, req/s'],
  ['webhooks.allRoles.endToEnd.median', 'webhooks all roles end to end, payloads/s'],
  ['webhooks.allRoles.cpuUsPerPayload.median', 'Sluice CPU per webhook payload, all roles, µs'],
  ['webhooks.edgeOnly.rps.median', 'webhooks edge only, req/s'],
  ['webhooks.edgeOnly.cpuUsPerPayload.median', 'Sluice CPU per webhook payload, edge only, µs'],
  ['webhooks.alertsConsumer.messagesPerSecond', 'alerts consumer alone, payloads/s'],
]
const at = (obj, path) => path.split('.').reduce((o, k) => o?.[k], obj)
const builds = { base: join(opts.base, 'bin/sluice.js'), this: 'bin/sluice.js' }
const seen = { base: [], this: [] }
for (let pair = 0; pair < Number(opts.pairs); pair++) {
  // The order swaps every pair, so neither build always runs on a machine the other has just warmed.
  const order = pair % 2 === 0 ? ['base', 'this'] : ['this', 'base']
  for (const name of order) {
    console.error(`[ab] pair ${pair + 1}: ${name}`)
    execFileSync(process.execPath, ['bench/run.mjs', '--runs', '1', '--only', opts.only, '--bin', builds[name]], {
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    seen[name].push(JSON.parse(readFileSync('bench/results/latest.json', 'utf8')))
  }
}
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return { median: s[Math.floor(s.length / 2)], min: s[0], max: s.at(-1) }
}
const fmt = (x) => (x >= 100 ? Math.round(x).toLocaleString('en') : x.toFixed(1))
console.log(`| figure | ${opts.base} | this build | ratio |\n|---|---|---|---|`)
for (const [path, label] of FIGURES) {
  const a = seen.base.map((r) => at(r, path)).filter((x) => typeof x === 'number')
  const b = seen.this.map((r) => at(r, path)).filter((x) => typeof x === 'number')
  if (a.length === 0 || b.length === 0) continue
  const [sa, sb] = [stats(a), stats(b)]
  console.log(
    `| ${label} | ${fmt(sa.median)} (${fmt(sa.min)}–${fmt(sa.max)}) | ${fmt(sb.median)} (${fmt(sb.min)}–${fmt(sb.max)}) | ${(sb.median / sa.median).toFixed(2)} |`,
  )
}
