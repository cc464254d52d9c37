// The incidents API: an account's incidents (groups of alerts, lua/incidents.lua), listed by status, read with
// their alerts and timeline, acknowledged and resolved through their alerts. Access as for alerts: an admin key
// without workspace or environment restriction reads them, one with role all acts on them.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ApiKeyCache } from '../../auth/api-keys.js'
import { HttpError } from '../../http/errors.js'
import { mergeRefusal } from '../../services/incidents.js'
import { noiseWindows } from '../../services/noise.js'
import { isAlertCursor } from '../../state/redis/alerts.js'
import type { IncidentRecord, IncidentStore } from '../../state/redis/incidents.js'
import type { NotifyStore } from '../../state/redis/notify.js'
import { roleAll, type AdminLimits, useAccountWideAdminKey } from '../admin-key.js'
import { ADMIN_SECURITY } from '../split/schemas.js'
import { alertView } from './alerts.route.js'
import {
  Incident,
  IncidentList,
  IncidentListQuery,
  IncidentParams,
  IncidentQuery,
  IncidentWithMembers,
  MemberParams,
  MergeBody,
  Noise,
} from './incident-schemas.js'
import { Alert, alertAnswers, answer } from './schemas.js'

export interface IncidentRoutesOptions {
  readonly apiKeys: ApiKeyCache
  readonly limits: AdminLimits
  readonly incidents: IncidentStore
  /** Notification volume, for the noise figures' notifications. */
  readonly notify: NotifyStore
  /** Entries kept per alert stream (the alerts' changes an acknowledge or resolve writes). */
  readonly streamMaxLen: number
}

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString())

/** An incident as the API shows it: times in ISO 8601, without its account or bookkeeping. */
export function incidentView(i: IncidentRecord) {
  return {
    id: i.id,
    title: i.title,
    status: i.status,
    severity: i.severity,
    key: i.key,
    ...(i.rule ? { rule: i.rule } : {}),
    openAlerts: i.open,
    alerts: i.alerts,
    ...(i.overflow ? { overflow: i.overflow } : {}),
    firstSeenAt: iso(i.firstSeenAt)!,
    lastSeenAt: iso(i.lastSeenAt)!,
    windowMs: i.windowMs,
    minAlerts: i.minAlerts,
    ...(i.previousIncidentId ? { previousIncidentId: i.previousIncidentId } : {}),
    ...(i.mergedInto ? { mergedInto: i.mergedInto } : {}),
    ...(i.mergingInto ? { mergingInto: i.mergingInto } : {}),
    ...(i.acknowledgedAt !== undefined
      ? { acknowledgedAt: iso(i.acknowledgedAt), acknowledgedBy: i.acknowledgedBy }
      : {}),
    ...(i.resolvedAt !== undefined ? { resolvedAt: iso(i.resolvedAt), resolvedBy: i.resolvedBy } : {}),
  }
}

export async function incidentRoutes(server: FastifyInstance, opts: IncidentRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  useAccountWideAdminKey(app, opts, 'incidents', false)
  const account = (request: FastifyRequest) => request.admin!.accountId
  const tags = ['incidents']

  app.get(
    '/api/v1/incidents',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: "The account's incidents, latest change first: open ones by default",
        querystring: IncidentListQuery,
        response: alertAnswers({
          200: answer('A page of incidents; nextCursor is null on the last page', IncidentList),
        }),
      },
    },
    async (request) => {
      const q = request.query
      if (q.cursor !== undefined && !isAlertCursor(q.cursor))
        throw new HttpError('BAD_REQUEST', 'cursor is not one this API gave out', [
          { field: 'cursor', problem: 'is not a nextCursor of this API' },
        ])
      const page = await opts.incidents.list(account(request), {
        status: q.status ?? 'open',
        limit: q.limit ?? 50,
        ...(q.cursor ? { cursor: q.cursor } : {}),
      })
      return { incidents: page.incidents.map(incidentView), nextCursor: page.nextCursor }
    },
  )

  app.get(
    '/api/v1/incidents/:id',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'One incident with its timeline and its alerts',
        params: IncidentParams,
        querystring: IncidentQuery,
        response: alertAnswers({ 200: answer('The incident', IncidentWithMembers) }, [404]),
      },
    },
    async (request) => {
      const incident = await opts.incidents.get(account(request), request.params.id)
      if (!incident) throw new HttpError('NOT_FOUND', 'no such incident')
      const members = await opts.incidents.members(account(request), incident.id, request.query.members ?? 100)
      return {
        ...incidentView(incident),
        timeline: incident.timeline.map((t) => ({ ...t, at: iso(t.at)! })),
        members: members.alerts.map((a) => alertView(a)),
      }
    },
  )

  app.get(
    '/api/v1/noise',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          'Noise figures over the last 24 hours and 7 days: alerts received, incidents opened, notifications sent, the compression, transient incidents, inhibited alerts, and the noisiest integrations',
        response: alertAnswers({ 200: answer('The figures of each window', Noise) }),
      },
    },
    async (request) => ({ windows: await noiseWindows(opts.incidents, opts.notify, account(request), Date.now()) }),
  )

  app.post(
    '/api/v1/incidents/:id/merge',
    {
      // Up to 10,000 alerts moved: rated per account as its expensive calls are.
      config: { expensive: true },
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          "Merge another incident into this one: its alerts join this one (500 per step, each a Redis script call), and it is closed (mergedInto); its destinations are told it resolved. The other incident's key opens a new incident when it fires again. Rated as an expensive call of the account",
        params: IncidentParams,
        body: MergeBody,
        response: alertAnswers({ 200: answer('This incident after the merge', Incident) }, [404, 409]),
      },
    },
    async (request) => {
      const by = `key:${roleAll(request, 'merging incidents').id}`
      const outcome = await opts.incidents.merge(
        account(request),
        request.params.id,
        request.body.from,
        by,
        opts.streamMaxLen,
      )
      if (outcome.kind === 'ok') return incidentView(outcome.incident)
      throw mergeRefusal(outcome.kind)
    },
  )

  app.post(
    '/api/v1/incidents/:id/alerts/:alertId/remove',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          'Take an open alert out of an incident into an incident of its own (told as a new incident while it fires); not the last open one: resolve the incident instead',
        params: MemberParams,
        response: alertAnswers({ 200: answer('The alert, in its new incident', Alert) }, [404, 409]),
      },
    },
    async (request) => {
      const by = `key:${roleAll(request, 'changing incidents').id}`
      const { id, alertId } = request.params
      const outcome = await opts.incidents.remove(account(request), id, alertId, by, opts.streamMaxLen)
      if (outcome.kind === 'ok') return alertView(outcome.alert)
      if (outcome.kind === 'not_found' || outcome.kind === 'not_member')
        throw new HttpError(
          'NOT_FOUND',
          outcome.kind === 'not_found' ? 'no such incident or alert' : 'the alert is not in this incident',
        )
      throw new HttpError(
        'CONFLICT',
        outcome.kind === 'not_open'
          ? 'the alert is resolved: it stays in the incident it resolved in'
          : "it is the incident's last open alert: resolve the incident instead",
      )
    },
  )

  for (const action of ['acknowledge', 'resolve'] as const) {
    app.post(
      `/api/v1/incidents/:id/${action}`,
      {
        // Up to 10,000 alerts changed, an entry in the streams each: rated per account as its expensive calls are.
        config: { expensive: true },
        schema: {
          tags,
          security: ADMIN_SECURITY,
          summary:
            action === 'acknowledge'
              ? 'Acknowledge an incident: each of its open alerts is acknowledged (an entry in the streams each); alerts that join later leave it acknowledged'
              : 'Resolve an incident: each of its open alerts is resolved; an alert of its key that fires again opens a new incident',
          params: IncidentParams,
          response: alertAnswers({ 200: answer('The incident after the change', Incident) }, [404, 409]),
        },
      },
      async (request) => {
        const by = `key:${roleAll(request, 'acknowledging and resolving incidents').id}`
        const outcome = await opts.incidents.act(account(request), request.params.id, action, by, opts.streamMaxLen)
        if (outcome.kind === 'not_found') throw new HttpError('NOT_FOUND', 'no such incident')
        if (outcome.kind === 'unchanged' && outcome.status === 'resolved' && action === 'acknowledge')
          throw new HttpError('CONFLICT', 'the incident is resolved; it cannot be acknowledged')
        return incidentView(outcome.incident)
      },
    )
  }
}
