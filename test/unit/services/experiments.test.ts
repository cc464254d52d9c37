// The results request's own rules that need no engine: times as the API reads them, and how a results timeseries
// stops (its caller gone, its time limit spent), over a runner that answers like ClickHouse, slowly.
import { describe, expect, it } from 'vitest'
import type { QueryRunner } from '../../../src/analysis/clickhouse.js'
import { parseTime } from '../../../src/services/experiments/request.js'
import { ExperimentService } from '../../../src/services/experiments/service.js'
import type { MetricService } from '../../../src/services/metrics.js'
import { AppError, Refusal } from '../../../src/shared/errors.js'
import type { Metric } from '../../../src/state/redis/metrics.js'
import type { Environment, Workspace } from '../../../src/state/redis/tenancy.js'

describe('parseTime', () => {
  it('refuses dates the calendar does not have, instead of rolling them into the next month', () => {
    for (const text of [
      '2026-02-30',
      '2026-04-31',
      '2026-02-29T12:00:00Z',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '2026-01-01T24:00:00Z',
      '2026-01-01T12:60Z',
      '2026-01-01T12:00:60Z',
      '2026-01-01T12:00:00+25:00',
    ]) {
      const error = (() => {
        try {
          parseTime('from', text)
        } catch (e) {
          return e
        }
      })()
      expect(error, text).toBeInstanceOf(Refusal)
      expect((error as Refusal).details, text).toEqual([expect.objectContaining({ field: 'from' })])
    }
  })
  it('reads real dates, leap days, offsets, fractions and epoch milliseconds', () => {
    expect(parseTime('to', '2028-02-29T12:00:00Z')).toBe(Date.UTC(2028, 1, 29, 12))
    expect(parseTime('to', '2026-03-01')).toBe(Date.UTC(2026, 2, 1))
    expect(parseTime('to', '2026-12-31T23:59:59Z')).toBe(Date.UTC(2026, 11, 31, 23, 59, 59))
    expect(parseTime('to', '2026-03-01T10:00+02:00')).toBe(Date.UTC(2026, 2, 1, 8))
    expect(parseTime('to', '2026-03-01T10:00:00.123Z')).toBe(Date.UTC(2026, 2, 1, 10, 0, 0, 123))
    expect(parseTime('to', '1764000000000')).toBe(1764000000000)
  })
})

describe('results over time', () => {
  const metric = {
    id: 'm',
    name: 'm',
    type: 'count_per_key',
    trafficType: 'user',
    eventTypeId: 'buy',
    desiredDirection: 'increase',
  } as Metric
  const metrics = { many: async () => [metric] } as unknown as MetricService
  let queries = 0
  const slow: QueryRunner = async () => {
    queries++
    await new Promise((r) => setTimeout(r, 40))
    return ['off', 'on'].map((treatment) => ({ treatment, keys: 100, n0: 100, s0: 50, q0: 50 }))
  }
  const service = new ExperimentService(slow, { events: 'e', impressions: 'i' }, metrics)
  const req = { flag: 'f', metricIds: ['m'], from: 0, to: 10 * 3_600_000 }
  const ws = { id: 'w' } as Workspace
  const env = { id: 'e', workspaceId: 'w' } as Environment

  it('gives a point per interval, the last ending at to', async () => {
    const series = await service.timeseries(ws, env, { ...req, to: 3 * 3_600_000 - 1 }, 'hour')
    expect(series.points.map((p) => p.to)).toEqual([
      new Date(3_600_000).toISOString(),
      new Date(7_200_000).toISOString(),
      new Date(3 * 3_600_000 - 1).toISOString(),
    ])
  })

  it('stops when its caller goes away, and fails at its time limit, saying so', async () => {
    const gone = new AbortController()
    queries = 0
    const stopped = service.timeseries(ws, env, req, 'hour', { signal: gone.signal })
    setTimeout(() => gone.abort(), 100)
    await expect(stopped).rejects.toThrow(/caller went away/)
    expect(queries).toBeLessThan(5)
    const late = await service.timeseries(ws, env, req, 'hour', { timeoutMs: 100 }).catch((e: unknown) => e)
    expect(late).toBeInstanceOf(AppError)
    expect(late).toMatchObject({ code: 'QUERY_LIMIT', retriable: false })
    expect((late as Error).message).toMatch(/took longer than 0 s \(\d of 10 points\)/)
  })
})
