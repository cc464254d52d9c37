// Escalation policies under /api/v1/escalation-policies (made, read, replaced, removed), the account's default policy
// (/api/v1/oncall/default-policy), responders' contact methods and notification rules
// (/api/v1/oncall/responders/<user>), and where an incident's escalation is (/api/v1/incidents/<id>/escalation).
// Account-wide, as schedules are.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { ApiKeyCache } from '../../auth/api-keys.js'
import type { EscalationService } from '../../services/escalation.js'
import type { StoredPolicy, StoredProfile } from '../../state/redis/oncall.js'
import { roleAll, useAccountWideAdminKey, type AdminLimits } from '../admin-key.js'
import { alertAnswers, answer } from '../alerts/schemas.js'
import { ADMIN_SECURITY } from '../split/schemas.js'
import {
  DefaultPolicy,
  IncidentParams,
  Policy,
  PolicyBody,
  Profile,
  ResponderParams,
  RunningEscalation,
  ScheduleParams,
} from './schemas.js'
import { ProfileSchema } from '../../pipeline/oncall/responders.js'

export interface EscalationRoutesOptions {
  readonly apiKeys: ApiKeyCache
  readonly limits: AdminLimits
  readonly escalation: EscalationService
}

const iso = (ms: number) => new Date(ms).toISOString()

const policyView = (p: StoredPolicy) => ({
  id: p.id,
  name: p.name,
  steps: p.steps,
  repeat: p.repeat ?? 0,
  version: p.version,
  updatedAt: iso(p.updatedAt),
  updatedBy: p.updatedBy,
})

const profileView = (p: StoredProfile) => ({
  userId: p.userId,
  contactMethods: p.contactMethods,
  rules: p.rules,
  updatedAt: p.updatedAt ? iso(p.updatedAt) : null,
})

export async function escalationRoutes(server: FastifyInstance, opts: EscalationRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  useAccountWideAdminKey(app, opts, 'escalation policies', false)
  const account = (request: FastifyRequest) => request.admin!.accountId
  const by = (request: FastifyRequest) => `key:${request.admin!.id}`
  const tags = ['on call']
  const { escalation } = opts

  app.get(
    '/api/v1/escalation-policies',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: "The account's escalation policies, by name",
        response: alertAnswers({ 200: answer('The policies', Type.Object({ policies: Type.Array(Policy) })) }),
      },
    },
    async (request) => ({ policies: (await escalation.list(account(request))).map(policyView) }),
  )

  app.post(
    '/api/v1/escalation-policies',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Makes an escalation policy: steps paging schedules, users or destinations, each waiting some minutes',
        body: PolicyBody,
        response: alertAnswers({ 201: answer('The policy', Policy) }, [409]),
      },
    },
    async (request, reply) => {
      roleAll(request, 'making an escalation policy')
      return reply.code(201).send(policyView(await escalation.save(account(request), request.body, by(request))))
    },
  )

  app.get(
    '/api/v1/escalation-policies/:id',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'One escalation policy',
        params: ScheduleParams,
        response: alertAnswers({ 200: answer('The policy', Policy) }, [404]),
      },
    },
    async (request) => policyView(await escalation.get(account(request), request.params.id)),
  )

  app.put(
    '/api/v1/escalation-policies/:id',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Replaces an escalation policy (with `version`: only if it has not changed since)',
        params: ScheduleParams,
        body: PolicyBody,
        response: alertAnswers({ 200: answer('The policy', Policy) }, [404, 409]),
      },
    },
    async (request) => {
      roleAll(request, 'changing an escalation policy')
      return policyView(await escalation.save(account(request), request.body, by(request), request.params.id))
    },
  )

  app.delete(
    '/api/v1/escalation-policies/:id',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Removes an escalation policy no other policy hands over to and no alert rule names',
        params: ScheduleParams,
        response: alertAnswers({ 204: Type.Null({ description: 'Removed' }) }, [404, 409]),
      },
    },
    async (request, reply) => {
      roleAll(request, 'removing an escalation policy')
      await escalation.remove(account(request), request.params.id)
      return reply.code(204).send()
    },
  )

  app.get(
    '/api/v1/oncall/default-policy',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'The policy an incident follows when no alert rule gives it one',
        response: alertAnswers({ 200: answer('The default policy', DefaultPolicy) }),
      },
    },
    async (request) => ({ policyId: (await escalation.defaultPolicy(account(request))) ?? null }),
  )

  app.put(
    '/api/v1/oncall/default-policy',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Sets (or, with null, clears) the default escalation policy',
        body: DefaultPolicy,
        response: alertAnswers({ 200: answer('The default policy', DefaultPolicy) }, [404]),
      },
    },
    async (request) => {
      roleAll(request, 'setting the default escalation policy')
      await escalation.setDefaultPolicy(account(request), request.body.policyId)
      return { policyId: request.body.policyId }
    },
  )

  app.get(
    '/api/v1/oncall/responders/:userId',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: "A responder's contact methods and notification rules",
        params: ResponderParams,
        response: alertAnswers({ 200: answer('The responder', Profile) }, [404]),
      },
    },
    async (request) => profileView(await escalation.profile(account(request), request.params.userId)),
  )

  app.put(
    '/api/v1/oncall/responders/:userId',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: "Replaces a responder's contact methods and notification rules",
        params: ResponderParams,
        body: ProfileSchema,
        response: alertAnswers({ 200: answer('The responder', Profile) }, [404]),
      },
    },
    async (request) => {
      roleAll(request, "changing a responder's contact methods")
      return profileView(await escalation.saveProfile(account(request), request.params.userId, request.body))
    },
  )

  app.get(
    '/api/v1/incidents/:id/escalation',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: "Where an incident's escalation is (its steps fired are on the incident's timeline)",
        params: IncidentParams,
        response: alertAnswers({ 200: answer('The escalation', RunningEscalation) }),
      },
    },
    async (request) => {
      const state = await escalation.running(account(request), request.params.id)
      if (!state) return { running: false }
      const { policyId, round, step, dueAt } = state
      return { running: true, policyId, round, step, nextAt: iso(dueAt) }
    },
  )
}
