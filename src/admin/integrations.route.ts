// Alert integrations, for the admins of an account (admin API key, `Authorization: Bearer` or
// `x-api-key`): create, list, get, update, delete, test a payload, rotate the address, read alerts.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { presentedKey, type ApiKeyCache } from '../auth/api-keys.js'
import { HttpError } from '../edge/errors.js'
import { ALERT_TEMPLATES, CUSTOM_EXAMPLE, TEMPLATE_IDS, type TemplateId } from '../pipeline/alert-templates.js'
import { checkMapping, renderAlerts, type AlertMapping } from '../pipeline/alerts.js'
import type { RedisAlertSink } from '../sinks/redis-stream/alerts.sink.js'
import type { IntegrationInput, IntegrationRecord, IntegrationStore, RateLimitStatus } from '../state/integrations.js'
import { keyId } from '../state/store.js'
import type {} from './split-access.js'

export interface IntegrationRoutesOptions {
  readonly apiKeys: ApiKeyCache
  readonly integrations: IntegrationStore
  readonly alerts: RedisAlertSink
  readonly publicBaseUrl: () => string
  readonly rotationOverlapMs: number
  /** Called after every change of webhook routes, so this process's edge sees it at once. */
  readonly onRoutesChanged: () => Promise<void>
}

type Body = Record<string, unknown>
const MAX_ALERTS_PAGE = 500

export async function integrationRoutes(app: FastifyInstance, opts: IntegrationRoutesOptions): Promise<void> {
  app.decorateRequest('admin', undefined)
  app.addHook('onRequest', async (request) => {
    const key = presentedKey(request.headers, true)
    const principal = key ? await opts.apiKeys.lookup(key) : undefined
    if (principal?.kind !== 'admin') throw new HttpError('UNAUTHORIZED', 'missing or unknown admin API key: send Authorization: Bearer <admin API key>')
    // Integrations belong to the whole account: only an unrestricted key with role all manages them.
    if ((principal.role ?? 'all') !== 'all' || principal.workspaceIds || principal.environmentIds) {
      throw new HttpError('FORBIDDEN', 'integrations need an admin API key with role all and no workspace or environment restriction')
    }
    request.admin = principal
  })

  // The address is stored only as a hash: webhookUrl and testCommand exist only in the answers that
  // create it (create, rotate). Elsewhere webhookAddressId (a prefix of the hash) tells addresses apart.
  const view = (r: IntegrationRecord) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    template: r.template,
    mapping: r.mapping,
    rateLimitStatus: r.rateLimitStatus,
    webhookAddressId: keyId(r.webhookHash),
    createdAt: new Date(r.createdAt).toISOString(),
    updatedAt: new Date(r.updatedAt).toISOString(),
  })
  const withAddress = ({ record, webhookId }: { record: IntegrationRecord; webhookId: string }) => {
    const webhookUrl = `${opts.publicBaseUrl()}/api/v1/webhook/${webhookId}`
    const example = record.template === 'custom' ? CUSTOM_EXAMPLE : ALERT_TEMPLATES[record.template].example
    return {
      ...view(record),
      webhookUrl,
      testCommand: `curl -sS -X POST ${shellQuote(webhookUrl)} -H 'Content-Type: application/json' --data-binary ${shellQuote(JSON.stringify(example))}`,
    }
  }
  const account = (request: FastifyRequest) => request.admin!.accountId
  const found = (r: IntegrationRecord | undefined) => {
    if (!r) throw new HttpError('NOT_FOUND', 'no such integration')
    return r
  }

  // Before any answer to a change leaves: the caller may use the new address right away.
  app.addHook('onSend', async (request) => {
    if (request.method !== 'GET') await opts.onRoutesChanged().catch((err: unknown) => request.log.warn({ err }, 'webhook routes not reloaded; they will be within the refresh interval'))
  })

  app.post('/api/v1/integrations', async (request, reply) => {
    const input = parseInput(request.body, undefined)
    return reply.code(201).send(withAddress(await opts.integrations.create(account(request), input)))
  })

  app.get('/api/v1/integrations', async (request) => ({
    integrations: (await opts.integrations.list(account(request))).map(view),
  }))

  app.get<{ Params: { id: string } }>('/api/v1/integrations/:id', async (request) => view(found(await opts.integrations.get(account(request), request.params.id))))

  const update = async (request: FastifyRequest<{ Params: { id: string } }>, partial: boolean) => {
    const changed = await opts.integrations.update(account(request), request.params.id, (current) => parseInput(request.body, partial ? current : undefined))
    return view(found(changed))
  }
  app.put<{ Params: { id: string } }>('/api/v1/integrations/:id', (request) => update(request, false))
  app.patch<{ Params: { id: string } }>('/api/v1/integrations/:id', (request) => update(request, true))

  app.delete<{ Params: { id: string } }>('/api/v1/integrations/:id', async (request) => {
    if (!(await opts.integrations.delete(account(request), request.params.id))) throw new HttpError('NOT_FOUND', 'no such integration')
    await opts.alerts.deleteStream(request.params.id)
    return { id: request.params.id, deleted: true }
  })

  app.post<{ Params: { id: string } }>('/api/v1/integrations/:id/test', async (request) => {
    const r = found(await opts.integrations.get(account(request), request.params.id))
    const body: unknown = request.body
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      throw new HttpError('BAD_REQUEST', 'body must be a JSON object {"payload": …}, or empty for the example payload', [{ field: 'body', problem: 'must be a JSON object' }])
    }
    const payload = body && Object.hasOwn(body, 'payload') ? (body as Body)['payload'] : r.template === 'custom' ? CUSTOM_EXAMPLE : ALERT_TEMPLATES[r.template].example
    if (typeof payload !== 'object' || payload === null) throw new HttpError('BAD_REQUEST', 'payload must be a JSON object or array', [{ field: 'payload', problem: 'must be a JSON object or array' }])
    const outcomes = await renderAlerts(r.mapping, payload, { integrationId: r.id, requestId: request.id, receivedAtMs: Date.now() })
    return {
      alerts: outcomes.flatMap((o) => (o.ok ? [o.alert] : [])),
      rejected: outcomes.flatMap((o, index) => (o.ok ? [] : [{ index, reason: o.reason }])),
    }
  })

  app.post<{ Params: { id: string }; Querystring: { revoke?: string } }>('/api/v1/integrations/:id/rotate', async (request) => {
    const revoke = request.query.revoke
    if (revoke !== undefined && revoke !== 'now') throw new HttpError('BAD_REQUEST', 'revoke must be "now" or absent', [{ field: 'revoke', problem: 'must be "now" or absent' }])
    const overlapMs = revoke === 'now' ? 0 : opts.rotationOverlapMs
    const rotated = await opts.integrations.rotate(account(request), request.params.id, overlapMs)
    if (!rotated) throw new HttpError('NOT_FOUND', 'no such integration')
    return { ...withAddress(rotated), previousAddressValidUntil: new Date(Date.now() + overlapMs).toISOString() }
  })

  app.get<{ Params: { id: string }; Querystring: { limit?: string; before?: string } }>('/api/v1/integrations/:id/alerts', async (request) => {
    const r = found(await opts.integrations.get(account(request), request.params.id))
    const limit = request.query.limit === undefined ? 50 : Number(request.query.limit)
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ALERTS_PAGE) {
      throw new HttpError('BAD_REQUEST', `limit must be an integer from 1 to ${MAX_ALERTS_PAGE}`, [{ field: 'limit', problem: `must be an integer from 1 to ${MAX_ALERTS_PAGE}` }])
    }
    const before = request.query.before
    if (before !== undefined && !/^\d+-\d+$/.test(before)) throw new HttpError('BAD_REQUEST', 'before must be an alert id (e.g. 1795341600000-0)', [{ field: 'before', problem: 'must be an alert id' }])
    const entries = await opts.alerts.recent(r.id, limit, before)
    return {
      alerts: entries.map(({ id, fields }) => ({ id, ...fields, customFields: JSON.parse(fields['customFields'] ?? '{}') as unknown })),
    }
  })
}

/** Validates a create/replace body, or a patch applied on `current`. 400 names each bad field. */
function parseInput(raw: unknown, current: IntegrationRecord | undefined): IntegrationInput {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new HttpError('BAD_REQUEST', 'body must be a JSON object')
  const body = raw as Body
  const problems: { field: string; problem: string }[] = []
  const known = new Set(['name', 'description', 'template', 'mapping', 'rateLimitStatus'])
  for (const k of Object.keys(body)) if (!known.has(k)) problems.push({ field: k, problem: 'is not an integration field' })

  const has = (k: string) => Object.hasOwn(body, k)
  const name = has('name') ? body['name'] : current?.name
  if (typeof name !== 'string' || name.trim().length === 0 || name.length > 100) problems.push({ field: 'name', problem: 'must be a string of 1 to 100 characters' })
  const description = has('description') ? (body['description'] ?? '') : (current?.description ?? '')
  if (typeof description !== 'string' || description.length > 1000) problems.push({ field: 'description', problem: 'must be a string of at most 1000 characters' })

  const rawTemplate = has('template') ? body['template'] : (current?.template ?? 'custom')
  const template = rawTemplate === '' || rawTemplate === null || rawTemplate === undefined ? 'custom' : rawTemplate
  const isTemplate = (TEMPLATE_IDS as readonly unknown[]).includes(template)
  if (!isTemplate && template !== 'custom') problems.push({ field: 'template', problem: `must be one of ${TEMPLATE_IDS.join(', ')}, custom or blank` })

  // A changed template brings its mapping unless a mapping is given; custom needs one.
  let mapping: unknown = has('mapping') ? body['mapping'] : template === current?.template ? current.mapping : isTemplate ? ALERT_TEMPLATES[template as TemplateId].mapping : undefined
  if (mapping === undefined) {
    if (template === 'custom') problems.push({ field: 'mapping', problem: 'is required for a custom integration' })
  } else {
    const checked = checkMapping(mapping)
    if (checked.ok) mapping = checked.mapping
    else problems.push(...checked.problems)
  }

  const defaultStatus: RateLimitStatus = isTemplate ? ALERT_TEMPLATES[template as TemplateId].rateLimitStatus : 429
  const rateLimitStatus = has('rateLimitStatus') ? body['rateLimitStatus'] : template === current?.template ? current.rateLimitStatus : defaultStatus
  if (rateLimitStatus !== 429 && rateLimitStatus !== 503) problems.push({ field: 'rateLimitStatus', problem: 'must be 429 or 503' })

  if (problems.length > 0) throw new HttpError('BAD_REQUEST', problems.map((p) => `${p.field} ${p.problem}`).join('; '), problems)
  return {
    name: (name as string).trim(),
    description: description as string,
    template: template as TemplateId | 'custom',
    mapping: mapping as AlertMapping,
    rateLimitStatus: rateLimitStatus as RateLimitStatus,
  }
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`
}
