// A read stopped at its limits answers with the limit it hit, not as an outage to retry: the same read
// fails the same way until the window or the limit changes (found at 100 million events by the bench's
// growth section, where the generic "did not answer in time" hid a memory limit).
import type { ClickHouseClient } from '@clickhouse/client'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { expect, it } from 'vitest'
import { clickhouseRunner } from '../../../src/analysis/clickhouse.js'
import { prepareError } from '../../../src/http/errors.js'
import { AppError } from '../../../src/shared/errors.js'

const refusing = (code: string) =>
  ({
    query: async () => {
      throw Object.assign(new Error('DB::Exception: limit exceeded'), { code })
    },
  }) as unknown as ClickHouseClient

const answer = (error: unknown) => {
  const headers = new Map<string, string>()
  const request = { log: { error() {}, warn() {} } } as unknown as FastifyRequest
  const reply = {
    hasHeader: (name: string) => headers.has(name),
    header: (name: string, value: string) => headers.set(name, value),
  } as unknown as FastifyReply
  return { http: prepareError(error as never, request, reply), headers }
}

it('names the memory or time limit a results query hit', async () => {
  const limits = { timeoutMs: 120_000, maxMemoryBytes: 8 * 2 ** 30 }
  const query = { text: 'SELECT 1', params: {}, purpose: 'the experiment results query' }
  for (const [code, limit] of [
    ['241', /memory limit of 8589934592 bytes \(SLUICE_EXPERIMENT_MAX_MEMORY_BYTES\)/],
    ['159', /time limit of 120000 ms \(SLUICE_EXPERIMENT_QUERY_TIMEOUT_MS\)/],
  ] as const) {
    const err = await clickhouseRunner(refusing(code), limits)(query as never).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AppError)
    expect((err as AppError).retriable).toBe(false)
    const { http, headers } = answer(err)
    expect(http.statusCode).toBe(503)
    // Asked again it fails the same way: no Retry-After.
    expect(headers.has('retry-after')).toBe(false)
    expect(http.message).toMatch(limit)
    expect(http.message).toMatch(/narrow the window or raise the limit/)
  }
  // An outage is still the generic, retriable answer.
  const outage = answer(new AppError('SINK_UNAVAILABLE', 'connect ECONNREFUSED', true))
  expect(outage.http.message).toMatch(/retry later/)
  expect(outage.headers.has('retry-after')).toBe(true)
})
