// The alerts sink's handling of a script call Redis refuses as a whole, with a scripted stand-in for
// the Redis connection (only its answers matter here; the sink on a real Redis is
// test/integration/alerts-sink.test.ts, where such a refusal cannot be made to pass).
import { describe, expect, it } from 'vitest'
import type { Redis } from 'ioredis'
import type { NormalizedAlert } from '../../../../src/pipeline/alerts/render.js'
import { contentDigest, RedisAlertSink, type MessageWrite } from '../../../../src/sinks/redis-stream/alerts.sink.js'

type Reply = [Error | null, unknown]

/** A connection whose pipelines answer with the next scripted replies; records the runs each call carried. */
function scriptedRedis(answers: ((runs: number[][]) => Reply[])[]) {
  const calls: number[][][] = []
  const redis = {
    defineCommand: () => undefined,
    pipeline: () => {
      const runs: number[][] = []
      return {
        sluice_alertsWrite: (...args: (string | number)[]) => {
          // numkeys, keys..., field, maxlen, max age, previous, count, prefix, samples, their ttl, then 15 args per
          // message (its offset first).
          const keys = Number(args[0])
          const count = Number(args[keys + 5])
          runs.push(Array.from({ length: count }, (_, i) => Number(args[keys + 9 + i * 15])))
        },
        exec: () => {
          calls.push(runs)
          return Promise.resolve(answers.shift()!(runs))
        },
      }
    },
  }
  return { redis: redis as unknown as Redis, calls }
}

const messages = (count: number): MessageWrite[] =>
  Array.from({ length: count }, (_, i) => ({
    topic: 'alerts',
    partition: 0,
    offset: BigInt(i),
    integrationId: 'i1',
    alerts: [] as NormalizedAlert[],
    rejections: [],
  }))

const refusedWhole = (): Reply => [Object.assign(new Error('ERR Error running script'), { name: 'ReplyError' }), null]

describe('RedisAlertSink.write', () => {
  it('after a call refused as a whole, writes it and every call after it one message per call, leaving none behind', async () => {
    const { redis, calls } = scriptedRedis([
      // Runs of 100: the first refused whole, the second then found its predecessor unrecorded.
      (runs) => [refusedWhole(), [null, []], ...runs.slice(2).map((): Reply => [null, []])],
      // One message per call: each written.
      (runs) => runs.map((): Reply => [null, [1]]),
    ])
    const results = await new RedisAlertSink(redis, { prefix: 'p:', maxLen: 1000, maxAgeMs: 60_000 }).write(
      messages(150),
    )
    expect(calls.map((c) => c.length)).toEqual([2, 150])
    expect(results).toEqual(Array.from({ length: 150 }, () => 'written'))
  })

  it('reports a message refused whole when written alone in its place, and the messages after it as blocked', async () => {
    const { redis } = scriptedRedis([
      (runs) => [refusedWhole(), ...runs.slice(1).map((): Reply => [null, []])],
      (runs) => [[null, [1]], refusedWhole(), ...runs.slice(2).map((): Reply => [null, []])],
    ])
    const results = await new RedisAlertSink(redis, { prefix: 'p:', maxLen: 1000, maxAgeMs: 60_000 }).write(messages(4))
    expect(results[0]).toBe('written')
    expect(results[1]).toMatchObject({ code: 'SINK_REFUSED_DATA', retriable: false })
    expect(results.slice(2)).toEqual(['blocked', 'blocked'])
  })
})

describe('contentDigest', () => {
  const fields = [
    ...['severity', 'warning', 'description', 'disk full', 'source', 'am', 'service', 'db', 'dedupKey', 'k1'],
    ...['status', 'firing', 'timestamp', '2026-11-29T10:00:00.000Z', 'receivedAt', '2026-11-29T10:00:01.000Z'],
    ...['integrationId', 'i1', 'requestId', 'r1', 'customFields', '{"host":"a"}'],
  ]
  const changed = (name: string, value: string) => fields.map((v, i) => (i > 0 && fields[i - 1] === name ? value : v))

  it('is the same for another delivery of the same content (status, times of receipt, request, key, integration)', () => {
    const again = [
      ['status', 'acknowledged'],
      ['receivedAt', 'x'],
      ['requestId', 'r2'],
      ['dedupKey', 'k2'],
      ['integrationId', 'i2'],
    ]
    for (const [name, value] of again) expect(contentDigest(changed(name!, value!)), name).toBe(contentDigest(fields))
  })

  it('differs when anything the alert says differs, and cannot be matched by moving text between fields', () => {
    const digests = new Set([
      contentDigest(fields),
      contentDigest(changed('severity', 'critical')),
      contentDigest(changed('customFields', '{"host":"b"}')),
      contentDigest(changed('timestamp', '2026-11-29T10:00:02.000Z')),
      contentDigest([...fields, 'tags', '["paged"]']),
      // The service's text moved into the description: the same characters in another field.
      contentDigest(
        changed('description', 'disk full\u0000service\u00002\u0000db').filter((_, i) => i !== 6 && i !== 7),
      ),
    ])
    expect(digests.size).toBe(6)
  })
})
