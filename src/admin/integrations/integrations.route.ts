// Alert integrations, for the admins of an account (admin API key, `Authorization: Bearer` or
// `x-api-key`): create, list, get, update, delete, test a payload, rotate the address, read alerts.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { presentedKey, type ApiKeyCache } from '../../auth/api-keys.js'
import { HttpError } from '../../http/errors.js'
import { exampleOf, MAX_ALERTS_PAGE, type IntegrationService } from '../../services/integrations.js'
import type { IntegrationRecord } from '../../state/redis/integrations.js'
import { keyId } from '../../state/redis/store.js'
import type {} from '../split/access.js'

export interface IntegrationRoutesOptions {
  readonly apiKeys: ApiKeyCache
  readonly integrations: IntegrationService
  readonly publicBaseUrl: () => string
  /** Called after every change of webhook routes, so this process's edge sees it at once. */
  readonly onRoutesChanged: () => Promise<void>
}


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
    return {
      ...view(record),
      webhookUrl,
      testCommand: `curl -sS -X POST ${shellQuote(webhookUrl)} -H 'Content-Type: application/json' --data-binary ${shellQuote(JSON.stringify(exampleOf(record)))}`,
    }
  }
  const account = (request: FastifyRequest) => request.admin!.accountId
  const service = opts.integrations

  // Before any answer to a change leaves: the caller may use the new address right away.
  app.addHook('onSend', async (request) => {
    if (request.method !== 'GET') await opts.onRoutesChanged().catch((err: unknown) => request.log.warn({ err }, 'webhook routes not reloaded; they will be within the refresh interval'))
  })

  app.post('/api/v1/integrations', async (request, reply) => reply.code(201).send(withAddress(await service.create(account(request), request.body))))

  app.get('/api/v1/integrations', async (request) => ({ integrations: (await service.list(account(request))).map(view) }))

  app.get<{ Params: { id: string } }>('/api/v1/integrations/:id', async (request) => view(await service.get(account(request), request.params.id)))

  app.put<{ Params: { id: string } }>('/api/v1/integrations/:id', async (request) => view(await service.update(account(request), request.params.id, request.body, false)))
  app.patch<{ Params: { id: string } }>('/api/v1/integrations/:id', async (request) => view(await service.update(account(request), request.params.id, request.body, true)))

  app.delete<{ Params: { id: string } }>('/api/v1/integrations/:id', async (request) => {
    await service.delete(account(request), request.params.id)
    return { id: request.params.id, deleted: true }
  })

  app.post<{ Params: { id: string } }>('/api/v1/integrations/:id/test', async (request) => {
    const body: unknown = request.body
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      throw new HttpError('BAD_REQUEST', 'body must be a JSON object {"payload": …}, or empty for the example payload', [{ field: 'body', problem: 'must be a JSON object' }])
    }
    const payload = body && Object.hasOwn(body, 'payload') ? (body as Record<string, unknown>)['payload'] : undefined
    return service.test(account(request), request.params.id, payload, request.id)
  })

  app.post<{ Params: { id: string }; Querystring: { revoke?: string } }>('/api/v1/integrations/:id/rotate', async (request) => {
    const revoke = request.query.revoke
    if (revoke !== undefined && revoke !== 'now') throw new HttpError('BAD_REQUEST', 'revoke must be "now" or absent', [{ field: 'revoke', problem: 'must be "now" or absent' }])
    const rotated = await service.rotate(account(request), request.params.id, revoke === 'now')
    return { ...withAddress(rotated), previousAddressValidUntil: new Date(rotated.previousAddressValidUntil).toISOString() }
  })

  app.get<{ Params: { id: string }; Querystring: { limit?: string; before?: string } }>('/api/v1/integrations/:id/alerts', async (request) => {
    const limit = request.query.limit === undefined ? 50 : Number(request.query.limit)
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ALERTS_PAGE) {
      throw new HttpError('BAD_REQUEST', `limit must be an integer from 1 to ${MAX_ALERTS_PAGE}`, [{ field: 'limit', problem: `must be an integer from 1 to ${MAX_ALERTS_PAGE}` }])
    }
    const before = request.query.before
    if (before !== undefined && !/^\d+-\d+$/.test(before)) throw new HttpError('BAD_REQUEST', 'before must be an alert id (e.g. 1795341600000-0)', [{ field: 'before', problem: 'must be an alert id' }])
    return { alerts: await service.recentAlerts(account(request), request.params.id, limit, before) }
  })
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`
}
