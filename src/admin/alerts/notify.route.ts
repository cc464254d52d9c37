// Notifications, per account: destinations, the default route, an alert's delivery log and the dead
// letter. An admin key without workspace or environment restriction reads them (any role); one with
// role all changes them, sends test messages and retries dead deliveries. Another account's are not
// found (404).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ApiKeyCache } from '../../auth/api-keys.js'
import type { DestinationInput, NotifyService } from '../../services/notify.js'
import { roleAll, type AdminLimits, useAccountWideAdminKey } from '../admin-key.js'
import { ADMIN_SECURITY } from '../split/schemas.js'
import { AlertParams, alertAnswers, answer } from './schemas.js'
import {
  Created,
  DeadQuery,
  Delivery,
  DeliveryList,
  DeliveryParams,
  Destination,
  DestinationBody,
  DestinationList,
  DestinationParams,
  Route,
  TestOutcome,
  Volume,
  VolumeQuery,
} from './notify-schemas.js'

export interface NotifyRoutesOptions {
  readonly apiKeys: ApiKeyCache
  /** Per API key, and per account for the expensive calls. */
  readonly limits: AdminLimits
  readonly notify: NotifyService
}

export async function notifyRoutes(server: FastifyInstance, opts: NotifyRoutesOptions): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  useAccountWideAdminKey(app, opts, 'notifications', false)
  const service = opts.notify
  const account = (request: FastifyRequest) => request.admin!.accountId
  const changer = (request: FastifyRequest) => roleAll(request, 'changing notifications').accountId
  const tags = ['notifications']

  app.get(
    '/api/v1/notification-destinations',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: "The account's notification destinations (no secrets) and its default route",
        response: alertAnswers({ 200: answer('Destinations', DestinationList) }),
      },
    },
    async (request) => service.list(account(request)),
  )

  app.post(
    '/api/v1/notification-destinations',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary:
          'A new destination: its URL or mail host must resolve to public addresses (checked again on every send); secrets are kept encrypted and never shown again',
        body: DestinationBody,
        response: alertAnswers({ 201: answer('The destination', Created) }, [409]),
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.create(changer(request), request.body as DestinationInput)),
  )

  app.get(
    '/api/v1/notification-destinations/:id',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'One destination (no secrets)',
        params: DestinationParams,
        response: alertAnswers({ 200: answer('The destination', Destination) }, [404]),
      },
    },
    async (request) => service.get(account(request), request.params.id),
  )

  app.put(
    '/api/v1/notification-destinations/:id',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Replace a destination (its kind stays; secrets left out keep their stored values)',
        params: DestinationParams,
        body: DestinationBody,
        response: alertAnswers({ 200: answer('The destination', Destination) }, [404, 409]),
      },
    },
    async (request) => service.update(changer(request), request.params.id, request.body as DestinationInput),
  )

  app.delete(
    '/api/v1/notification-destinations/:id',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Delete a destination (its pending deliveries are cancelled; it leaves the default route)',
        params: DestinationParams,
        response: alertAnswers({ 204: { description: 'Deleted', type: 'null' } }, [404]),
      },
    },
    async (request, reply) => {
      await service.delete(changer(request), request.params.id)
      return reply.code(204).send()
    },
  )

  app.post(
    '/api/v1/notification-destinations/:id/test',
    {
      config: { expensive: true },
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Send a test message now (not queued, not retried) and say what the receiver answered',
        params: DestinationParams,
        response: alertAnswers({ 200: answer('The outcome', TestOutcome) }, [404, 409]),
      },
    },
    async (request) => service.test(changer(request), request.params.id),
  )

  app.get(
    '/api/v1/notification-destinations/:id/deliveries',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: "A destination's last deliveries (up to 200 are kept), the latest first",
        params: DestinationParams,
        querystring: DeadQuery,
        response: alertAnswers({ 200: answer('Deliveries', DeliveryList) }, [404]),
      },
    },
    async (request) => ({
      deliveries: await service.destinationDeliveries(account(request), request.params.id, request.query.limit ?? 100),
    }),
  )

  app.get(
    '/api/v1/notification-route',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'The default route: where alerts go that no rule with notify applied to',
        response: alertAnswers({ 200: answer('The route', Route) }),
      },
    },
    async (request) => ({ destinations: await service.route(account(request)) }),
  )

  app.put(
    '/api/v1/notification-route',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Replace the default route',
        body: Route,
        response: alertAnswers({ 200: answer('The route', Route) }),
      },
    },
    async (request) => ({ destinations: await service.saveRoute(changer(request), request.body.destinations) }),
  )

  app.get(
    '/api/v1/alerts/:id/deliveries',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: "An alert's delivery log: what was sent where, when, with each attempt's outcome",
        params: AlertParams,
        response: alertAnswers({ 200: answer('Deliveries, oldest first', DeliveryList) }),
      },
    },
    async (request) => ({ deliveries: await service.alertDeliveries(account(request), request.params.id) }),
  )

  app.get(
    '/api/v1/notification-deliveries/dead',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'The dead letter: deliveries given up (refused, or failing past the give-up time), newest first',
        querystring: DeadQuery,
        response: alertAnswers({ 200: answer('Dead deliveries', DeliveryList) }),
      },
    },
    async (request) => ({ deliveries: await service.deadLetter(account(request), request.query.limit ?? 100) }),
  )

  app.get(
    '/api/v1/notification-volume',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Notifications per hour: delivered, failed and given up, in all and per destination',
        querystring: VolumeQuery,
        response: alertAnswers({ 200: answer('Per hour, the oldest first', Volume) }),
      },
    },
    async (request) => ({ hours: await service.volume(account(request), request.query.hours ?? 24) }),
  )

  app.post(
    '/api/v1/notification-deliveries/:id/retry',
    {
      schema: {
        tags,
        security: ADMIN_SECURITY,
        summary: 'Send a dead delivery again (due now, its give-up time renewed)',
        params: DeliveryParams,
        response: alertAnswers({ 200: answer('The delivery', Delivery) }, [404, 409]),
      },
    },
    async (request) => service.retry(changer(request), request.params.id),
  )
}
