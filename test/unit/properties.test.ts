// Property tests (fast-check) of the code that meets hostile input first: the JSON body parser of
// every route, event validation and rejection rows, and alert rendering with the built-in and with
// generated mappings. Each property says "never throws, and what comes out is storable"; the
// generators favour what broke before: lone surrogates, prototype keys, non-finite numbers, deep
// nesting, long strings. Runs are bounded by count and time so the suite stays fast.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createLogger } from '../../src/shared/logger.js'
import { createMetrics } from '../../src/shared/metrics.js'
import type { InboundMessage } from '../../src/broker/ports.js'
import { ClickHouseConsumer } from '../../src/consumers/clickhouse.consumer.js'
import { EVENTS_CODEC } from '../../src/consumers/events.consumer.js'
import { IMPRESSIONS_CODEC } from '../../src/consumers/impressions.consumer.js'
import { IMPRESSION_HEADERS } from '../../src/broker/messages/impressions.js'
import { parseJsonBody } from '../../src/http/json-body.js'
import { HttpError } from '../../src/http/errors.js'
import { ALERT_TEMPLATES, TEMPLATE_IDS } from '../../src/pipeline/alerts/templates.js'
import { renderTemplate, renderWithWriter, rootView, toView } from '../../src/pipeline/alerts/moustache.js'
import { checkMapping, renderAlerts, SEVERITIES, type RenderOutcome } from '../../src/pipeline/alerts/render.js'
import { EVENT_HEADERS } from '../../src/broker/messages/events.js'
import { processEvent } from '../../src/pipeline/events.js'
import type { ImpressionRow } from '../../src/pipeline/impressions.js'
import { MAX_RAW_CHARS, type RejectionRow } from '../../src/pipeline/rows.js'
import { findJsonProblem, inspectJson, isCleanJson, MAX_JSON_DEPTH } from '../../src/shared/json-checks.js'
import { MemorySink } from '../support/memory-table-sink.js'

const RUN = { numRuns: 300, interruptAfterTimeLimit: 8000 } as const
const meta = {
  environmentId: 'env',
  accountId: 'acc',
  receivedAtMs: 1_700_000_000_999,
  sdkVersion: 'nodejs-10',
  requestId: 'req',
}
const source = { topic: 'events', partition: 0, offset: 7n, index: 0 }
const ctx = { integrationId: 'int-1', requestId: 'req-1', receivedAtMs: 1_700_000_000_000 }

// ---- generators -------------------------------------------------------------------------------

/** Any UTF-16 code units, lone surrogates included (fc.string yields well-formed text only). */
const codeUnits = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 24 })
  .map((units) => String.fromCharCode(...units))
const surrogateHeavy = fc
  .array(fc.oneof(fc.integer({ min: 0xd800, max: 0xdfff }), fc.integer({ min: 0x20, max: 0x7e })), {
    minLength: 1,
    maxLength: 8,
  })
  .map((units) => String.fromCharCode(...units))
const RESERVED = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'join',
  'length',
  'map',
  '0',
  '',
]
const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 2, arbitrary: codeUnits },
  { weight: 2, arbitrary: surrogateHeavy },
  { weight: 1, arbitrary: fc.constantFrom(...RESERVED) },
  { weight: 1, arbitrary: fc.integer({ min: 30_000, max: 300_000 }).map((n) => 'x'.repeat(n)) },
)
const hostileNumber = fc.oneof(
  fc.double(), // includes NaN, ±Infinity, -0
  fc.constantFrom(1e400, -1e400, Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 53 + 1, 4294967296000, 99_999_999_999),
  fc.integer(),
)
const hostileKey = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...RESERVED) },
  { weight: 3, arbitrary: hostileString },
)

/** JSON-shaped values as JSON.parse (or a hostile caller) would hand them over; objects get own `__proto__` keys. */
const { value: hostileValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc
      .array(fc.tuple(hostileKey, tie('value')), { maxLength: 5 })
      .map((entries) => Object.fromEntries(entries) as unknown),
  ),
}))

/** Nesting far past the limit, as arrays, objects or both. */
const deepValue = fc
  .tuple(fc.integer({ min: MAX_JSON_DEPTH - 2, max: 6000 }), fc.constantFrom('array', 'object', 'mixed'))
  .map(([depth, kind]) => {
    let v: unknown = 1
    for (let i = 0; i < depth; i++) v = kind === 'array' || (kind === 'mixed' && i % 2 === 0) ? [v] : { a: v }
    return v
  })

const wellFormedEvent = fc.record({
  eventTypeId: fc.stringMatching(/^[a-z0-9][a-z0-9_.:-]{0,20}$/),
  trafficTypeName: fc.constantFrom('user', 'account'),
  key: fc.string({ minLength: 1, maxLength: 40 }),
  timestamp: fc.integer({ min: 0, max: 4_000_000_000 }),
  value: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null }),
  properties: fc.dictionary(
    fc.string({ maxLength: 12 }),
    fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null)),
    { maxKeys: 5 },
  ),
})

/** A valid event with one field replaced by something hostile (or removed), or a hostile value outright. */
const hostileEvent = fc.oneof(
  wellFormedEvent,
  fc
    .tuple(
      wellFormedEvent,
      fc.constantFrom('eventTypeId', 'trafficTypeName', 'key', 'timestamp', 'value', 'properties', '__proto__'),
      fc.oneof(hostileValue, deepValue, fc.constant(undefined)),
    )
    .map(
      ([event, field, replacement]) =>
        Object.fromEntries([
          ...Object.entries(event).filter(([k]) => k !== field),
          ...(replacement === undefined ? [] : [[field, replacement]]),
        ]) as unknown,
    ),
  fc.tuple(wellFormedEvent, hostileKey, hostileValue).map(([event, name, value]) => ({
    ...event,
    properties: Object.fromEntries([...Object.entries(event.properties), [name, value]]),
  })),
  hostileValue,
  deepValue,
)

// ---- helpers ----------------------------------------------------------------------------------

/** JSON text of a generated value; a value too deep for JSON.stringify's recursion becomes deep text. */
function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null'
  } catch {
    return `${'['.repeat(5000)}${']'.repeat(5000)}`
  }
}

function parse(text: string | Buffer): { err: Error | null; value?: unknown; calls: number; kept?: string } {
  const request: { jsonText?: string } = {}
  const result: { err: Error | null; value?: unknown; calls: number; kept?: string } = { err: null, calls: 0 }
  parseJsonBody(request as never, text, (err, value) => {
    result.kept = request.jsonText
    result.calls++
    result.err = err
    result.value = value
  })
  return result
}

/** Every string in a value (keys included) is well-formed Unicode. */
function allWellFormed(value: unknown): boolean {
  const stack = [value]
  while (stack.length) {
    const v = stack.pop()
    if (typeof v === 'string' && !v.isWellFormed()) return false
    if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (!k.isWellFormed()) return false
        stack.push(child)
      }
    }
  }
  return true
}

function expectStorableOutcomes(outcomes: RenderOutcome[]): void {
  expect(outcomes.length).toBeGreaterThan(0)
  for (const o of outcomes) {
    if (o.ok) {
      expect(SEVERITIES).toContain(o.alert.severity)
      expect(o.alert.description.length).toBeGreaterThan(0)
      expect(o.alert.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      expect(allWellFormed(o.alert)).toBe(true)
      expect(Object.getPrototypeOf(o.alert.customFields)).toBe(Object.prototype)
    } else {
      expect(typeof o.reason).toBe('string')
      expect(o.reason.length).toBeGreaterThan(0)
    }
  }
}

// ---- properties -------------------------------------------------------------------------------

describe('JSON body parser under hostile bodies', () => {
  it('the quick check of clean values agrees with the walk that names problems, at any depth limit, lone surrogates allowed or not', () => {
    fc.assert(
      fc.property(
        fc.oneof(hostileValue, deepValue),
        fc.integer({ min: 1, max: MAX_JSON_DEPTH }),
        fc.boolean(),
        (value, maxDepth, allowLoneSurrogates) => {
          const options = { maxDepth, allowLoneSurrogates }
          expect(isCleanJson(value, options)).toBe(findJsonProblem(value, options) === undefined)
        },
      ),
      RUN,
    )
  })

  const bodies = fc.oneof(
    fc.string({ maxLength: 64 }),
    codeUnits,
    hostileValue.map((v) => JSON.stringify(v) ?? ''),
    // Deep nesting as text (JSON.stringify of a deep value would overflow the test's own stack).
    fc
      .tuple(fc.integer({ min: MAX_JSON_DEPTH - 2, max: 100_000 }), fc.constantFrom(['[', ']'], ['{"a":', '}']))
      .map(([depth, [open, close]]) => `${open.repeat(depth)}1${close.repeat(depth)}`),
    fc
      .tuple(fc.constantFrom('__proto__', 'constructor'), hostileValue)
      .map(([k, v]) => `{"a":{"${k}":${JSON.stringify(v) ?? 'null'}}}`),
    fc.tuple(fc.integer({ min: 0xd800, max: 0xdfff }), fc.boolean()).map(([unit, inKey]) => {
      const escaped = `"a\\u${unit.toString(16)}b"`
      return inKey ? `{${escaped}:1}` : `[${escaped}]`
    }),
    fc.constantFrom('1e400', '[-1e400]', '{"v":1e999}', 'NaN', '', '   ', '\uFEFF[]'),
  )
  // What HTTP hands the parser: bytes, valid UTF-8 or not.
  const payloads = fc.oneof(
    bodies,
    fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
    bodies.map((text) => Buffer.from(text, 'utf8')),
    bodies.map((text) => `\uFEFF${text}`),
  )

  it('answers once: a clean value within the limits, or a 400 that names the problem', () => {
    fc.assert(
      fc.property(payloads, (text) => {
        const result = parse(text)
        const { err, value, calls } = result
        expect(calls).toBe(1)
        if (err) {
          expect(err).toBeInstanceOf(HttpError)
          expect((err as HttpError).statusCode).toBe(400)
          expect(err.message.length).toBeGreaterThan(0)
          expect(err.message.isWellFormed()).toBe(true)
        } else {
          expect(inspectJson(value)).toBeUndefined()
          expect(JSON.parse(JSON.stringify(value))).toEqual(value)
          // The text kept is what the edge publishes as sent: the consumers' JSON.parse must read the same value.
          expect(JSON.parse(result.kept!)).toEqual(value)
        }
      }),
      RUN,
    )
  })

  it('refuses every lone surrogate, every non-finite number and every forbidden key', () => {
    fc.assert(
      fc.property(hostileValue, (value) => {
        const text = JSON.stringify(value)
        if (text === undefined) return
        const { err } = parse(text)
        const bad =
          !allWellFormed(value) || inspectJson(JSON.parse(text)) !== undefined || /"(__proto__)"\s*:/.test(text)
        if (bad) expect(err).toBeInstanceOf(HttpError)
      }),
      RUN,
    )
  })
})

describe('processEvent under hostile records', () => {
  it('never throws: a row whose every string is well-formed, or a rejection with a reason and a bounded raw copy', () => {
    fc.assert(
      fc.property(hostileEvent, (record) => {
        const outcome = processEvent(record, meta, source)
        if (outcome.ok) {
          const row = outcome.row
          expect(allWellFormed(row)).toBe(true)
          expect(Number.isFinite(row.timestamp_ms)).toBe(true)
          expect(row.value === null || Number.isFinite(row.value)).toBe(true)
          const props = JSON.parse(row.properties) as unknown
          expect(props !== null && typeof props === 'object' && !Array.isArray(props)).toBe(true)
        } else {
          const { reason, raw } = outcome.rejection
          expect(reason.length).toBeGreaterThan(0)
          expect(reason.isWellFormed()).toBe(true)
          expect(raw.isWellFormed()).toBe(true)
          expect(raw.length).toBeLessThanOrEqual(MAX_RAW_CHARS)
        }
      }),
      RUN,
    )
  })

  it('a valid event whose key or property carries a lone surrogate is rejected naming that field', () => {
    fc.assert(
      fc.property(
        wellFormedEvent,
        surrogateHeavy.filter((s) => !s.isWellFormed()),
        fc.boolean(),
        (event, bad, inKey) => {
          const record = inKey ? { ...event, key: bad } : { ...event, properties: { ...event.properties, p: bad } }
          const outcome = processEvent(record, meta, source)
          expect(outcome.ok).toBe(false)
          if (!outcome.ok) expect(outcome.rejection.reason).toMatch(inKey ? /^key / : /^properties\.p /)
        },
      ),
      RUN,
    )
  })
})

describe('the events envelope under hostile Kafka messages', () => {
  // Header values reach the consumer decoded from bytes as UTF-8, so they are always well-formed.
  const headerValue = fc.oneof(
    fc.constant(undefined),
    hostileString.map((s) => s.toWellFormed()),
    fc.constantFrom('1700000000000', '-1', '1e400', 'NaN', '99999999999999999'),
  )
  const headers = fc
    .record({
      environment: fc.oneof(fc.constant('env'), headerValue),
      receivedAt: headerValue,
      requestId: headerValue,
      sdkVersion: headerValue,
    })
    .map((h) =>
      Object.fromEntries(
        Object.entries(h)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [EVENT_HEADERS[k as keyof typeof EVENT_HEADERS], v as string]),
      ),
    )
  /** A message body: an array of records as the edge writes it, or anything else a producer could put there. */
  const value = fc.oneof(
    { weight: 4, arbitrary: fc.array(hostileEvent, { maxLength: 8 }).map((records) => jsonText(records)) },
    { weight: 1, arbitrary: hostileValue.map((v) => jsonText(v)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 100, max: 50_000 }).map((depth) => `[${'['.repeat(depth)}${']'.repeat(depth)}]`),
    },
  )
  const messages = fc.array(fc.record({ value, headers }), { minLength: 1, maxLength: 6 })

  it('a batch of any messages is stored whole: every record a row or a rejection at its own position, nothing thrown', async () => {
    await fc.assert(
      fc.asyncProperty(messages, async (generated) => {
        const sink = new MemorySink()
        const consumer = new ClickHouseConsumer(EVENTS_CODEC, sink.sink, createMetrics(), createLogger('silent'))
        const batch: InboundMessage[] = generated.map((m, i) => ({
          offset: BigInt(100 + i),
          value: Buffer.from(m.value, 'latin1'),
          headers: m.headers,
        }))
        await consumer.handle(
          { topic: 'events', partition: 3, highWatermark: 200n, messages: batch },
          { signal: new AbortController().signal },
        )

        const positions = [...sink.rows('events'), ...sink.rows('event_rejections')].map(
          (r) => `${r.source_offset}:${r.source_index}`,
        )
        expect(new Set(positions).size).toBe(positions.length)
        for (const [i, m] of batch.entries()) {
          let parsed: unknown
          try {
            parsed = JSON.parse(m.value.toString('utf8'))
          } catch {
            parsed = undefined
          }
          const expected = Array.isArray(parsed) && m.headers[EVENT_HEADERS.environment] ? parsed.length : 1
          expect(positions.filter((p) => p.startsWith(`${100 + i}:`)).length).toBe(expected)
        }
        for (const row of sink.rows('events')) expect(allWellFormed(row)).toBe(true)
        for (const r of sink.rows<RejectionRow>('event_rejections')) {
          expect(r.reason.length).toBeGreaterThan(0)
          expect(allWellFormed(r)).toBe(true)
        }
      }),
      { numRuns: 200, interruptAfterTimeLimit: 8000 },
    )
  })
})

describe('alert rendering under hostile payloads', () => {
  /** A template's example with one subtree replaced by something hostile, or a hostile value outright. */
  const payloadFor = (example: unknown) =>
    fc.oneof(
      hostileValue,
      deepValue,
      fc
        .tuple(fc.array(fc.nat({ max: 8 }), { maxLength: 4 }), fc.oneof(hostileValue, deepValue))
        .map(([path, replacement]) => {
          const copy = JSON.parse(JSON.stringify(example)) as unknown
          let node = copy as Record<string, unknown>
          for (const step of path) {
            if (node === null || typeof node !== 'object') break
            const keys = Object.keys(node)
            if (keys.length === 0) break
            const key = keys[step % keys.length]!
            if (node[key] === null || typeof node[key] !== 'object') {
              node[key] = replacement
              return copy
            }
            node = node[key] as Record<string, unknown>
          }
          if (node !== null && typeof node === 'object') node['injected'] = replacement
          return copy
        }),
    )

  it.each(TEMPLATE_IDS)('%s: never throws, and every alert is storable', async (id) => {
    const { mapping, example } = ALERT_TEMPLATES[id]
    await fc.assert(
      fc.asyncProperty(payloadFor(example), async (payload) => {
        expectStorableOutcomes(await renderAlerts(mapping, payload, ctx))
      }),
      { numRuns: 150, interruptAfterTimeLimit: 5000 },
    )
  })
})

describe('generated mappings', () => {
  const segment = fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(...RESERVED) },
    { weight: 4, arbitrary: fc.constantFrom('a', 'b', 'x', 'items', 'status', 'level', '0') },
    { weight: 1, arbitrary: fc.stringMatching(/^[a-z]{1,4}$/) },
  )
  const root = fc.oneof(
    { weight: 6, arbitrary: fc.constant('webhook') },
    { weight: 2, arbitrary: fc.constant('item') },
    { weight: 1, arbitrary: fc.constantFrom('.', 'a') },
  )
  const name = fc
    .tuple(root, fc.array(segment, { maxLength: 3 }))
    .map(([r, rest]) => (r === '.' ? '.' : [r, ...rest].join('.')))
  const { template } = fc.letrec<{ template: string }>((tie) => ({
    template: fc
      .array(
        fc.oneof(
          { depthSize: 'small' },
          fc.string({ maxLength: 8 }).map((s) => s.replaceAll('{', '(').replaceAll('}', ')')),
          name.map((n) => `{{${n}}}`),
          name.map((n) => `{{{${n}}}}`),
          name.map((n) => `{{&${n}}}`),
          fc
            .tuple(fc.constantFrom('#', '^'), name, tie('template'))
            .map(([kind, n, inner]) => `{{${kind}${n}}}${inner}{{/${n}}}`),
          fc.constantFrom('{{> partial}}', '{{=<% %>=}}', '{{!comment}}', '{{', '}}'),
        ),
        { maxLength: 4 },
      )
      .map((parts) => parts.join('')),
  }))
  const mapping = fc.record(
    {
      severity: fc.oneof(template, fc.constantFrom('critical', 'warning', '{{webhook.level}}')),
      description: fc.oneof(template, fc.constant('alert')),
      source: fc.oneof(template, fc.constant('generated')),
      service: template,
      timestamp: template,
      correlationId: template,
      customFields: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), template, { maxKeys: 3 }),
      defaults: fc.constant({ severity: 'warning', description: 'generated alert', source: 'fuzz' }),
      splitPath: fc.constantFrom('webhook.items', 'webhook.alerts', 'webhook.__proto__', 'webhook'),
    },
    { requiredKeys: ['severity', 'description', 'source', 'defaults'] },
  )
  const payload = fc.oneof(
    hostileValue,
    fc.record({
      level: fc.constantFrom('critical', 'WARN', 'p1', 'bogus'),
      items: fc.array(hostileValue, { maxLength: 50 }),
      a: hostileValue,
      x: fc.array(fc.string({ maxLength: 2000 }), { maxLength: 200 }),
      status: hostileString,
    }),
  )

  it('renders every template as mustache.js does (the flat path for templates without sections included)', () => {
    const outcome = (render: () => string) => {
      try {
        return { text: render() }
      } catch (err) {
        return { error: String(err) }
      }
    }
    fc.assert(
      fc.property(template, payload, hostileValue, (t, body, item) => {
        fc.pre([body, item].every((v) => inspectJson(v, { maxDepth: 64, allowLoneSurrogates: true }) === undefined))
        const view = rootView({ webhook: toView(body), item: toView(item) })
        expect(outcome(() => renderTemplate(t, view))).toEqual(outcome(() => renderWithWriter(t, view)))
      }),
      { numRuns: 1000, interruptAfterTimeLimit: 10_000 },
    )
  })

  it('a mapping that passes checkMapping renders any payload without throwing, within its budget', async () => {
    let accepted = 0
    await fc.assert(
      fc.asyncProperty(mapping, payload, async (candidate, body) => {
        const checked = checkMapping(candidate)
        if (!checked.ok) {
          for (const p of checked.problems) expect(p.field).toMatch(/^mapping(\.|$)/)
          return
        }
        accepted++
        const started = performance.now()
        expectStorableOutcomes(await renderAlerts(checked.mapping, body, ctx))
        // The CPU budget is 1 s per payload; wall time adds only the yields between slices.
        expect(performance.now() - started).toBeLessThan(5000)
      }),
      { numRuns: 400, interruptAfterTimeLimit: 15_000 },
    )
    expect(accepted).toBeGreaterThan(20)
  })
})

describe('the impressions envelope under hostile Kafka messages', () => {
  const M = 1_764_000_000_000
  const impression = fc.record(
    {
      k: fc.string({ minLength: 1, maxLength: 20 }),
      t: fc.constantFrom('on', 'off', 'v1'),
      m: fc.integer({ min: 0, max: 4_000_000_000_000 }),
      c: fc.option(fc.integer(), { nil: null }),
      r: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
      pt: fc.option(fc.integer({ min: 0, max: M }), { nil: null }),
    },
    { requiredKeys: ['k', 't', 'm'] },
  )
  /** A valid record with one field replaced by something hostile (or removed). */
  const spoil = (record: fc.Arbitrary<Record<string, unknown>>, fields: string[]) =>
    fc.oneof(
      { weight: 2, arbitrary: record },
      {
        weight: 2,
        arbitrary: fc
          .tuple(
            record,
            fc.constantFrom(...fields, '__proto__'),
            fc.oneof(hostileValue, deepValue, fc.constant(undefined)),
          )
          .map(
            ([r, field, v]) =>
              Object.fromEntries([
                ...Object.entries(r).filter(([k]) => k !== field),
                ...(v === undefined ? [] : [[field, v]]),
              ]) as unknown,
          ),
      },
      { weight: 1, arbitrary: hostileValue },
    )
  const group = fc.record({
    f: fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), hostileString),
    i: fc.oneof(
      {
        weight: 4,
        arbitrary: fc.array(spoil(impression, ['k', 't', 'm', 'c', 'r', 'b', 'pt', 'properties']), { maxLength: 6 }),
      },
      { weight: 1, arbitrary: hostileValue },
    ),
  })
  const count = fc.record({
    f: fc.string({ minLength: 1, maxLength: 20 }),
    m: fc.integer({ min: 0, max: M }),
    rc: fc.nat(),
  })
  const keys = (one: string, many: string) =>
    fc.record({
      [one]: fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), hostileString),
      [many]: fc.oneof(
        {
          weight: 4,
          arbitrary: fc.array(fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), hostileString, hostileNumber), {
            maxLength: 6,
          }),
        },
        { weight: 1, arbitrary: hostileValue },
      ),
    })
  const byKind = {
    impressions: spoil(group, ['f', 'i']),
    impression_counts: spoil(count, ['f', 'm', 'rc']),
    unique_keys_ss: spoil(keys('f', 'ks'), ['f', 'ks']),
    unique_keys_cs: spoil(keys('k', 'fs'), ['k', 'fs']),
    telemetry_config: fc.oneof(hostileValue, deepValue),
    telemetry_usage: fc.oneof(hostileValue, deepValue),
  }
  const message = fc.oneof(
    ...Object.entries(byKind).map(([kind, record]) =>
      fc.tuple(
        fc.constant(kind),
        fc.array(record, { maxLength: 5 }).map((r) => jsonText(r)),
      ),
    ),
    fc.tuple(
      fc.constantFrom('', 'nonsense', '__proto__'),
      fc.array(hostileValue, { maxLength: 3 }).map((r) => jsonText(r)),
    ),
    fc.tuple(
      fc.constant('impressions'),
      fc.integer({ min: 100, max: 50_000 }).map((depth) => `[${'['.repeat(depth)}${']'.repeat(depth)}]`),
    ),
  )

  /** How many rows or rejections a record of a kind must become: one per impression or key of a list, else one. */
  const places = (kind: string, record: unknown): number => {
    const list = ({ impressions: 'i', unique_keys_ss: 'ks', unique_keys_cs: 'fs' } as Record<string, string>)[kind]
    const items =
      list && record !== null && typeof record === 'object' && !Array.isArray(record)
        ? (record as Record<string, unknown>)[list]
        : undefined
    return Array.isArray(items) ? items.length : 1
  }

  it('every impression, count, key and telemetry body becomes one row or one rejection at its own position, nothing thrown', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 5 }), async (generated) => {
        const sink = new MemorySink()
        const consumer = new ClickHouseConsumer(IMPRESSIONS_CODEC, sink.sink, createMetrics(), createLogger('silent'))
        const headers = (kind: string) => ({
          [IMPRESSION_HEADERS.environment]: 'env',
          [IMPRESSION_HEADERS.receivedAt]: '1764000000000',
          [IMPRESSION_HEADERS.requestId]: 'req',
          [IMPRESSION_HEADERS.kind]: kind,
          [IMPRESSION_HEADERS.impressionsMode]: 'DEBUG',
        })
        const batch: InboundMessage[] = generated.map(([kind, text], i) => ({
          offset: BigInt(100 + i),
          value: Buffer.from(text, 'utf8'),
          headers: headers(kind),
        }))
        await consumer.handle(
          { topic: 'impressions', partition: 1, highWatermark: 200n, messages: batch },
          { signal: new AbortController().signal },
        )

        const tables = ['impressions', 'impression_counts', 'unique_keys', 'sdk_telemetry', 'impression_rejections']
        const rows = tables.flatMap((table) => sink.rows(table))
        const positions = rows.map((r) => `${r.source_offset}:${r.source_index}`)
        expect(new Set(positions).size).toBe(positions.length)
        for (const [i, [kind, text]] of generated.entries()) {
          let parsed: unknown
          try {
            parsed = JSON.parse(text)
          } catch {
            parsed = undefined
          }
          const expected = Array.isArray(parsed) ? parsed.reduce((n: number, r) => n + places(kind, r), 0) : 1
          expect(positions.filter((p) => p.startsWith(`${100 + i}:`)).length, `${kind} ${text.slice(0, 80)}`).toBe(
            expected,
          )
        }
        for (const row of rows) expect(allWellFormed(row)).toBe(true)
        for (const row of sink.rows<ImpressionRow>('impressions')) {
          expect(Number.isSafeInteger(row.time_ms) && row.time_ms >= 0).toBe(true)
          expect(Number.isSafeInteger(row.change_number)).toBe(true)
        }
        for (const r of sink.rows<RejectionRow>('impression_rejections')) {
          expect(r.reason.length).toBeGreaterThan(0)
          expect(r.raw.length).toBeLessThanOrEqual(MAX_RAW_CHARS)
        }
      }),
      { numRuns: 200, interruptAfterTimeLimit: 8000 },
    )
  })
})
