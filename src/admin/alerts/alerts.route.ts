// The alerts API: an account's alerts as incidents (one per integration and dedup key), listed with
// filters, read with their history, acknowledged and resolved. Alerts belong to the whole account, as
// its integrations do: an admin key without workspace or environment restriction reads them (any
// role, read-only ones included), and one with role all acknowledges and resolves them.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ApiKeyCache, Principal } from '../../auth/api-keys.js'
import { HttpError } from '../../http/errors.js'
import { ALERT_FILTERS, isAlertCursor, type AlertRecord, type AlertStore } from '../../state/redis/alerts.js'
import { roleAll, type AdminLimits, useAccountWideAdminKey } from '../admin-key.js'
import { ADMIN_SECURITY } from '../split/schemas.js'
import { Alert, AlertList, alertAnswers, AlertListQuery, AlertParams, AlertWithHistory, answer } from './schemas.js'

export interface AlertRoutesOptions {
  readonly apiKeys: ApiKeyCache
  /** Per API key, and per account for the expensive calls. */
  readonly limits: AdminLimits
  readonly alerts: AlertStore
  /** Entries kept per alert stream (the change an acknowledge or resolve writes is trimmed like the others). */
  readonly streamMaxLen: number
}

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString())

/** An alert as the API shows it: times in ISO 8601, without its account. */
export function alertView(a: AlertRecord, withHistory = false) {
  const { accountId, history, firstSeenAt, lastSeenAt, acknowledgedAt, resolvedAt, suppressedUntil, ...rest } = a
  void accountId // the caller's own account
  // The inhibition pairs are the script's bookkeeping.
  delete (rest as { inhibitSources?: unknown }).inhibitSources
  delete (rest as { inhibitTargets?: unknown }).inhibitTargets
  return {
    ...rest,
    firstSeenAt: iso(firstSeenAt)!,
    lastSeenAt: iso(lastSeenAt)!,
    ...(acknowledgedAt !== undefined ? { acknowledgedAt: iso(acknowledgedAt) } : {}),
    ...(resolvedAt !== undefined ? { resolvedAt: iso(resolvedAt) } : {}),
    ...(suppressedUntil !== undefined && a.status === 'suppressed' ? { suppressedUntil: iso(suppressedUntil) } : {}),
    ...(withHistory ? { history: history.map((h) => ({ ...h, at: iso(h.at)! })) } : {}),
  }
}

export async function alertRoutes(server: FastifyInstance, opts: AlertRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  useAccountWideAdminKey(app, opts, 'alerts', false)
  const account = (request: FastifyRequest) => request.admin!.accountId
  const actor = (request: FastifyRequest): Principal => roleAll(request, 'acknowledging and resolving alerts')
  const tags = ['alerts']

  app.get(
    '/api/v1/alerts',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          "The account's alerts, newest last notification first: open ones by default, filtered by integration, severity, service, environment or team",
        querystring: AlertListQuery,
        response: alertAnswers({ 200: answer('A page of alerts; nextCursor is null on the last page', AlertList) }),
      },
    },
    async (request) => {
      const q = request.query
      if (q.cursor !== undefined && !isAlertCursor(q.cursor))
        throw new HttpError('BAD_REQUEST', 'cursor is not one this API gave out', [
          { field: 'cursor', problem: 'is not a nextCursor of this API' },
        ])
      const filters = Object.fromEntries(ALERT_FILTERS.filter((f) => q[f] !== undefined).map((f) => [f, q[f]!]))
      const page = await opts.alerts.list(account(request), {
        status: q.status ?? 'open',
        filters,
        limit: q.limit ?? 50,
        ...(q.cursor ? { cursor: q.cursor } : {}),
      })
      return { alerts: page.alerts.map((a) => alertView(a)), nextCursor: page.nextCursor }
    },
  )

  app.get(
    '/api/v1/alerts/:id',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'One alert and its history',
        params: AlertParams,
        response: alertAnswers({ 200: answer('The alert', AlertWithHistory) }, [404]),
      },
    },
    async (request) => {
      const alert = await opts.alerts.get(account(request), request.params.id)
      if (!alert) throw new HttpError('NOT_FOUND', 'no such alert')
      return alertView(alert, true)
    },
  )

  for (const action of ['acknowledge', 'resolve'] as const) {
    app.post(
      `/api/v1/alerts/:id/${action}`,
      {
        schema: {
          tags,
          security: ADMIN_SECURITY,
          summary:
            action === 'acknowledge'
              ? 'Acknowledge a firing alert (who and when recorded, an entry in the streams); repeats keep it acknowledged'
              : 'Resolve an open alert (who and when recorded, an entry in the streams); the next firing of its key opens a new alert',
          params: AlertParams,
          response: alertAnswers({ 200: answer('The alert after the change', Alert) }, [404, 409]),
        },
      },
      async (request) => {
        const by = `key:${actor(request).id}`
        const outcome = await opts.alerts.act(account(request), request.params.id, action, by, opts.streamMaxLen)
        if (outcome.kind === 'not_found') throw new HttpError('NOT_FOUND', 'no such alert')
        if (outcome.kind === 'unchanged') {
          // Asking again for what is already so is not an error; acknowledging a resolved alert is.
          if (outcome.status === 'resolved' && action === 'acknowledge')
            throw new HttpError('CONFLICT', 'the alert is resolved; it cannot be acknowledged')
        }
        return alertView(outcome.alert)
      },
    )
  }
}
