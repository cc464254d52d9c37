// Alert integrations as a use case: what a valid integration is (a template brings its mapping and
// rate-limit answer unless given; a custom one needs a mapping; the mapping must render), the life
// of its secret address (create, rotate with an overlap or at once), deletion with its alert stream,
// rendering a test payload, and reading its alerts.
import { ALERT_TEMPLATES, CUSTOM_EXAMPLE, TEMPLATE_IDS, type TemplateId } from '../pipeline/alerts/templates.js'
import { checkMapping, renderAlerts, type AlertMapping, type NormalizedAlert } from '../pipeline/alerts/render.js'
import { invalid, Refusal, type FieldProblem } from '../shared/errors.js'
import type { RedisAlertSink } from '../sinks/redis-stream/alerts.sink.js'
import { PAYLOAD_SAMPLES } from '../state/redis/alert-streams.js'
import type {
  IntegrationInput,
  IntegrationRecord,
  IntegrationStore,
  RateLimitStatus,
} from '../state/redis/integrations.js'

type Body = Record<string, unknown>
export const MAX_ALERTS_PAGE = 500

export class IntegrationService {
  constructor(
    private readonly integrations: IntegrationStore,
    private readonly alerts: RedisAlertSink,
    private readonly rotationOverlapMs: number,
  ) {}

  async create(accountId: string, body: unknown): Promise<{ record: IntegrationRecord; webhookId: string }> {
    const sample = sampleOf(body)
    const created = await this.integrations.create(accountId, parseInput(body, undefined))
    if (sample !== undefined) await this.integrations.setSample(created.record.id, sample)
    return created
  }

  /** The sample payload saved with the integration's mapping, or null. */
  async sample(accountId: string, id: string): Promise<unknown> {
    return this.integrations.sample((await this.get(accountId, id)).id)
  }

  list(accountId: string): Promise<IntegrationRecord[]> {
    return this.integrations.list(accountId)
  }

  async get(accountId: string, id: string): Promise<IntegrationRecord> {
    return found(await this.integrations.get(accountId, id))
  }

  /**
   * An integration Sluice raises its own alerts through (experiment checks, heartbeats): `known` while it exists, else
   * a new generic one named `name` (made again if it was deleted). `made`: it is new, for the caller to keep.
   */
  async own(accountId: string, known: string | undefined, name: string): Promise<{ id: string; made: boolean }> {
    if (known && (await this.integrations.get(accountId, known))) return { id: known, made: false }
    const { record } = await this.create(accountId, { name, template: 'generic' })
    return { id: record.id, made: true }
  }

  /**
   * Replaces the integration with body, or (partial) applies body on what it is; a sample given is saved (null removes
   * it).
   */
  async update(accountId: string, id: string, body: unknown, partial: boolean): Promise<IntegrationRecord> {
    const sample = sampleOf(body)
    const record = found(
      await this.integrations.update(accountId, id, (current) => parseInput(body, partial ? current : undefined)),
    )
    if (sample !== undefined) await this.integrations.setSample(record.id, sample)
    return record
  }

  /** Deletes the integration and its alert stream. */
  async delete(accountId: string, id: string): Promise<void> {
    if (!(await this.integrations.delete(accountId, id))) throw new Refusal('NOT_FOUND', 'no such integration')
    await this.alerts.deleteStream(accountId, id)
  }

  /** Forgets the integration's recent payloads (they may hold what a sender should not have sent). */
  async deletePayloads(accountId: string, id: string): Promise<void> {
    await this.alerts.deletePayloads(accountId, (await this.get(accountId, id)).id)
  }

  /** A new address; the old one keeps working for the overlap, or stops at once. */
  async rotate(
    accountId: string,
    id: string,
    revokeNow: boolean,
  ): Promise<{ record: IntegrationRecord; webhookId: string; previousAddressValidUntil: number }> {
    const overlapMs = revokeNow ? 0 : this.rotationOverlapMs
    const rotated = await this.integrations.rotate(accountId, id, overlapMs)
    if (!rotated) throw new Refusal('NOT_FOUND', 'no such integration')
    return { ...rotated, previousAddressValidUntil: Date.now() + overlapMs }
  }

  /**
   * Renders a payload (absent: the template's example) with the integration's mapping, or with `mapping` (checked as a
   * save would) to try it unsaved.
   */
  async test(
    accountId: string,
    id: string,
    payload: unknown,
    requestId: string,
    mapping?: unknown,
  ): Promise<{ alerts: NormalizedAlert[]; rejected: { index: number; reason: string }[] }> {
    const { alerts, rejected } = await renderTest(await this.get(accountId, id), payload, requestId, mapping)
    return { alerts, rejected }
  }

  /** The integration's recent payloads as received, newest first (the samples a mapping is built from). */
  /**
   * The payloads the integration's mapping refused lately (among the last 5,000 rejections of the account), grouped by
   * reason, most first, with up to 3 examples each (the payload as received, cut to 2,048 characters).
   */
  async recentRejections(accountId: string, id: string) {
    const r = await this.get(accountId, id)
    const byReason = new Map<string, { reason: string; records: number; lastAt: string; examples: object[] }>()
    for (const x of await this.alerts.rejections(accountId, r.id)) {
      let entry = byReason.get(x.reason)
      if (!entry) byReason.set(x.reason, (entry = { reason: x.reason, records: 0, lastAt: x.receivedAt, examples: [] }))
      entry.records++
      if (entry.examples.length < 3)
        entry.examples.push({
          payload: x.payload.slice(0, 2048).toWellFormed(),
          truncated: x.payload.length > 2048,
          requestId: x.requestId,
          receivedAt: x.receivedAt,
        })
    }
    return [...byReason.values()].sort((a, b) => b.records - a.records)
  }

  async recentPayloads(accountId: string, id: string) {
    const r = await this.get(accountId, id)
    return (await this.alerts.payloads(accountId, r.id)).map((p) => ({
      ...p,
      receivedAt: new Date(p.receivedAt).toISOString(),
      kept: p.payload !== null,
    }))
  }

  /** Newest first, before the alert id `before` when given. */
  async recentAlerts(accountId: string, id: string, limit: number, before: string | undefined) {
    const r = await this.get(accountId, id)
    const entries = await this.alerts.recent(accountId, r.id, limit, before)
    return entries.map(({ id: entryId, fields }) => ({
      id: entryId,
      ...fields,
      customFields: JSON.parse(fields['customFields'] ?? '{}') as unknown,
      ...(fields['tags'] !== undefined ? { tags: JSON.parse(fields['tags']) as unknown } : {}),
      ...(fields['rulesApplied'] !== undefined ? { rulesApplied: JSON.parse(fields['rulesApplied']) as unknown } : {}),
      ...(fields['rulesVersion'] !== undefined ? { rulesVersion: Number(fields['rulesVersion']) } : {}),
      ...(fields['count'] !== undefined ? { count: Number(fields['count']) } : {}),
    }))
  }
}

/** What an integration's mapping (or one given, checked) makes of a payload (absent: its example), and the payload. */
export async function renderTest(
  r: IntegrationRecord,
  payload: unknown,
  requestId: string,
  mapping?: unknown,
): Promise<{ alerts: NormalizedAlert[]; rejected: { index: number; reason: string }[]; payload: object }> {
  const input = payload === undefined ? exampleOf(r) : payload
  if (typeof input !== 'object' || input === null)
    throw invalid([{ field: 'payload', problem: 'must be a JSON object or array' }])
  let used = r.mapping
  if (mapping !== undefined) {
    const checked = checkMapping(mapping)
    if (!checked.ok) throw invalid(checked.problems, 'the mapping would not be saved')
    used = checked.mapping
  }
  const outcomes = await renderAlerts(used, input, { integrationId: r.id, requestId, receivedAtMs: Date.now() })
  return {
    alerts: outcomes.flatMap((o) => (o.ok ? [o.alert] : [])),
    rejected: outcomes.flatMap((o, index) => (o.ok ? [] : [{ index, reason: o.reason }])),
    payload: input,
  }
}

/** The example payload of the integration's template (a custom mapping gets the generic one). */
export function exampleOf(r: IntegrationRecord): unknown {
  return r.template === 'custom' ? CUSTOM_EXAMPLE : ALERT_TEMPLATES[r.template].example
}

function found(r: IntegrationRecord | undefined): IntegrationRecord {
  if (!r) throw new Refusal('NOT_FOUND', 'no such integration')
  return r
}

/** Validates a create/replace body, or a patch applied on `current`. 400 names each bad field. */
function parseInput(raw: unknown, current: IntegrationRecord | undefined): IntegrationInput {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw invalid([{ field: 'body', problem: 'must be a JSON object' }])
  const body = raw as Body
  const problems: FieldProblem[] = []
  const known = new Set([
    'name',
    'description',
    'template',
    'mapping',
    'rateLimitStatus',
    'emitRepeats',
    'autoResolveAfterSeconds',
    'sample',
  ])
  for (const k of Object.keys(body))
    if (!known.has(k)) problems.push({ field: k, problem: 'is not an integration field' })

  const has = (k: string) => Object.hasOwn(body, k)
  const name = has('name') ? body['name'] : current?.name
  if (typeof name !== 'string' || name.trim().length === 0 || name.length > 100)
    problems.push({ field: 'name', problem: 'must be a string of 1 to 100 characters' })
  const description = has('description') ? (body['description'] ?? '') : (current?.description ?? '')
  if (typeof description !== 'string' || description.length > 1000)
    problems.push({ field: 'description', problem: 'must be a string of at most 1000 characters' })

  const rawTemplate = has('template') ? body['template'] : (current?.template ?? 'custom')
  const template = rawTemplate === '' || rawTemplate === null || rawTemplate === undefined ? 'custom' : rawTemplate
  const isTemplate = (TEMPLATE_IDS as readonly unknown[]).includes(template)
  if (!isTemplate && template !== 'custom')
    problems.push({ field: 'template', problem: `must be one of ${TEMPLATE_IDS.join(', ')}, custom or blank` })

  // A changed template brings its mapping unless a mapping is given; custom needs one.
  let mapping: unknown = has('mapping')
    ? body['mapping']
    : template === current?.template
      ? current.mapping
      : isTemplate
        ? ALERT_TEMPLATES[template as TemplateId].mapping
        : undefined
  if (mapping === undefined) {
    if (template === 'custom') problems.push({ field: 'mapping', problem: 'is required for a custom integration' })
  } else {
    const checked = checkMapping(mapping)
    if (checked.ok) mapping = checked.mapping
    else problems.push(...checked.problems)
  }

  const defaultStatus: RateLimitStatus = isTemplate ? ALERT_TEMPLATES[template as TemplateId].rateLimitStatus : 429
  const rateLimitStatus = has('rateLimitStatus')
    ? body['rateLimitStatus']
    : template === current?.template
      ? current.rateLimitStatus
      : defaultStatus
  if (rateLimitStatus !== 429 && rateLimitStatus !== 503)
    problems.push({ field: 'rateLimitStatus', problem: 'must be 429 or 503' })
  const emitRepeats = has('emitRepeats') ? body['emitRepeats'] : (current?.emitRepeats ?? false)
  if (typeof emitRepeats !== 'boolean') problems.push({ field: 'emitRepeats', problem: 'must be true or false' })
  const autoResolve = has('autoResolveAfterSeconds')
    ? body['autoResolveAfterSeconds']
    : (current?.autoResolveAfterSeconds ?? null)
  if (
    autoResolve !== null &&
    !(
      Number.isInteger(autoResolve) &&
      (autoResolve as number) >= MIN_AUTO_RESOLVE_SECONDS &&
      (autoResolve as number) <= MAX_AUTO_RESOLVE_SECONDS
    )
  ) {
    problems.push({
      field: 'autoResolveAfterSeconds',
      problem: `must be null (never) or a whole number of seconds from ${MIN_AUTO_RESOLVE_SECONDS} to ${MAX_AUTO_RESOLVE_SECONDS}`,
    })
  }

  if (has('sample')) {
    const sample = body['sample']
    if (
      sample !== null &&
      (typeof sample !== 'object' || Buffer.byteLength(JSON.stringify(sample)) > MAX_SAMPLE_BYTES)
    ) {
      problems.push({
        field: 'sample',
        problem: `must be null or a JSON object or array of at most ${MAX_SAMPLE_BYTES / 1024} KiB`,
      })
    }
  }

  if (problems.length > 0) throw invalid(problems)
  return {
    name: (name as string).trim(),
    description: description as string,
    template: template as TemplateId | 'custom',
    mapping: mapping as AlertMapping,
    rateLimitStatus: rateLimitStatus as RateLimitStatus,
    emitRepeats: emitRepeats as boolean,
    autoResolveAfterSeconds: autoResolve as number | null,
  }
}

/** The body's sample (checked by parseInput): undefined when the body leaves it as it is. */
function sampleOf(body: unknown): unknown {
  return typeof body === 'object' && body !== null && Object.hasOwn(body, 'sample')
    ? (body as Body)['sample']
    : undefined
}

/** The largest sample payload saved with a mapping: the size up to which recent payloads are kept whole. */
const MAX_SAMPLE_BYTES = PAYLOAD_SAMPLES.maxBytes

/** The shortest and longest silence after which an incident may resolve by itself: 10 s, 30 days. */
export const MIN_AUTO_RESOLVE_SECONDS = 10
export const MAX_AUTO_RESOLVE_SECONDS = 30 * 86_400
