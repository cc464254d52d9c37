// Acknowledging where the page arrived. The account's Slack app: its signing secret set with an admin key
// (PUT /api/v1/oncall/slack-app), and its Interactivity Request URL, /api/v1/oncall/slack/<account>/interactions, which
// Slack posts button clicks to (no key: Slack's signature is the credential). Email links,
// /api/v1/oncall/act/<token>: a GET shows what the link does and changes nothing (mail scanners open links), its form's
// POST does it, once. Both are rated per account as expensive calls.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import type { ApiKeyCache } from '../../auth/api-keys.js'
import { HttpError, type ErrorCode } from '../../http/errors.js'
import type { PageActions } from '../../services/page-actions.js'
import { rated, roleAll, useAccountWideAdminKey, type AdminLimits } from '../admin-key.js'
import { alertAnswers, answer } from '../alerts/schemas.js'
import { ADMIN_SECURITY } from '../split/schemas.js'

export interface PageActionRoutesOptions {
  readonly apiKeys: ApiKeyCache
  readonly limits: AdminLimits
  readonly actions: PageActions
  /** Posts the updated message to Slack's response_url (within the notifications' outbound policy). */
  readonly tellSlack: (responseUrl: string, message: unknown) => Promise<void>
}

/** The most a Slack interaction request's body may be. */
const SLACK_BODY_BYTES = 64 * 1024

const SlackApp = Type.Object(
  {
    signingSecret: Type.Union([Type.String({ minLength: 8, maxLength: 200 }), Type.Null()], {
      description: 'the Slack app’s Signing Secret (Basic Information); null removes it. Never shown again.',
    }),
  },
  { additionalProperties: false },
)
const SlackAppState = Type.Object({ set: Type.Boolean({ description: 'whether a signing secret is set' }) })

/** The account's Slack app settings: admin keys, as the other on-call settings. */
export async function slackAppRoutes(
  server: FastifyInstance,
  opts: Omit<PageActionRoutesOptions, 'tellSlack'>,
): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  useAccountWideAdminKey(app, opts, 'the Slack app', false)
  const tags = ['on call']
  app.get(
    '/api/v1/oncall/slack-app',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Whether the account’s Slack app (its buttons on pages) is set',
        response: alertAnswers({ 200: answer('The Slack app', SlackAppState) }),
      },
    },
    async (request) => ({ set: await opts.actions.slackAppSet(request.admin!.accountId) }),
  )
  app.put(
    '/api/v1/oncall/slack-app',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          'Sets the signing secret of the account’s Slack app: its button clicks, sent to /api/v1/oncall/slack/<account id>/interactions, are checked with it',
        body: SlackApp,
        response: alertAnswers({ 200: answer('The Slack app', SlackAppState) }),
      },
    },
    async (request) => {
      roleAll(request, 'setting the Slack app')
      await opts.actions.setSlackSigningSecret(request.admin!.accountId, request.body.signingSecret)
      return { set: request.body.signingSecret !== null }
    },
  )
}

/** The addresses Slack and email readers reach without a key. */
export async function pageActionRoutes(server: FastifyInstance, opts: PageActionRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  // Slack signs the body as sent: it is kept as text (form-encoded, its `payload` field JSON).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: SLACK_BODY_BYTES },
    (_request, body, done) => done(null, body),
  )
  const tags = ['on call']
  const admit = (request: Parameters<typeof rated>[0], reply: Parameters<typeof rated>[1], accountId: string) =>
    rated(request, reply, opts.limits.expensive, `page-actions:${accountId}`, "this account's page actions", false)

  app.post(
    '/api/v1/oncall/slack/:accountId/interactions',
    {
      bodyLimit: SLACK_BODY_BYTES,
      schema: {
        tags,
        summary:
          'Slack’s interaction requests (the Acknowledge and Resolve buttons of pages), signed by the account’s Slack app',
        params: Type.Object({ accountId: Type.String({ minLength: 1, maxLength: 100 }) }),
        body: Type.String({ description: 'application/x-www-form-urlencoded, as Slack sends it' }),
        response: alertAnswers(
          {
            200: Type.Object(
              {
                text: Type.String(),
                replace_original: Type.Optional(Type.Boolean()),
                response_type: Type.Optional(Type.Literal('ephemeral')),
                blocks: Type.Optional(Type.Array(Type.Unknown())),
              },
              { description: 'the updated message, or (ephemeral) why nothing changed: Slack’s format' },
            ),
          },
          [404, 409],
        ),
      },
    },
    async (request, reply) => {
      const { accountId } = request.params
      const header = (name: string) => {
        const v = request.headers[name]
        return typeof v === 'string' ? v : undefined
      }
      const answer = await opts.actions.slack(
        accountId,
        { timestamp: header('x-slack-request-timestamp'), signature: header('x-slack-signature') },
        typeof request.body === 'string' ? request.body : '',
        Date.now(),
        () => admit(request, reply, accountId),
      )
      // Not Slack's, or not a click: an error (Slack shows its users only a 200's message).
      if (answer.status >= 400) throw new HttpError(ERROR_CODES[answer.status] ?? 'BAD_REQUEST', answer.message.text)
      if (answer.responseUrl)
        void opts
          .tellSlack(answer.responseUrl, answer.message)
          .catch((err: unknown) => request.log.warn({ err, accountId }, 'the updated Slack message was not taken'))
      return answer.message
    },
  )

  const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 1000 }) })
  app.get(
    '/api/v1/oncall/act/:token',
    {
      schema: {
        tags,
        summary:
          'An email page’s link: a page saying what it does (acknowledge or resolve the incident), with a button that does it, or why it cannot be used; nothing changes',
        params: TokenParams,
        response: alertAnswers({ 200: Type.String({ description: 'text/html' }) }),
      },
    },
    async (request, reply) => {
      const view = await opts.actions.link(request.params.token, Date.now())
      const verb = view.ok && view.action === 'acknowledge' ? 'Acknowledge' : 'Resolve'
      const page = view.ok
        ? `<h1>${verb} this incident?</h1><p>${escape(view.incident.title)} (${escape(view.incident.status)})</p><form method="post"><button type="submit">${verb}</button></form>`
        : `<h1>This link cannot be used</h1><p>${escape(view.problem)}</p>`
      return html(reply, page)
    },
  )

  app.post(
    '/api/v1/oncall/act/:token',
    {
      schema: {
        tags,
        summary: 'Uses an email page’s link, once: acknowledges or resolves its incident as its responder',
        params: TokenParams,
        response: alertAnswers({ 200: Type.String({ description: 'text/html' }) }, [404, 409]),
      },
    },
    async (request, reply) => {
      const done = await opts.actions.useLink(request.params.token, Date.now(), (accountId) =>
        admit(request, reply, accountId),
      )
      if (done.status !== 200) throw new HttpError(ERROR_CODES[done.status] ?? 'CONFLICT', done.text)
      return html(reply, `<h1>Done</h1><p>${escape(done.text)}</p>`)
    },
  )
}

const ERROR_CODES: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
}

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

/** A small page of its own: no script, no outside resource, its form posted back to itself. */
function html(reply: import('fastify').FastifyReply, body: string) {
  return reply
    .type('text/html; charset=utf-8')
    .header('content-security-policy', "default-src 'none'; form-action 'self'; base-uri 'none'")
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .send(`<!doctype html><html><head><meta charset="utf-8"><title>Sluice</title></head><body>${body}</body></html>`)
}
