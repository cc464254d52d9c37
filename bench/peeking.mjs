// The peeking problem, measured: A/A experiments (both arms drawn from one distribution, so every "significant" call is
// a false positive) looked at 20 times as their keys come in, each look tested by Sluice's own statistics
// (dist/analysis/frequentist.js: what the results API runs over ClickHouse's sums). An experiment counts as a false
// positive when any of its looks has p < alpha: with fixed-horizon Welch tests the rate climbs far above alpha; with
// the sequential (always-valid) tests it stays at or below it. Seeded: the same figures every run.
//
//   npm run build && node bench/peeking.mjs [--experiments 2000] [--looks 20] [--keys 500] [--alpha 0.05]
//
// --keys is the keys per arm added between two looks. Prints a table and writes bench/results/peeking.json.
import { mkdirSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { compare } from '../dist/analysis/frequentist.js'
import { meanSummary, proportionSummary } from '../dist/analysis/models.js'

const { values: opts } = parseArgs({
  options: {
    experiments: { type: 'string', default: '2000' },
    looks: { type: 'string', default: '20' },
    keys: { type: 'string', default: '500' },
    alpha: { type: 'string', default: '0.05' },
    tuning: { type: 'string', default: '5000' },
    seed: { type: 'string', default: '20261127' },
  },
})
const EXPERIMENTS = Number(opts.experiments)
const LOOKS = Number(opts.looks)
const KEYS = Number(opts.keys)
const ALPHA = Number(opts.alpha)
const TUNING = Number(opts.tuning)

// xorshift128+: fast, seeded, good enough for a simulation of this size.
let s0 = BigInt(opts.seed) | 1n
let s1 = 0x9e3779b97f4a7c15n
const MASK = (1n << 64n) - 1n
function random() {
  let x = s0
  const y = s1
  s0 = y
  x = (x ^ (x << 23n)) & MASK
  s1 = x ^ y ^ (x >> 17n) ^ (y >> 26n)
  return Number((s1 + y) & ((1n << 53n) - 1n)) / 2 ** 53
}
// Box–Muller normals, for the revenue-like metric (lognormal: skewed, as revenue is).
function normal() {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
}

const METRICS = {
  'conversion (p = 0.1)': { draw: () => (random() < 0.1 ? 1 : 0), summary: proportionSummary },
  'revenue (lognormal)': { draw: () => Math.exp(1 + 0.8 * normal()), summary: meanSummary },
}

function simulate(metric) {
  const counts = { fixedAnyLook: 0, fixedLastLook: 0, sequentialAnyLook: 0, sequentialLastLook: 0 }
  for (let e = 0; e < EXPERIMENTS; e++) {
    const arms = [
      { n: 0, sum: 0, sumSquares: 0 },
      { n: 0, sum: 0, sumSquares: 0 },
    ]
    let fixedHit = false
    let sequentialHit = false
    for (let look = 1; look <= LOOKS; look++) {
      for (const arm of arms)
        for (let k = 0; k < KEYS; k++) {
          const x = metric.draw()
          arm.n++
          arm.sum += x
          arm.sumSquares += x * x
        }
      const [a, b] = arms.map((arm) => metric.summary(arm))
      const fixed = compare(a, b, { alpha: ALPHA }).absolute.pValue
      const sequential = compare(a, b, { alpha: ALPHA, sequentialTuning: TUNING }).absolute.pValue
      if (fixed !== null && fixed < ALPHA) fixedHit = true
      if (sequential !== null && sequential < ALPHA) sequentialHit = true
      if (look === LOOKS) {
        if (fixed !== null && fixed < ALPHA) counts.fixedLastLook++
        if (sequential !== null && sequential < ALPHA) counts.sequentialLastLook++
      }
    }
    if (fixedHit) counts.fixedAnyLook++
    if (sequentialHit) counts.sequentialAnyLook++
  }
  return Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v / EXPERIMENTS]))
}

const started = Date.now()
const results = {}
for (const [name, metric] of Object.entries(METRICS)) results[name] = simulate(metric)
const pct = (x) => `${(100 * x).toFixed(1)} %`
// The binomial standard error of a rate near alpha over this many experiments, for reading the table.
const se = Math.sqrt((ALPHA * (1 - ALPHA)) / EXPERIMENTS)
console.log(
  `A/A experiments: ${EXPERIMENTS} per metric, ${LOOKS} looks, ${KEYS} keys per arm between looks (${KEYS * LOOKS} per arm at the end), alpha ${ALPHA}, sequential tuning ${TUNING}; ±${pct(2 * se)} is two standard errors at alpha`,
)
console.log(
  '| metric | fixed-horizon, any of the looks | fixed-horizon, last look only | sequential, any of the looks |',
)
console.log('|---|---|---|---|')
for (const [name, r] of Object.entries(results))
  console.log(`| ${name} | ${pct(r.fixedAnyLook)} | ${pct(r.fixedLastLook)} | ${pct(r.sequentialAnyLook)} |`)
console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`)
mkdirSync(new URL('./results/', import.meta.url), { recursive: true })
writeFileSync(
  new URL('./results/peeking.json', import.meta.url),
  `${JSON.stringify({ experiments: EXPERIMENTS, looks: LOOKS, keysPerLook: KEYS, alpha: ALPHA, tuning: TUNING, results }, null, 2)}\n`,
)
