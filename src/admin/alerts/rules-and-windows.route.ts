// Alert rules and maintenance windows, per account: an admin key without workspace or environment
// restriction reads them (any role) and tests rules; one with role all changes them. Another account's
// windows are not found (404), as if they did not exist.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ApiKeyCache } from '../../auth/api-keys.js'
import { activeAt, occurrences } from '../../pipeline/alerts/windows.js'
import type { RulesAndWindowsService } from '../../services/rules-and-windows.js'
import type { StoredRuleSet, StoredWindow } from '../../state/redis/rules-and-windows.js'
import { roleAll, type AdminLimits, useAccountWideAdminKey } from '../admin-key.js'
import { ADMIN_SECURITY } from '../split/schemas.js'
import { alertAnswers, answer } from './schemas.js'
import {
  Calendar,
  CalendarQuery,
  DroppedList,
  DroppedQuery,
  RuleSet,
  RuleSetBody,
  TestBody,
  TestResult,
  VersionParams,
  Window,
  WindowBody,
  WindowList,
  WindowParams,
} from './rules-and-windows-schemas.js'

export interface RulesAndWindowsRoutesOptions {
  readonly apiKeys: ApiKeyCache
  /** Per API key, and per account for the expensive calls. */
  readonly limits: AdminLimits
  readonly rulesAndWindows: RulesAndWindowsService
  /** Entries kept per alert stream (a release's triggered entries are trimmed like the others). */
  readonly streamMaxLen: number
  /** The largest webhook body: the test route takes a payload that large, with rules beside it. */
  readonly webhookMaxBodyBytes: number
}

/** 500 rules of a few KB each, and room for a hostile one to be refused by name rather than by size. */
const RULES_BODY_LIMIT = 4 * 1024 * 1024
const DAY_MS = 86_400_000

const iso = (ms: number) => new Date(ms).toISOString()

const ruleSetView = (r: StoredRuleSet) => ({
  version: r.version,
  rules: r.rules,
  updatedAt: r.updatedAt ? iso(r.updatedAt) : null,
  ...(r.updatedBy ? { updatedBy: r.updatedBy } : {}),
})

function windowView(w: StoredWindow, now = Date.now()) {
  const running = activeAt(w.schedule, now)
  const next = running ?? occurrences(w.schedule, now, now + 8 * DAY_MS)[0]
  return {
    id: w.id,
    name: w.name,
    ...(w.when !== undefined ? { when: w.when } : {}),
    schedule: w.schedule,
    createdAt: iso(w.createdAt),
    updatedAt: iso(w.updatedAt),
    activeNow: running !== undefined,
    next: next ? { start: iso(next.start), end: iso(next.end) } : null,
  }
}

export async function rulesAndWindowsRoutes(
  server: FastifyInstance,
  opts: RulesAndWindowsRoutesOptions,
): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  useAccountWideAdminKey(app, opts, 'alert rules and maintenance windows', false)
  const service = opts.rulesAndWindows
  const account = (request: FastifyRequest) => request.admin!.accountId
  /** The caller of a change: a key with role all. */
  const changer = (request: FastifyRequest): string =>
    `key:${roleAll(request, 'changing alert rules and maintenance windows').id}`

  const rulesTags = ['alert rules']
  const windowTags = ['maintenance windows']

  app.get(
    '/api/v1/alert-rules',
    {
      schema: {
        tags: rulesTags,
        security: ADMIN_SECURITY,
        summary: "The account's alert rules, in the order they apply, and their version",
        response: alertAnswers({ 200: answer('The rule set', RuleSet) }),
      },
    },
    async (request) => ruleSetView(await service.rules(account(request))),
  )

  app.put(
    '/api/v1/alert-rules',
    {
      bodyLimit: RULES_BODY_LIMIT,
      config: { expensive: true },
      schema: {
        tags: rulesTags,
        security: ADMIN_SECURITY,
        summary:
          'Replace the rules (a new version; the alerts consumers apply it within seconds). Every rule is checked: an unknown field, an unsafe regex or a condition no alert can satisfy is a 400 naming it',
        body: RuleSetBody,
        response: alertAnswers({ 200: answer('The rule set saved', RuleSet) }, [409, 413]),
      },
    },
    async (request) => ruleSetView(await service.saveRules(account(request), request.body, changer(request))),
  )

  app.get(
    '/api/v1/alert-rules/versions/:version',
    {
      schema: {
        tags: rulesTags,
        security: ADMIN_SECURITY,
        summary: "A rule set as it was saved (an alert's rulesVersion); the last 50 are kept",
        params: VersionParams,
        response: alertAnswers({ 200: answer('That version', RuleSet) }, [404]),
      },
    },
    async (request) => ruleSetView(await service.rulesAt(account(request), request.params.version)),
  )

  app.post(
    '/api/v1/alert-rules/test',
    {
      bodyLimit: opts.webhookMaxBodyBytes + RULES_BODY_LIMIT,
      config: { expensive: true },
      schema: {
        tags: rulesTags,
        security: ADMIN_SECURITY,
        summary:
          "What the rules (saved, or given) and the maintenance windows make of an alert, or of the alerts an integration's mapping renders from a payload (its example when none is given). Nothing is stored",
        body: TestBody,
        response: alertAnswers({ 200: answer('Each alert before and after', TestResult) }, [404, 413]),
      },
    },
    async (request) => service.test(account(request), request.body),
  )

  app.get(
    '/api/v1/alert-rules/dropped',
    {
      schema: {
        tags: rulesTags,
        security: ADMIN_SECURITY,
        summary: 'The alerts rules dropped in the last day, newest first: the request each came in, and the rule',
        querystring: DroppedQuery,
        response: alertAnswers({ 200: answer('Dropped alerts', DroppedList) }),
      },
    },
    async (request) => ({ dropped: await service.dropped(account(request), request.query.limit ?? 100) }),
  )

  app.get(
    '/api/v1/maintenance-windows',
    {
      schema: {
        tags: windowTags,
        security: ADMIN_SECURITY,
        summary: "The account's maintenance windows, each with whether it runs now and its next occurrence",
        response: alertAnswers({ 200: answer('The windows', WindowList) }),
      },
    },
    async (request) => {
      const now = Date.now()
      return { windows: (await service.windows(account(request))).map((w) => windowView(w, now)) }
    },
  )

  app.get(
    '/api/v1/maintenance-windows/calendar',
    {
      config: { expensive: true },
      schema: {
        tags: windowTags,
        security: ADMIN_SECURITY,
        summary: "Each window's occurrences between from and to (default: the next 7 days): what is quiet now and next",
        querystring: CalendarQuery,
        response: alertAnswers({ 200: answer('The occurrences', Calendar) }),
      },
    },
    async (request) => ({
      windows: await service.calendar(account(request), request.query.from, request.query.to),
    }),
  )

  app.post(
    '/api/v1/maintenance-windows',
    {
      config: { expensive: true },
      schema: {
        tags: windowTags,
        security: ADMIN_SECURITY,
        summary:
          'Create a window: one-off (from, to) or weekly (days, start and end in a time zone), for alerts matching its condition (absent: all). Firing alerts arriving in it are stored as suppressed; resolves and acknowledgements pass',
        body: WindowBody,
        response: alertAnswers({ 201: answer('The window', Window) }, [409]),
      },
    },
    async (request, reply) => {
      changer(request)
      return reply.code(201).send(windowView(await service.createWindow(account(request), request.body)))
    },
  )

  app.get(
    '/api/v1/maintenance-windows/:id',
    {
      schema: {
        tags: windowTags,
        security: ADMIN_SECURITY,
        summary: 'One window',
        params: WindowParams,
        response: alertAnswers({ 200: answer('The window', Window) }, [404]),
      },
    },
    async (request) => windowView(await service.window(account(request), request.params.id)),
  )

  app.put(
    '/api/v1/maintenance-windows/:id',
    {
      config: { expensive: true },
      schema: {
        tags: windowTags,
        security: ADMIN_SECURITY,
        summary:
          'Replace a window. Alerts it suppresses stay so until its changed occurrence ends, or are released now (triggered) when it no longer runs',
        params: WindowParams,
        body: WindowBody,
        response: alertAnswers({ 200: answer('The window', Window) }, [404, 409]),
      },
    },
    async (request) => {
      changer(request)
      return windowView(
        await service.replaceWindow(account(request), request.params.id, request.body, opts.streamMaxLen),
      )
    },
  )

  app.delete(
    '/api/v1/maintenance-windows/:id',
    {
      config: { expensive: true },
      schema: {
        tags: windowTags,
        security: ADMIN_SECURITY,
        summary: 'Delete a window: the alerts it suppresses are released now, each with a triggered event',
        params: WindowParams,
        response: alertAnswers({ 204: { description: 'Deleted', type: 'null' } }, [404, 409]),
      },
    },
    async (request, reply) => {
      changer(request)
      await service.deleteWindow(account(request), request.params.id, opts.streamMaxLen)
      return reply.code(204).send()
    },
  )
}
