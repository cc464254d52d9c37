// An integration's sender authentication (mounted under the integrations routes, with their key check):
// read it, set it up, add a second secret to rotate, retire a secret, turn it off. A secret appears
// only in the answer that made it.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import type { SenderAuthService } from '../../services/sender-auth.js'
import { ADMIN_SECURITY } from '../split/schemas.js'
import {
  answer,
  IdParams,
  integrationAnswers,
  SecretBody,
  SecretParams,
  SenderAuthAnswer,
  SenderAuthBody,
  SenderAuthView,
  SenderAuthWithSecret,
} from './schemas.js'

export interface SenderAuthRoutesOptions {
  readonly senderAuth: SenderAuthService
}

const tags = ['integrations']
const PATH = '/api/v1/integrations/:id/authentication'

export async function senderAuthRoutes(server: FastifyInstance, opts: SenderAuthRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  const service = opts.senderAuth
  const account = (request: { admin?: { accountId: string } }) => request.admin!.accountId
  const withSecret = ({ view, secret }: Awaited<ReturnType<SenderAuthService['set']>>) => ({
    authentication: view,
    secret,
  })

  app.get(
    PATH,
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          "The integration's sender authentication: scheme, secrets (ids, last use) and refused requests; null when none",
        params: IdParams,
        response: integrationAnswers({ 200: answer('Its sender authentication', SenderAuthAnswer) }, [404]),
      },
    },
    async (request) => ({ authentication: await service.view(account(request), request.params.id) }),
  )

  app.put(
    PATH,
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          'Set up (or replace) sender authentication with one secret, shown in this answer only; senders without it get 401',
        params: IdParams,
        body: SenderAuthBody,
        response: integrationAnswers(
          { 200: answer('The sender authentication, and its secret (shown once)', SenderAuthWithSecret) },
          [404, 409],
        ),
      },
    },
    async (request) => withSecret(await service.set(account(request), request.params.id, request.body)),
  )

  app.delete(
    PATH,
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Turn sender authentication off: the address alone is believed again',
        params: IdParams,
        response: integrationAnswers({ 204: { description: 'Turned off', type: 'null' } }, [404]),
      },
    },
    async (request, reply) => {
      await service.clear(account(request), request.params.id)
      return reply.code(204).send()
    },
  )

  app.post(
    `${PATH}/secrets`,
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          'Add a second secret (both work): move the sender to it, then retire the old one. The secret is shown in this answer only',
        params: IdParams,
        body: SecretBody,
        response: integrationAnswers(
          { 201: answer('The sender authentication, and the new secret (shown once)', SenderAuthWithSecret) },
          [404, 409],
        ),
      },
      // No body is a secret made by Sluice.
      preValidation: async (request) => {
        request.body ??= {}
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(withSecret(await service.addSecret(account(request), request.params.id, request.body.secret))),
  )

  app.delete(
    `${PATH}/secrets/:secretId`,
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Retire a secret: requests made with it get 401 from now on (the last one cannot be retired)',
        params: SecretParams,
        response: integrationAnswers({ 200: answer('The sender authentication left', SenderAuthView) }, [404, 409]),
      },
    },
    async (request) => service.removeSecret(account(request), request.params.id, request.params.secretId),
  )
}
