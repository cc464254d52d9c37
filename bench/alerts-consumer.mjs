#!/usr/bin/env node
// npm run bench:alerts-consumer: the alerts consumer's CPU per payload, and Redis's, on the real Redis
// of the local stack (`npx sluice stack up`; `npm run build` first). Batches of 500 Alertmanager
// payloads (3 alerts each, the built-in mapping) go through AlertsConsumer.handle: decode, render,
// one script call per 100 messages. CPU time is counted rather than throughput, so that a change can
// be compared on a machine whose speed drifts: run it against a build of the commit before
// (DIST=/path/to/that/dist, a dist/ beside this repo's schemas/) in turns.
// With POLICIES=1 (npm run bench's alerts-policies section) the same batches go, in turns, to an account with
// no alert rules and to one with 50 rules (conditions on labels and fields, regexes, templated sets, tags) and
// one maintenance window running now that matches every alert: both figures and their ratio, from one run.
//
//   [N=40] [POLICIES=1] [DIST=...] node bench/alerts-consumer.mjs
import { Redis } from 'ioredis'
import { alertmanagerPayload } from './payloads.mjs'
import { deleteKeys } from './serve.mjs'

const D = process.env.DIST ?? new URL('../dist', import.meta.url).href
const { encodeAlertMessage } = await import(`${D}/broker/messages/alerts.js`)
const { AlertsConsumer, integrationCache } = await import(`${D}/consumers/alerts.consumer.js`)
const POLICIES = process.env.POLICIES === '1'
const { RedisAlertSink } = await import(`${D}/sinks/redis-stream/alerts.sink.js`)
const { createLogger } = await import(`${D}/shared/logger.js`)
const { createMetrics } = await import(`${D}/shared/metrics.js`)
const { ALERT_TEMPLATES } = await import(`${D}/pipeline/alerts/templates.js`)
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379')
const prefix = `cpu:${Math.random().toString(16).slice(2, 8)}:`
const mapping = ALERT_TEMPLATES.alertmanager.mapping
// An integration of an account, with the lifecycle (repeats written to the streams, as each payload repeats the same
// three alerts).
const store = {
  byId: (id) =>
    Promise.resolve({ id, accountId: id === 'i2' ? 'a2' : 'a1', mapping, emitRepeats: process.env.REPEATS !== '0' }),
}
const payload = JSON.stringify(alertmanagerPayload())
let offset = 0n
const batch = (n, integrationId = 'i1') => ({
  topic: 'alerts',
  partition: 0,
  highWatermark: 0n,
  messages: Array.from({ length: n }, (_, i) => {
    const m = encodeAlertMessage(
      payload,
      { integrationId, accountId: integrationId === 'i2' ? 'a2' : 'a1', receivedAtMs: Date.now(), requestId: `r${i}` },
      1 << 20,
    )
    return { offset: offset++, value: m.value, headers: m.headers }
  }),
})
const metrics = createMetrics({ defaults: false })
// This build's sink takes (redis, options); builds before it (redis, prefix, maxLen, maxAgeMs).
const sink =
  RedisAlertSink.length >= 4
    ? new RedisAlertSink(redis, prefix, 100_000, 3_600_000)
    : new RedisAlertSink(redis, { prefix, maxLen: 100_000, maxAgeMs: 3_600_000 })
// Builds since alert rules take the account's policies second.
const consumerWith = async (policies) => {
  if (AlertsConsumer.length < 5)
    return new AlertsConsumer(integrationCache(store, 60_000), sink, metrics, createLogger('silent'))
  const { compileRulesAndWindows, NO_RULES_OR_WINDOWS } = await import(`${D}/pipeline/alerts/rules-and-windows.js`)
  const compiled = policies ? compileRulesAndWindows(policies.rules, policies.windows).compiled : NO_RULES_OR_WINDOWS
  return new AlertsConsumer(
    integrationCache(store, 60_000),
    { get: () => Promise.resolve(compiled) },
    sink,
    metrics,
    createLogger('silent'),
  )
}
const consumer = await consumerWith(undefined)
/**
 * 50 rules as an on-call team writes them, and one window running now over every alert: 40 rules for one service
 * each (team, tags, a custom field; one of them the payloads' service), 5 regexes over descriptions and alert names,
 * 3 rules for every alert (team from a label, severity up in production, a tag by service) and 2 drops of noisy
 * checks that never fire here. About 5 rules change each alert.
 */
function benchPolicies() {
  const rules = []
  for (let i = 0; i < 40; i++)
    rules.push({
      id: `svc${i}`,
      name: `service ${i}`,
      when: { field: 'service', equals: i === 0 ? 'checkout' : `service-${i}` },
      set: { team: `team-${i}` },
      addTags: [`svc-${i}`],
      customFields: { runbook: `https://runbooks.example/${i}/{{alert.service}}` },
    })
  for (const [i, pattern] of [
    '(?i)latency|timeout',
    'disk.*full',
    '^OOM',
    '(?i)certificate.*expir',
    'error rate',
  ].entries())
    rules.push({
      id: `re${i}`,
      name: `regex ${i}`,
      when: { field: 'description', matches: pattern },
      addTags: [`re-${i}`],
    })
  rules.push(
    {
      id: 'team',
      name: 'team from label',
      when: { field: 'payload.commonLabels.service', exists: true },
      set: { service: '{{webhook.commonLabels.service}}' },
    },
    {
      id: 'prod',
      name: 'prod is critical',
      when: {
        any: [
          { field: 'payload.externalURL', matches: '\\.prod\\.' },
          { field: 'environment', equals: 'production' },
        ],
      },
      set: { environment: 'production' },
    },
    {
      id: 'bysvc',
      name: 'tag by service',
      when: { field: 'service', exists: true },
      addTags: ['{{service}}'.length ? 'has-service' : ''],
    },
    {
      id: 'watchdog',
      name: 'drop Watchdog',
      when: { field: 'payload.groupLabels.alertname', equals: 'Watchdog' },
      drop: true,
    },
    {
      id: 'infoinhibit',
      name: 'drop InfoInhibitor',
      when: { field: 'payload.groupLabels.alertname', in: ['InfoInhibitor', 'Heartbeat'] },
      drop: true,
    },
  )
  const window = {
    id: 'mw_bench',
    name: 'always',
    when: { field: 'severity', in: ['critical', 'high', 'warning', 'info'] },
    schedule: {
      kind: 'weekly',
      timeZone: 'Europe/Berlin',
      days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      start: '00:00',
      end: '00:00',
    },
  }
  return { rules: { version: 1, rules }, windows: [window] }
}
const redisCpu = async () => {
  const info = await redis.info('cpu')
  return Number(/used_cpu_user:([\d.]+)/.exec(info)[1]) + Number(/used_cpu_sys:([\d.]+)/.exec(info)[1])
}
const ctx = { signal: new AbortController().signal }
for (let i = 0; i < 10; i++) await consumer.handle(batch(500), ctx)
const N = Number(process.env.N ?? 40),
  SIZE = 500
const n = N * SIZE
const line = (label, t) =>
  `${label}consumer ${(t.cpu / n).toFixed(1)} µs CPU/payload, redis ${(t.redis / n).toFixed(1)} µs/payload, wall ${(t.wall / n).toFixed(1)} µs/payload, ${Math.round((n * 1e6) / t.wall)} payloads/s`
const variants = [{ label: POLICIES ? 'no rules: ' : '', consumer, integrationId: 'i1', cpu: 0, redis: 0, wall: 0 }]
if (POLICIES) {
  const ruled = await consumerWith(benchPolicies())
  for (let i = 0; i < 10; i++) await ruled.handle(batch(500, 'i2'), ctx)
  variants.push({ label: '50 rules and a window: ', consumer: ruled, integrationId: 'i2', cpu: 0, redis: 0, wall: 0 })
}
// In turns, batch by batch: a drift of the machine's speed falls on both alike.
for (let b = 0; b < N; b++) {
  for (const v of variants) {
    const input = batch(SIZE, v.integrationId)
    const r0 = await redisCpu()
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    await v.consumer.handle(input, ctx)
    const c = process.cpuUsage(c0)
    v.wall += (performance.now() - t0) * 1000
    v.cpu += c.user + c.system
    v.redis += ((await redisCpu()) - r0) * 1e6
  }
}
for (const v of variants) console.log(line(v.label, v))
if (POLICIES)
  console.log(`added consumer CPU per payload: ${((variants[1].cpu / variants[0].cpu - 1) * 100).toFixed(1)} %`)
await deleteKeys(redis, prefix)
await redis.quit()
