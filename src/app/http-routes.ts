// The HTTP routes of each role, wired to the container's clients: the edge's ingest routes and the
// admin APIs. The error bodies of the admin APIs are also used for errors the router meets on their paths.
import type { FastifyInstance } from 'fastify'
import { harnessErrorHandler, settingsRoutes } from '../admin/harness/settings.route.js'
import { SCIM_PREFIX, scimErrorHandler, scimRoutes } from '../admin/harness/scim.route.js'
import { alertRoutes } from '../admin/alerts/alerts.route.js'
import { incidentRoutes } from '../admin/alerts/incidents.route.js'
import { rulesAndWindowsRoutes } from '../admin/alerts/rules-and-windows.route.js'
import { notifyRoutes } from '../admin/alerts/notify.route.js'
import { consoleRoutes } from '../admin/console/console.route.js'
import { experimentRoutes } from '../admin/experiments/experiments.route.js'
import { dataHubRoutes } from '../admin/datahub/datahub.route.js'
import { planRoutes } from '../admin/datahub/plans.route.js'
import { replayRoutes } from '../admin/datahub/replays.route.js'
import { freshnessOfLastDay } from '../services/freshness.js'
import { tailRoutes } from '../admin/datahub/tail.route.js'
import { integrationRoutes } from '../admin/integrations/integrations.route.js'
import { feedRoutes, scheduleRoutes } from '../admin/oncall/schedules.route.js'
import { escalationRoutes } from '../admin/oncall/escalation.route.js'
import { heartbeatRoutes } from '../admin/oncall/heartbeats.route.js'
import { HeartbeatService } from '../services/heartbeats.js'
import { pageActionRoutes, slackAppRoutes } from '../admin/oncall/page-actions.route.js'
import { post } from '../sinks/notify/kinds/kind.js'
import { escalationService } from '../services/escalation.js'
import { SPLIT_API_PREFIX, splitApi, splitErrorHandler } from '../admin/split/api.js'
import { eventRoutes } from '../edge/events.route.js'
import { impressionRoutes } from '../edge/impressions.route.js'
import { SdkIntake } from '../edge/sdk-intake.js'
import { webhookRoutes } from '../edge/webhook.route.js'
import { listeningUrl, type ErrorHandler } from '../http/server.js'
import { MAX_USERS_PER_ACCOUNT } from '../services/directory.js'
import { IntegrationService } from '../services/integrations.js'
import { OnCallService } from '../services/oncall.js'
import { RulesAndWindowsService } from '../services/rules-and-windows.js'
import { SenderAuthService } from '../services/sender-auth.js'
import { webhookIds } from '../state/redis/webhook-ids.js'
import type { AdminLimits } from '../admin/admin-key.js'
import { Slots } from '../shared/slots.js'
import type { Container } from './container.js'
import type { SharedHttp } from './roles.js'

const SETTINGS_PREFIX = '/gateway/ng/api'

export const ADMIN_ERROR_HANDLERS: readonly { prefix: string; handler: ErrorHandler }[] = [
  { prefix: `${SPLIT_API_PREFIX}/`, handler: splitErrorHandler },
  { prefix: '/gateway/ng/api/scim/', handler: scimErrorHandler },
  { prefix: `${SETTINGS_PREFIX}/`, handler: harnessErrorHandler },
]

export async function registerEdgeRoutes(app: FastifyInstance, c: Container, shared: SharedHttp): Promise<void> {
  const { config } = c
  // Events, impressions, counts, unique keys and telemetry share the SDK key's limits.
  const sdk = new SdkIntake({
    intake: c.intake,
    apiKeys: c.apiKeys,
    metrics: c.metrics,
    maxBodyBytes: config.events.maxBodyBytes,
    beaconMaxBodyBytes: config.events.beaconMaxBodyBytes,
    maxRecords: config.events.maxRecords,
    rateLimit: { ratePerSecond: config.events.ratePerSecond, burst: config.events.burst },
    messageMaxBytes: config.kafka.messageMaxBytes,
    isDraining: shared.isDraining,
  })
  await app.register(eventRoutes, { sdk, topic: c.topics.events, format: config.events.messageFormat })
  await app.register(impressionRoutes, { sdk, topic: c.topics.impressions })
  const webhookLimit = { ratePerSecond: config.webhooks.ratePerSecond, burst: config.webhooks.burst }
  await app.register(webhookRoutes, {
    intake: c.intake,
    routes: c.webhookAddresses,
    metrics: c.metrics,
    topic: c.topics.alerts,
    maxBodyBytes: config.webhooks.maxBodyBytes,
    messageMaxBytes: config.kafka.messageMaxBytes,
    rateLimiter: c.rateLimiter('webhook', webhookLimit),
    rateLimit: webhookLimit,
    isDraining: shared.isDraining,
    senderAuth: c.senderAuthReports,
    webhookIds: webhookIds(c.redis, config.redis.keyPrefix, c.log.child({ component: 'webhook-ids' })),
  })
}

export async function registerAdminRoutes(app: FastifyInstance, c: Container, shared: SharedHttp): Promise<void> {
  const { config, state } = c
  // Every admin API: a rate per API key (shared by every process through Redis), and per account for its expensive
  // calls; the expensive reads of this process (Data Hub, experiment results) hold slots, per account too.
  const adminLimit = { ratePerSecond: config.admin.ratePerSecond, burst: config.admin.burst }
  const expensiveLimit = { ratePerSecond: config.admin.expensivePerSecond, burst: config.admin.expensiveBurst }
  const limits: AdminLimits = {
    rateLimiter: c.rateLimiter('admin', adminLimit),
    rateLimit: adminLimit,
    expensive: { rateLimiter: c.rateLimiter('admin-expensive', expensiveLimit), rateLimit: expensiveLimit },
  }
  const reads = new Slots({ total: config.admin.reads, perAccount: config.admin.readsPerAccount })
  const integrations = new IntegrationService(state.integrations, c.alertSink, config.webhooks.rotationOverlapMs)
  await app.register(integrationRoutes, {
    apiKeys: c.apiKeys,
    limits,
    integrations,
    publicBaseUrl: () => config.publicBaseUrl ?? listeningUrl(app),
    // With the edge in this process, a changed address is live (or dead) before the answer leaves;
    // other edges see it within SLUICE_KEY_REFRESH_MS.
    onRoutesChanged: shared.edgeInProcess ? () => c.webhookAddresses.invalidate() : async () => undefined,
    lifecycleCounts: (accountId, id) => state.alerts.lifecycleCounts(accountId, id),
    webhookMaxBodyBytes: config.webhooks.maxBodyBytes,
    senderAuth: new SenderAuthService(state.integrations, c.secretBox),
  })
  await app.register(alertRoutes, {
    apiKeys: c.apiKeys,
    limits,
    alerts: state.alerts,
    streamMaxLen: config.webhooks.streamMaxLen,
  })
  await app.register(incidentRoutes, {
    apiKeys: c.apiKeys,
    limits,
    incidents: state.incidents,
    notify: state.notify,
    streamMaxLen: config.webhooks.streamMaxLen,
  })
  await app.register(rulesAndWindowsRoutes, {
    apiKeys: c.apiKeys,
    limits,
    rulesAndWindows: new RulesAndWindowsService(
      state.rulesAndWindows,
      state.alerts,
      state.integrations,
      (account) => c.notifyService.destinationIds(account),
      async (account) => new Set((await state.oncall.policies(account)).map((p) => p.id)),
      config.webhooks.rulesBudgetMs,
    ),
    streamMaxLen: config.webhooks.streamMaxLen,
    webhookMaxBodyBytes: config.webhooks.maxBodyBytes,
  })
  await app.register(notifyRoutes, { apiKeys: c.apiKeys, limits, notify: c.notifyService })
  const oncall = new OnCallService(state.oncall, state.directory)
  await app.register(scheduleRoutes, {
    apiKeys: c.apiKeys,
    limits,
    oncall,
    publicBaseUrl: () => config.publicBaseUrl ?? listeningUrl(app),
  })
  await app.register(feedRoutes, { oncall, limits })
  await app.register(escalationRoutes, { apiKeys: c.apiKeys, limits, escalation: escalationService(state) })
  await app.register(slackAppRoutes, { apiKeys: c.apiKeys, limits, actions: c.pageActions })
  await app.register(heartbeatRoutes, {
    apiKeys: c.apiKeys,
    limits,
    heartbeats: new HeartbeatService(state.heartbeats, state.integrations, (a, i) => c.alertSink.lastPayloadAt(a, i)),
  })
  await app.register(pageActionRoutes, {
    apiKeys: c.apiKeys,
    limits,
    actions: c.pageActions,
    tellSlack: async (url, message) => {
      // Slack's own address only (http and other hosts for development and tests, with SLUICE_NOTIFY_ALLOW_HTTP).
      if (!config.notify.allowHttp && !url.startsWith('https://hooks.slack.com/'))
        throw new Error('response_url is not an address of Slack (https://hooks.slack.com/)')
      const sent = await post(url, { 'content-type': 'application/json' }, JSON.stringify(message), c.notifyPolicy)
      if (sent.result !== 'delivered') throw new Error(sent.error ?? `answered ${sent.status}`)
    },
  })
  await app.register(splitApi, {
    prefix: SPLIT_API_PREFIX,
    apiKeys: c.apiKeys,
    state,
    ...limits,
  })
  await app.register(experimentRoutes, {
    apiKeys: c.apiKeys,
    store: state.tenancy,
    metrics: c.metricService,
    experiments: c.experiments,
    ...limits,
    maxConcurrent: config.experiments.maxConcurrent,
    reads,
    queryTimeoutMs: config.experiments.queryTimeoutMs,
  })
  await app.register(dataHubRoutes, {
    apiKeys: c.apiKeys,
    store: state.tenancy,
    dataHub: c.dataHub,
    erasures: c.erasures,
    consumerLag: c.consumerLag,
    freshness: () => freshnessOfLastDay(state.freshness),
    reads,
    ...limits,
  })
  await app.register(planRoutes, {
    apiKeys: c.apiKeys,
    store: state.tenancy,
    plans: c.plans,
    dataHub: c.dataHub,
    reads,
    ...limits,
  })
  await app.register(replayRoutes, {
    apiKeys: c.apiKeys,
    store: state.tenancy,
    replays: c.replays,
    reads,
    ...limits,
  })
  await app.register(tailRoutes, {
    apiKeys: c.apiKeys,
    store: state.tenancy,
    hub: c.tailHub,
    integration: (accountId, id) => integrations.get(accountId, id),
    maxBufferBytes: config.dataHub.tailBufferBytes,
    pingMs: config.dataHub.tailPingMs,
    cutGraceMs: config.dataHub.tailCutGraceMs,
    viewers: new Slots({
      total: config.dataHub.tailViewers,
      perAccount: config.dataHub.tailViewersPerAccount,
      perKey: config.dataHub.tailViewersPerKey,
    }),
    ...limits,
  })
  await app.register(consoleRoutes)
  await app.register(settingsRoutes, {
    prefix: SETTINGS_PREFIX,
    platform: state.platform,
    directory: state.directory,
    delayMs: config.scim.settingsDelayMs,
    outbound: config.scim.jwks,
  })
  await app.register(scimRoutes, {
    prefix: SCIM_PREFIX,
    directory: state.directory,
    auth: c.scimAuth,
    metrics: c.metrics,
    maxUsersPerAccount: MAX_USERS_PER_ACCOUNT,
  })
}
