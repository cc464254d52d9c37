// On-call schedules, under /api/v1/schedules: made, read, replaced and removed; who is on call at a time, the shifts of
// the coming days; secret calendar feed addresses of a schedule or of a responder. Account-wide, as incidents are: an
// admin key without workspace or environment restriction reads them, one with role all changes them.
// The feeds themselves (/api/v1/oncall/feeds/<token>.ics) are read by calendar applications, which send no header:
// their token is the credential, and they are rated per account as expensive reads.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { ApiKeyCache } from '../../auth/api-keys.js'
import { HttpError } from '../../http/errors.js'
import { INSTANT_PROBLEM, instantText, type OnCallService } from '../../services/oncall.js'
import type { StoredSchedule } from '../../state/redis/oncall.js'
import { rated, roleAll, useAccountWideAdminKey, type AdminLimits } from '../admin-key.js'
import { alertAnswers, answer } from '../alerts/schemas.js'
import { ADMIN_SECURITY } from '../split/schemas.js'
import {
  FeedAnswer,
  FeedBody,
  FeedParams,
  OnCall,
  OnCallQuery,
  Schedule,
  ScheduleBody,
  ScheduleParams,
  Shifts,
  ShiftsQuery,
} from './schemas.js'

export interface ScheduleRoutesOptions {
  readonly apiKeys: ApiKeyCache
  readonly limits: AdminLimits
  readonly oncall: OnCallService
  /** The address this API is reached at (feeds' URLs are made with it). */
  readonly publicBaseUrl: () => string
}

const DAY_MS = 86_400_000
const iso = (ms: number) => new Date(ms).toISOString()

function scheduleView(s: StoredSchedule) {
  return {
    id: s.id,
    name: s.name,
    timeZone: s.timeZone,
    layers: s.layers,
    overrides: s.overrides ?? [],
    version: s.version,
    updatedAt: iso(s.updatedAt),
    updatedBy: s.updatedBy,
  }
}

/** An ISO 8601 time of a query (with its offset, years 2000 to 2200), or now; a 400 naming the field otherwise. */
function instant(text: string | undefined, field: string): number {
  if (text === undefined) return Date.now()
  const ms = instantText(text)
  if (ms === undefined)
    throw new HttpError('BAD_REQUEST', `${field} is not a time`, [{ field, problem: INSTANT_PROBLEM }])
  return ms
}

export async function scheduleRoutes(server: FastifyInstance, opts: ScheduleRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  useAccountWideAdminKey(app, opts, 'schedules', false)
  const account = (request: FastifyRequest) => request.admin!.accountId
  const by = (request: FastifyRequest) => `key:${request.admin!.id}`
  const tags = ['on call']
  const { oncall } = opts

  app.get(
    '/api/v1/schedules',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: "The account's on-call schedules, by name",
        response: alertAnswers({ 200: answer('The schedules', Type.Object({ schedules: Type.Array(Schedule) })) }),
      },
    },
    async (request) => ({ schedules: (await oncall.list(account(request))).map(scheduleView) }),
  )

  app.post(
    '/api/v1/schedules',
    {
      config: { expensive: true },
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Makes a schedule: layers of rotations of the account’s users, restrictions, overrides',
        body: ScheduleBody,
        response: alertAnswers({ 201: answer('The schedule', Schedule) }, [409]),
      },
    },
    async (request, reply) => {
      roleAll(request, 'making a schedule')
      const saved = await oncall.save(account(request), request.body, by(request))
      return reply.code(201).send(scheduleView(saved))
    },
  )

  app.get(
    '/api/v1/schedules/:id',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'One schedule',
        params: ScheduleParams,
        response: alertAnswers({ 200: answer('The schedule', Schedule) }, [404]),
      },
    },
    async (request) => scheduleView(await oncall.get(account(request), request.params.id)),
  )

  app.put(
    '/api/v1/schedules/:id',
    {
      config: { expensive: true },
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Replaces a schedule (with `version`: only if it has not changed since)',
        params: ScheduleParams,
        body: ScheduleBody,
        response: alertAnswers({ 200: answer('The schedule', Schedule) }, [404, 409]),
      },
    },
    async (request) => {
      roleAll(request, 'changing a schedule')
      return scheduleView(await oncall.save(account(request), request.body, by(request), request.params.id))
    },
  )

  app.delete(
    '/api/v1/schedules/:id',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Removes a schedule',
        params: ScheduleParams,
        response: alertAnswers({ 204: Type.Null({ description: 'Removed' }) }, [404]),
      },
    },
    async (request, reply) => {
      roleAll(request, 'removing a schedule')
      await oncall.remove(account(request), request.params.id)
      return reply.code(204).send()
    },
  )

  app.get(
    '/api/v1/schedules/:id/on-call',
    {
      config: { expensive: true },
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Who is on call now, or at a time, and until when',
        params: ScheduleParams,
        querystring: OnCallQuery,
        response: alertAnswers({ 200: answer('Who is on call', OnCall) }, [404]),
      },
    },
    async (request) => {
      const at = instant(request.query.at, 'at')
      const schedule = await oncall.get(account(request), request.params.id)
      const { responder, until } = await oncall.onCall(account(request), schedule, at)
      return { at: iso(at), responder, until: until === null ? null : iso(until) }
    },
  )

  app.get(
    '/api/v1/schedules/:id/shifts',
    {
      config: { expensive: true },
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'The shifts of the coming days (or of days from a time)',
        params: ScheduleParams,
        querystring: ShiftsQuery,
        response: alertAnswers({ 200: answer('The shifts', Shifts) }, [404]),
      },
    },
    async (request) => {
      const from = instant(request.query.from, 'from')
      const to = from + (request.query.days ?? 14) * DAY_MS
      const schedule = await oncall.get(account(request), request.params.id)
      const list = await oncall.shifts(account(request), schedule, from, to)
      return {
        from: iso(from),
        to: iso(to),
        shifts: list.map((s) => ({ start: iso(s.start), end: iso(s.end), responder: s.responder })),
      }
    },
  )

  app.post(
    '/api/v1/oncall/feeds',
    {
      config: { expensive: true },
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'A secret calendar feed address (iCalendar) of a schedule, or of a responder in every schedule',
        body: FeedBody,
        response: alertAnswers({ 201: answer('The feed', FeedAnswer) }, [404]),
      },
    },
    async (request, reply) => {
      roleAll(request, 'making a calendar feed')
      const token = await oncall.createFeed(account(request), request.body)
      return reply.code(201).send({ url: `${opts.publicBaseUrl()}/api/v1/oncall/feeds/${token}.ics` })
    },
  )

  app.delete(
    '/api/v1/oncall/feeds/:token',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Revokes a calendar feed: its address answers 404 from now on',
        params: FeedParams,
        response: alertAnswers({ 204: Type.Null({ description: 'Revoked' }) }, [404]),
      },
    },
    async (request, reply) => {
      roleAll(request, 'revoking a calendar feed')
      await oncall.removeFeed(account(request), request.params.token.replace(/\.ics$/, ''))
      return reply.code(204).send()
    },
  )
}

/** The calendar feeds: no API key (calendar applications send none), the token in the address. */
export async function feedRoutes(
  server: FastifyInstance,
  opts: { readonly oncall: OnCallService; readonly limits: AdminLimits },
): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  app.get(
    '/api/v1/oncall/feeds/:token',
    {
      schema: {
        tags: ['on call'],
        summary: 'A calendar feed (text/calendar): the shifts of the past two weeks and the next six months',
        params: FeedParams,
        response: alertAnswers({ 200: Type.String({ description: 'iCalendar (RFC 5545)' }) }, [404]),
      },
    },
    async (request, reply) => {
      const token = request.params.token.replace(/\.ics$/, '')
      const text = await opts.oncall.calendar(token, Date.now(), (accountId) =>
        rated(request, reply, opts.limits.expensive, `feed:${accountId}`, "this account's calendar feeds", false),
      )
      return reply.type('text/calendar; charset=utf-8').header('cache-control', 'private, max-age=300').send(text)
    },
  )
}
