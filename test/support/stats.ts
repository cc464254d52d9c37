// What the experiment statistics tests share: a seeded generator (the same experiment every run), the independent
// implementations run in the stats venv (scipy, gbstats, statsmodels), and the 1e-6 relative agreement asked of them.
import { spawnSync } from 'node:child_process'
import { expect } from 'vitest'

const PYTHON = '.sluice/venv-stats/bin/python'

/** A linear congruential generator of numbers in [0, 1) from `seed`. */
export function seeded(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
}

/**
 * Mulberry32: seeded uniform numbers in [0, 1) of simulation quality (32-bit integer arithmetic throughout), for
 * simulations that draw millions of normals; `seeded` above is enough to generate test data, not for those.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** What a test/compat script computes from `input` (JSON on its stdin and stdout). */
export function independent<T>(script: string, input: unknown): T {
  const run = spawnSync(PYTHON, [script], { input: JSON.stringify(input), encoding: 'utf8', maxBuffer: 64 << 20 })
  if (run.status !== 0) throw new Error(`${script} failed: ${run.stderr}`)
  return JSON.parse(run.stdout) as T
}

/** Equal to 1e-6 relative (absolute below 1e-12, where relative has no meaning). */
export function close(actual: number, reference: number, what: string): void {
  const scale = Math.max(Math.abs(reference), 1e-12 / 1e-6)
  expect(Math.abs(actual - reference) / scale, `${what}: ${actual} against ${reference}`).toBeLessThanOrEqual(1e-6)
}

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** A test's estimate, p-value and interval against the reference's (a bound the reference leaves open: null). */
export function closeEstimate(got: Json, want: Json, what: string): void {
  expect(want['error'], what).toBeNull()
  close(got['estimate'], want['estimate'], `${what} estimate`)
  close(got['pValue'], want['pValue'], `${what} p`)
  want['ci'].forEach((bound: number | null, i: number) => {
    if (bound === null) expect(got['ci'][i], `${what} ci ${i} is open`).toBeNull()
    else close(got['ci'][i], bound, `${what} ci ${i}`)
  })
}
