// Alert integrations, for the admins of an account (admin API key, `Authorization: Bearer` or
// `x-api-key`): create, list, get, update, delete, test a payload, rotate the address, read alerts.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ApiKeyCache } from '../../auth/api-keys.js'
import { exampleOf, type IntegrationService } from '../../services/integrations.js'
import type { IntegrationRecord } from '../../state/redis/integrations.js'
import type { LifecycleCounts } from '../../state/redis/alerts.js'
import { keyId } from '../../state/redis/tenancy.js'
import { type AdminLimits, useAccountWideAdminKey } from '../admin-key.js'
import { ADMIN_SECURITY } from '../split/schemas.js'
import { senderAuthRoutes, type SenderAuthRoutesOptions } from './sender-auth.route.js'
import {
  AlertsPage,
  AlertsQuery,
  answer,
  DeletedIntegration,
  IdParams,
  Integration,
  integrationAnswers,
  IntegrationBody,
  IntegrationList,
  IntegrationPatch,
  IntegrationWithAddress,
  Rotated,
  PayloadList,
  RejectionList,
  RotateQuery,
  TestBody,
  TestResult,
} from './schemas.js'

export interface IntegrationRoutesOptions extends SenderAuthRoutesOptions {
  readonly apiKeys: ApiKeyCache
  /** Per API key, and per account for the expensive calls. */
  readonly limits: AdminLimits
  readonly integrations: IntegrationService
  readonly publicBaseUrl: () => string
  /** Called after every change of webhook routes, so this process's edge sees it at once. */
  readonly onRoutesChanged: () => Promise<void>
  /** The integration's lifecycle counts. */
  readonly lifecycleCounts: (accountId: string, integrationId: string) => Promise<LifecycleCounts>
  /** The largest webhook body: /test takes a payload that large, with a mapping beside it. */
  readonly webhookMaxBodyBytes: number
}

export async function integrationRoutes(server: FastifyInstance, opts: IntegrationRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  useAccountWideAdminKey(app, opts, 'integrations', true)
  // Before any answer to a change leaves: the caller may use the new address right away.
  app.addHook('onSend', async (request) => {
    if (request.method !== 'GET')
      await opts
        .onRoutesChanged()
        .catch((err: unknown) =>
          request.log.warn({ err }, 'webhook routes not reloaded; they will be within the refresh interval'),
        )
  })

  await app.register(integrationCrudRoutes, opts)
  await app.register(integrationToolRoutes, opts)
  await app.register(senderAuthRoutes, opts)
}

// The address is stored only as a hash: webhookUrl and testCommand exist only in the answers that
// create it (create, rotate). Elsewhere webhookAddressId (a prefix of the hash) tells addresses apart.
const view = (r: IntegrationRecord) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  template: r.template,
  mapping: r.mapping,
  rateLimitStatus: r.rateLimitStatus,
  emitRepeats: r.emitRepeats ?? false,
  autoResolveAfterSeconds: r.autoResolveAfterSeconds ?? null,
  senderAuth: r.senderAuth
    ? {
        scheme: r.senderAuth.scheme,
        ...(r.senderAuth.preset ? { preset: r.senderAuth.preset } : {}),
        secrets: r.senderAuth.secrets.length,
      }
    : null,
  webhookAddressId: keyId(r.webhookHash),
  createdAt: new Date(r.createdAt).toISOString(),
  updatedAt: new Date(r.updatedAt).toISOString(),
})
const withAddress = (
  opts: Pick<IntegrationRoutesOptions, 'publicBaseUrl'>,
  { record, webhookId }: { record: IntegrationRecord; webhookId: string },
) => {
  const webhookUrl = `${opts.publicBaseUrl()}/api/v1/webhook/${webhookId}`
  return {
    ...view(record),
    webhookUrl,
    testCommand: `curl -sS -X POST ${shellQuote(webhookUrl)} -H 'Content-Type: application/json' --data-binary ${shellQuote(JSON.stringify(exampleOf(record)))}`,
  }
}
const account = (request: FastifyRequest) => request.admin!.accountId

const tags = ['integrations']

/** Create, list, read, replace, change and delete integrations. */
async function integrationCrudRoutes(server: FastifyInstance, opts: IntegrationRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  const service = opts.integrations

  app.post(
    '/api/v1/integrations',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Create an integration; its secret webhook address is shown in this answer only',
        body: IntegrationBody,
        response: integrationAnswers({ 201: answer('The integration, with its address', IntegrationWithAddress) }),
      },
    },
    async (request, reply) =>
      reply.code(201).send(withAddress(opts, await service.create(account(request), request.body))),
  )

  app.get(
    '/api/v1/integrations',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: "The account's integrations",
        response: integrationAnswers({ 200: answer('The integrations', IntegrationList) }),
      },
    },
    async (request) => ({
      integrations: (await service.list(account(request))).map(view),
    }),
  )

  app.get(
    '/api/v1/integrations/:id',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'One integration',
        params: IdParams,
        response: integrationAnswers({ 200: answer('The integration', Integration) }, [404]),
      },
    },
    async (request) => {
      const record = await service.get(account(request), request.params.id)
      return {
        ...view(record),
        sample: await service.sample(account(request), record.id),
        lifecycleCounts: await opts.lifecycleCounts(account(request), record.id),
      }
    },
  )

  app.put(
    '/api/v1/integrations/:id',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Replace an integration (a changed template brings its mapping unless one is given)',
        params: IdParams,
        body: IntegrationBody,
        response: integrationAnswers({ 200: answer('The integration', Integration) }, [404]),
      },
    },
    async (request) => view(await service.update(account(request), request.params.id, request.body, false)),
  )
  app.patch(
    '/api/v1/integrations/:id',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Change some fields of an integration',
        params: IdParams,
        body: IntegrationPatch,
        response: integrationAnswers({ 200: answer('The integration', Integration) }, [404]),
      },
    },
    async (request) => view(await service.update(account(request), request.params.id, request.body, true)),
  )

  app.delete(
    '/api/v1/integrations/:id',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Delete an integration and its alert stream',
        params: IdParams,
        response: integrationAnswers({ 200: answer('Deleted', DeletedIntegration) }, [404]),
      },
    },
    async (request) => {
      await service.delete(account(request), request.params.id)
      return { id: request.params.id, deleted: true as const }
    },
  )
}

/** What on-call does with an integration: try its mapping, rotate its address, read what it received and made. */
async function integrationToolRoutes(server: FastifyInstance, opts: IntegrationRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  const service = opts.integrations

  app.post(
    '/api/v1/integrations/:id/test',
    {
      bodyLimit: opts.webhookMaxBodyBytes + 256 * 1024,
      config: { expensive: true },
      // No body is the template's example.
      preValidation: async (request) => {
        request.body ??= {}
      },
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Render a payload (absent: the template example) with the mapping, storing nothing',
        params: IdParams,
        body: TestBody,
        response: integrationAnswers(
          { 200: answer('The alerts it gives, and the rejected items with why', TestResult) },
          [404],
        ),
      },
    },
    async (request) =>
      service.test(account(request), request.params.id, request.body?.payload, request.id, request.body?.mapping),
  )

  app.post(
    '/api/v1/integrations/:id/rotate',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'A new secret address; the old one works for the overlap, or ends at once with ?revoke=now',
        params: IdParams,
        querystring: RotateQuery,
        response: integrationAnswers({ 200: answer('The integration with its new address', Rotated) }, [404]),
      },
    },
    async (request) => {
      const rotated = await service.rotate(account(request), request.params.id, request.query.revoke === 'now')
      return {
        ...withAddress(opts, rotated),
        previousAddressValidUntil: new Date(rotated.previousAddressValidUntil).toISOString(),
      }
    },
  )

  app.get(
    '/api/v1/integrations/:id/payloads',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          'The last 20 payloads the integration received in the past week, as received, newest first (up to 64 KiB each)',
        params: IdParams,
        response: integrationAnswers({ 200: answer('Payloads, newest first', PayloadList) }, [404]),
      },
    },
    async (request) => ({ payloads: await service.recentPayloads(account(request), request.params.id) }),
  )

  app.get(
    '/api/v1/integrations/:id/rejections',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          "The payloads the integration's mapping refused lately (among the account's last 5,000 rejections), by reason, most first, with up to 3 examples each shown as text",
        params: IdParams,
        response: integrationAnswers(
          {
            200: answer('Refused payloads by reason', RejectionList),
          },
          [404],
        ),
      },
    },
    async (request) => ({ reasons: await service.recentRejections(account(request), request.params.id) }),
  )

  app.delete(
    '/api/v1/integrations/:id/payloads',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: "Forget the integration's recent payloads now (they are kept a week otherwise)",
        params: IdParams,
        response: integrationAnswers({ 204: { type: 'null', description: 'Forgotten' } }, [404]),
      },
    },
    async (request, reply) => {
      await service.deletePayloads(account(request), request.params.id)
      return reply.code(204).send()
    },
  )

  app.get(
    '/api/v1/integrations/:id/alerts',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'The newest alerts of the integration, before an alert id when given',
        params: IdParams,
        querystring: AlertsQuery,
        response: integrationAnswers({ 200: answer('Alerts, newest first', AlertsPage) }, [404]),
      },
    },
    async (request) => ({
      alerts: await service.recentAlerts(
        account(request),
        request.params.id,
        request.query.limit,
        request.query.before,
      ),
    }),
  )
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`
}
