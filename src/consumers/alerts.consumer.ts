// alerts topic → integration's current mapping → render and normalize (pipeline) → the account's alert
// rules and maintenance windows (pipeline/alerts/rules-and-windows.ts) → Redis streams (sink, exactly once per
// Kafka message: what the rules changed or dropped is written in the same call) → commit (by the broker
// adapter). Only Redis outages are
// retried; anything wrong with a payload, and a message Redis itself refuses, becomes a rejection
// entry, so no message can stall a partition. Rendering yields to the event loop between messages.
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import type { Logger } from '../shared/logger.js'
import { KeyedCache } from '../shared/versioned-cache.js'
import type { Metrics } from '../shared/metrics.js'
import { REPLAY_HEADER, type BatchContext, type InboundBatch, type InboundMessage } from '../broker/ports.js'
import { decodeAlertMessage } from '../broker/messages/alerts.js'
import { renderAlerts, type NormalizedAlert } from '../pipeline/alerts/render.js'
import { toView } from '../pipeline/alerts/moustache.js'
import {
  applyRulesAndWindows,
  compileRulesAndWindows,
  DEFAULT_RULES_BUDGET_MS,
  NO_RULES_OR_WINDOWS,
  rulesBudget,
  type CompiledRulesAndWindows,
} from '../pipeline/alerts/rules-and-windows.js'
import type { RulesAndWindowsStore } from '../state/redis/rules-and-windows.js'
import type {
  AlertLinks,
  AlertRejection,
  DroppedEntry,
  MessageWrite,
  PayloadSample,
  RedisAlertSink,
} from '../sinks/redis-stream/alerts.sink.js'
import { AppError, failureKind, messageOf, redisCall } from '../shared/errors.js'
import { safeJson } from '../shared/json-checks.js'
import { PAYLOAD_SAMPLES } from '../state/redis/alert-streams.js'
import type { IntegrationRecord, IntegrationStore } from '../state/redis/integrations.js'
import { retrying } from './retry.js'
import { cut, type TailFeed } from './tail.feed.js'
import type { TailRecord } from '../state/redis/tail.js'

const MAX_REJECTED_PAYLOAD_CHARS = 256 * 1024
const MAX_REASON_CHARS = 8 * 1024
/** Rendering gives the event loop back after this much work (the HTTP edge may share the process). */
const YIELD_AFTER_MS = 10

/** Integration records by id (undefined: no such integration), read again after refreshMs. */
export type IntegrationCache = KeyedCache<IntegrationRecord | undefined>

/** Integration records, each read again from Redis after refreshMs: mapping changes apply within seconds. */
export function integrationCache(store: IntegrationStore, refreshMs: number): IntegrationCache {
  return new KeyedCache({ load: (id) => redisCall(() => store.byId(id)) }, { refreshMs })
}

/** Where the consumer gets an account's compiled alert rules and windows. */
export interface RulesAndWindowsSource {
  get(accountId: string): Promise<CompiledRulesAndWindows>
}

/**
 * Each account's alert rules and maintenance windows, compiled once per version: after refreshMs two small numbers
 * (their versions) are read, and the rules (up to a few MB) again only when they changed. Without a version key
 * (data older than it) they are read in full each time.
 */
export function rulesAndWindowsCache(
  store: RulesAndWindowsStore,
  refreshMs: number,
  log: Logger,
): KeyedCache<CompiledRulesAndWindows> {
  const version = async (accountId: string) => {
    const { rules, windows } = await store.versions(accountId)
    return rules === undefined || windows === undefined ? undefined : `${rules}/${windows}`
  }
  const load = async (accountId: string) => {
    const { rules, windows } = await store.rulesAndWindows(accountId)
    if (rules.rules.length === 0 && windows.windows.length === 0) return NO_RULES_OR_WINDOWS
    const { compiled, skipped } = compileRulesAndWindows(rules, windows.windows)
    if (skipped.length > 0) log.warn({ accountId, skipped }, 'stored alert rules or windows no longer pass; left out')
    return compiled
  }
  return new KeyedCache(
    {
      version: (accountId) => redisCall(() => version(accountId)),
      load: (accountId) => redisCall(() => load(accountId)),
    },
    { refreshMs },
  )
}

export class AlertsConsumer {
  constructor(
    private readonly integrations: IntegrationCache,
    private readonly rulesAndWindows: RulesAndWindowsSource,
    private readonly sink: RedisAlertSink,
    private readonly metrics: Metrics,
    private readonly log: Logger,
    /** The live tail of integrations' payloads. */
    private readonly tail?: TailFeed,
    /** SLUICE_ALERT_RULES_BUDGET_MS. */
    private readonly rulesBudgetMs = DEFAULT_RULES_BUDGET_MS,
  ) {}

  readonly handle = async (batch: InboundBatch, ctx: BatchContext): Promise<void> => {
    const log = this.log.child({ partition: batch.partition })
    const failed = (err: AppError) => this.metrics.sinkErrors.inc({ sink: 'redis', kind: failureKind(err) })
    const writes = await retrying(
      ctx,
      log,
      'reading integrations',
      async () => {
        const out: MessageWrite[] = []
        let slice = performance.now()
        for (const message of batch.messages) {
          out.push(await this.render(batch, message))
          if (performance.now() - slice > YIELD_AFTER_MS) {
            await yieldToLoop()
            slice = performance.now()
          }
        }
        return out
      },
      failed,
    )
    if (this.tail?.active) for (const w of writes) this.tail.offerPayload(w.integrationId, () => tailRecordOf(w))
    const written = await retrying(
      ctx,
      log,
      'writing alert streams',
      () => this.writeIsolating(lastSamples(writes), log),
      failed,
    )
    const fresh = writes.filter((w) => written.has(w))
    this.metrics.alertsStored.inc(fresh.reduce((n, w) => n + w.alerts.length, 0))
    this.metrics.alertsRejected.inc(fresh.reduce((n, w) => n + w.rejections.length, 0))
    this.metrics.alertsDropped.inc(fresh.reduce((n, w) => n + (w.dropped?.length ?? 0), 0))
    this.metrics.alertsSuppressed.inc(fresh.reduce((n, w) => n + w.alerts.filter((a) => a.suppressedBy).length, 0))
    this.metrics.alertsOverBudget.inc(fresh.reduce((n, w) => n + w.alerts.filter((a) => a.overBudget).length, 0))
    this.metrics.alertDedupFallbacks.inc(fresh.reduce((n, w) => n + (w.lifecycle?.dedupFallbacks ?? 0), 0))
    this.metrics.alertUnknownStatuses.inc(fresh.reduce((n, w) => n + (w.lifecycle?.unknownStatuses ?? 0), 0))
    log.debug({ messages: writes.length, written: fresh.length }, 'alert batch stored')
    if (fresh.length < writes.length)
      log.info({ skipped: writes.length - fresh.length }, 'replayed messages already stored; skipped')
  }

  /**
   * Writes the messages in order. A message Redis refuses as data (not as an outage) is replaced by a
   * rejection entry with Redis's message, or if that is refused too by a bare record of its offset
   * (logged, counted), and the messages after it are written next. Returns the writes that were new.
   */
  private async writeIsolating(writes: readonly MessageWrite[], log: Logger): Promise<Set<MessageWrite>> {
    const fresh = new Set<MessageWrite>()
    const substitutes = new Set<MessageWrite>()
    let pending = [...writes]
    while (pending.length > 0) {
      const results = await this.sink.write(pending)
      results.forEach((r, i) => {
        if (r === 'written') fresh.add(pending[i]!)
      })
      const refusedAt = results.findIndex((r) => r instanceof AppError)
      if (refusedAt < 0) break
      const refused = pending[refusedAt]!
      const err = results[refusedAt] as AppError
      this.metrics.sinkErrors.inc({ sink: 'redis', kind: 'data' })
      let substitute: MessageWrite
      if (!substitutes.has(refused)) {
        log.warn(
          { err, offset: String(refused.offset) },
          'redis refused a message as data; storing a rejection instead',
        )
        const requestId = refused.alerts[0]?.requestId ?? refused.rejections[0]?.requestId ?? ''
        substitute = bare(refused, [
          rejection(
            refused.integrationId,
            requestId,
            `redis refused the entries of this message: ${err.message}`,
            '',
            Date.now(),
          ),
        ])
      } else if (refused.rejections.length > 0) {
        this.metrics.unstorable.inc({ sink: 'redis' })
        log.error(
          { err, offset: String(refused.offset) },
          'a rejection could not be stored; given up, recording only its offset',
        )
        substitute = bare(refused, [])
      } else {
        throw err // even a bare offset record is refused: the streams themselves are broken
      }
      substitutes.add(substitute)
      pending = [substitute, ...pending.slice(refusedAt + 1)]
    }
    return fresh
  }

  /** One message's alerts and (at most one) rejection entry. Throws only when Redis cannot be read. */
  private async render(batch: InboundBatch, message: InboundMessage): Promise<MessageWrite> {
    const position = { topic: batch.topic, partition: batch.partition, offset: message.offset }
    let decoded
    try {
      decoded = decodeAlertMessage(message.value, message.headers)
    } catch (err) {
      return {
        ...position,
        accountId: '',
        integrationId: 'unknown',
        alerts: [],
        rejections: [rejection('unknown', '', `message could not be decoded: ${String(err)}`, '', Date.now())],
      }
    }
    const { meta, payloadJson } = decoded
    const at = { ...position, accountId: meta.accountId }
    const base =
      message.headers[REPLAY_HEADER] === '1'
        ? { ...at, replayOf: { requestId: meta.requestId, receivedAtMs: meta.receivedAtMs } }
        : at
    const reject = (reasons: string[]): MessageWrite => ({
      ...base,
      integrationId: meta.integrationId,
      alerts: [],
      rejections: [rejection(meta.integrationId, meta.requestId, reasons.join('; '), payloadJson, meta.receivedAtMs)],
    })
    const integration = await this.integrations.get(meta.integrationId)
    if (!integration) return reject(['integration no longer exists'])
    const compiled = await this.rulesAndWindows.get(integration.accountId)
    let payload: unknown
    try {
      payload = JSON.parse(payloadJson)
    } catch (err) {
      return reject([`payload could not be rendered: ${messageOf(err)}`])
    }
    // Kept among the integration's recent payloads whatever the mapping makes of it (the editor starts from them).
    const sample = sampleOf(meta.requestId, meta.receivedAtMs, payloadJson)
    try {
      // The payload's view for the mapping and, when the account has any, the rules and windows.
      const view = compiled === NO_RULES_OR_WINDOWS ? undefined : toView(payload)
      const outcomes = await renderAlerts(
        integration.mapping,
        payload,
        { integrationId: integration.id, requestId: meta.requestId, receivedAtMs: meta.receivedAtMs },
        view,
      )
      const alerts: NormalizedAlert[] = []
      const dropped: DroppedEntry[] = []
      // The incident group and inhibition pairs the rules gave each alert (by its index).
      const links: AlertLinks[] = []
      const reasons: string[] = []
      let dedupFallbacks = 0
      let unknownStatuses = 0
      // One budget for the rules and windows of all its alerts.
      const budget = rulesBudget(this.rulesBudgetMs)
      outcomes.forEach((o, index) => {
        if (o.ok) {
          if (o.dedupFallback) dedupFallbacks++
          if (o.statusUnknown) unknownStatuses++
          const shaped =
            view === undefined ? undefined : applyRulesAndWindows(compiled, o.alert, view, meta.receivedAtMs, budget)
          if (shaped?.dropped)
            dropped.push({
              requestId: meta.requestId,
              integrationId: integration.id,
              dedupKey: o.alert.dedupKey,
              rule: shaped.by,
              receivedAt: o.alert.receivedAt,
            })
          else {
            if (shaped?.group || shaped?.inhibit)
              links[alerts.length] = {
                ...(shaped.group ? { group: shaped.group } : {}),
                ...(shaped.inhibit ? { inhibit: shaped.inhibit } : {}),
              }
            alerts.push(shaped?.alert ?? o.alert)
          }
        } else reasons.push(outcomes.length > 1 ? `alert ${index}: ${o.reason}` : o.reason)
      })
      // The raw payload is kept once per message, whatever the number of rejected alerts in it.
      const rejections = reasons.length > 0 ? reject(reasons).rejections : []
      const lifecycle = {
        accountId: integration.accountId,
        requestId: meta.requestId,
        receivedAtMs: meta.receivedAtMs,
        emitRepeats: integration.emitRepeats ?? false,
        autoResolveAfterMs: (integration.autoResolveAfterSeconds ?? 0) * 1000,
        dedupFallbacks,
        unknownStatuses,
      }
      // The integration's account: the one the script writes the lifecycle records under (its keys' slot on a cluster).
      return {
        ...base,
        accountId: integration.accountId,
        integrationId: integration.id,
        alerts,
        rejections,
        lifecycle,
        sample,
        ...(dropped.length > 0 ? { dropped } : {}),
        ...(links.length > 0 ? { links } : {}),
      }
    } catch (err) {
      return { ...reject([`payload could not be rendered: ${messageOf(err)}`]), sample }
    }
  }
}

/** A message's payload as the live tail shows it: its alerts' titles and statuses, or why it was refused. */
function tailRecordOf(w: MessageWrite): TailRecord {
  const refused = w.rejections[0]
  let payload = refused?.payload
  if (payload === undefined && w.sample !== undefined)
    payload = JSON.stringify((JSON.parse(w.sample) as PayloadSample).payload)
  const requestId = refused?.requestId ?? w.alerts[0]?.requestId ?? ''
  const receivedAt = Date.parse(refused?.receivedAt ?? w.alerts[0]?.receivedAt ?? '') || Date.now()
  return {
    kind: refused ? 'refused payload' : 'payload',
    receivedAt,
    requestId,
    data: {
      ...(refused ? { reason: refused.reason } : {}),
      alerts: w.alerts.map((a) => ({
        status: a.status,
        severity: a.severity,
        description: a.description.slice(0, 200),
      })),
      payload: payload === undefined ? null : cut(payload),
    },
  }
}

/** A message's write with nothing of it but its position and these rejections (in place of one Redis refused). */
function bare(write: MessageWrite, rejections: AlertRejection[]): MessageWrite {
  return {
    ...write,
    alerts: [],
    lifecycle: undefined,
    sample: undefined,
    dropped: undefined,
    links: undefined,
    rejections,
  }
}

/** The writes with samples only on the last PAYLOAD_SAMPLES.count messages of each integration: Redis keeps no more. */
function lastSamples(writes: MessageWrite[]): MessageWrite[] {
  const kept = new Map<string, number>()
  for (let i = writes.length - 1; i >= 0; i--) {
    const w = writes[i]!
    if (w.sample === undefined) continue
    const n = kept.get(w.integrationId) ?? 0
    if (n >= PAYLOAD_SAMPLES.count) writes[i] = { ...w, sample: undefined }
    else kept.set(w.integrationId, n + 1)
  }
  return writes
}

/**
 * The payload as one of the integration's recent payloads: its JSON text as received (checked by the edge), or null
 * above the size kept.
 */
function sampleOf(requestId: string, receivedAt: number, payloadJson: string): string {
  const bytes = Buffer.byteLength(payloadJson)
  const at = Number.isFinite(receivedAt) ? receivedAt : Date.now()
  return `{"requestId":${JSON.stringify(requestId)},"receivedAt":${at},"bytes":${bytes},"payload":${bytes <= PAYLOAD_SAMPLES.maxBytes ? payloadJson : 'null'}}`
}

function rejection(
  integrationId: string,
  requestId: string,
  reason: string,
  payload: string,
  receivedAtMs: number,
): AlertRejection {
  return {
    integrationId,
    requestId,
    reason: safeJson(reason, MAX_REASON_CHARS),
    payload: safeJson(payload, MAX_REJECTED_PAYLOAD_CHARS),
    receivedAt: new Date(receivedAtMs).toISOString(),
  }
}
