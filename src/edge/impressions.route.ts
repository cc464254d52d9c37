// What Split's SDKs post besides events, to the same base addresses (urls.events, urls.telemetry):
// impressions (POST /api/testImpressions/bulk), impression counts (/count), unique keys
// (/api/v1/keys/ss and /cs) and telemetry (/api/v1/metrics/config and /usage), plus the browser
// SDK's beacons of each. Same key, limits, hostile-input rules, spool and 202-after-Kafka as events:
// the edge checks the envelope, the impressions consumer each record (a bad one becomes a rejection).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { TSchema } from 'typebox'
import { presentedKey, type SdkPrincipal } from '../auth/api-keys.js'
import { encodeImpressionMessages } from '../broker/messages/impressions.js'
import type { ImpressionKind, SdkMeta } from '../pipeline/impressions.js'
import { headerText, parseSdkJson, type SdkIntake } from './sdk-intake.js'
import {
  beaconOf,
  eventAnswers,
  ImpressionCountsBody,
  ImpressionsBody,
  TelemetryBody,
  UniqueKeysBody,
} from './schemas.js'

export interface ImpressionRoutesOptions {
  readonly sdk: SdkIntake
  readonly topic: string
}

interface SdkRoute {
  readonly path: string
  /** Other paths of the same call: the beacon (text/plain, key in the body) and what other SDKs post to. */
  readonly beacon?: string
  readonly aliases?: readonly string[]
  readonly kind: ImpressionKind
  readonly summary: string
  readonly body: TSchema
  /** The records of a body (an array of objects: the schema said so). */
  readonly records: (body: never) => readonly object[]
  /** How many records the body holds, for the limit and the answer: impressions or keys, not groups. */
  readonly count: (records: readonly object[]) => number
  /** The body as sent is the records' JSON (the bulk body): published without serializing it again. */
  readonly asSent?: boolean
}

const itemsOf = (list: string) => (records: readonly object[]) =>
  records.reduce(
    (n, r) =>
      n + (Array.isArray((r as Record<string, unknown>)[list]) ? (r as Record<string, unknown[]>)[list]!.length : 1),
    0,
  )
const one = () => 1

const ROUTES: readonly SdkRoute[] = [
  {
    path: '/api/testImpressions/bulk',
    beacon: '/api/testImpressions/beacon',
    kind: 'impressions',
    summary: 'Impressions (which key saw which treatment of which flag, when, under which rule), grouped by flag',
    body: ImpressionsBody,
    records: (body: object[]) => body,
    count: itemsOf('i'),
    asSent: true,
  },
  {
    path: '/api/testImpressions/count',
    beacon: '/api/testImpressions/count/beacon',
    kind: 'impression_counts',
    summary: 'Counts of impressions the SDK did not send (OPTIMIZED and NONE modes), per flag and hour',
    body: ImpressionCountsBody,
    records: (body: { pf: object[] }) => body.pf,
    count: (records) => records.length,
  },
  {
    path: '/api/v1/keys/ss',
    aliases: ['/api/keys/ss'],
    kind: 'unique_keys_ss',
    summary: 'Unique keys per flag from a server-side SDK (impressions mode NONE)',
    body: UniqueKeysBody,
    records: (body: { keys: object[] }) => body.keys,
    count: itemsOf('ks'),
  },
  {
    path: '/api/v1/keys/cs',
    beacon: '/api/v1/keys/cs/beacon',
    aliases: ['/api/keys/cs'],
    kind: 'unique_keys_cs',
    summary: 'Unique keys with the flags each saw, from a client-side SDK (impressions mode NONE)',
    body: UniqueKeysBody,
    records: (body: { keys: object[] }) => body.keys,
    count: itemsOf('fs'),
  },
  {
    path: '/api/v1/metrics/config',
    aliases: ['/api/metrics/config'],
    kind: 'telemetry_config',
    summary: "The SDK's configuration telemetry (mode, storage, queue sizes), kept in sdk_telemetry",
    body: TelemetryBody,
    records: (body: object) => [body],
    count: one,
  },
  {
    path: '/api/v1/metrics/usage',
    beacon: '/api/v1/metrics/usage/beacon',
    aliases: ['/api/metrics/usage'],
    kind: 'telemetry_usage',
    summary: "The SDK's usage telemetry (latencies, queue and HTTP statistics), kept in sdk_telemetry",
    body: TelemetryBody,
    records: (body: object) => [body],
    count: one,
  },
]

/**
 * SDK languages counted in sluice_sdk_telemetry_total (SplitSDKVersion is `<language>-<version>`); others are `other`.
 */
const LANGUAGES = new Set([
  'nodejs',
  'javascript',
  'browser',
  'java',
  'python',
  'go',
  'ruby',
  '.net',
  '.net_core',
  'php',
  'android',
  'ios',
  'flutter',
  'react-native',
])
const MODES = ['OPTIMIZED', 'DEBUG', 'NONE']

export async function impressionRoutes(
  server: FastifyInstance,
  { sdk, topic }: ImpressionRoutesOptions,
): Promise<void> {
  const app = server.withTypeProvider<TypeBoxTypeProvider>()
  app.decorateRequest('principal', undefined)
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseSdkJson)

  /** What a request of a route brings; text: the body as sent, when it is the records' JSON (not a beacon's). */
  interface Sent {
    readonly principal: SdkPrincipal
    readonly body: unknown
    readonly headers: { sdk: unknown; mode: unknown; ip?: unknown; name?: unknown }
    readonly text?: string | undefined
  }
  const ingest = async (
    request: FastifyRequest,
    reply: FastifyReply,
    route: SdkRoute,
    { principal, body, headers, text }: Sent,
  ) => {
    const records = route.records(body as never)
    const meta: SdkMeta = {
      ...sdk.meta(request, principal, headers.sdk),
      kind: route.kind,
      // Java and Python send OPTIMIZED, Go and Ruby optimized, .NET Optimized.
      impressionsMode: headerText(headers.mode).toUpperCase(),
      machineIp: headerText(headers.ip),
      machineName: headerText(headers.name),
    }
    const count = route.count(records)
    const sizing = { bodyBytes: sdk.bodyBytes(request), maxBytes: sdk.opts.messageMaxBytes, text }
    await sdk.accept(request, reply, {
      topic,
      records: count,
      what: route.kind.replaceAll('_', ' '),
      encode: () => encodeImpressionMessages(route.kind, records, meta, sizing),
      logged: { environmentId: principal.environmentId, kind: route.kind },
    })
    const kind = route.kind.startsWith('unique_keys')
      ? 'unique_keys'
      : route.kind.startsWith('telemetry')
        ? 'telemetry'
        : route.kind
    sdk.opts.metrics.sdkRecordsAccepted.inc({ kind }, count)
    if (kind === 'telemetry')
      sdk.opts.metrics.sdkTelemetry.inc({
        sdk: languageOf(meta.sdkVersion),
        mode: modeOf(route.kind === 'telemetry_config' ? body : undefined, meta.impressionsMode),
      })
    return reply
  }

  const tags = ['impressions']
  for (const route of ROUTES) {
    for (const path of [route.path, ...(route.aliases ?? [])]) {
      app.post(path, {
        bodyLimit: sdk.opts.maxBodyBytes,
        schema: { tags, summary: route.summary, security: [{ sdkKey: [] }], body: route.body, response: eventAnswers },
        onRequest: async (request, reply) => {
          request.principal = await sdk.authenticate(presentedKey(request.headers, false), reply)
        },
        handler: async (request, reply) => {
          const h = request.headers
          const sent = {
            sdk: h['splitsdkversion'],
            mode: h['splitsdkimpressionsmode'],
            ip: h['splitsdkmachineip'],
            name: h['splitsdkmachinename'],
          }
          return ingest(request, reply, route, {
            principal: request.principal!,
            body: request.body,
            headers: sent,
            text: route.asSent ? request.jsonText : undefined,
          })
        },
      })
    }
  }

  // The browser SDK's beacons on page hide (see events.route.ts): text/plain, the key in the body.
  await app.register(async (beacon) => {
    beacon.addContentTypeParser('text/plain', { parseAs: 'string' }, parseSdkJson)
    for (const route of ROUTES) {
      if (!route.beacon) continue
      beacon.withTypeProvider<TypeBoxTypeProvider>().post(route.beacon, {
        bodyLimit: sdk.opts.beaconMaxBodyBytes,
        schema: {
          tags,
          summary: `The browser SDK's beacon of ${route.path} (text/plain JSON with the key inside)`,
          body: beaconOf(route.body),
          response: eventAnswers,
        },
        handler: async (request, reply) => {
          const { entries, token, sdk: version, sim } = request.body
          const principal = await sdk.authenticate(token, reply)
          return ingest(request, reply, route, { principal, body: entries, headers: { sdk: version, mode: sim } })
        },
      })
    }
  })
}

function languageOf(sdkVersion: string): string {
  const language = sdkVersion.slice(0, sdkVersion.lastIndexOf('-')).toLowerCase()
  return LANGUAGES.has(language) ? language : 'other'
}

/** The impressions mode of a telemetry config body (iM: 0 OPTIMIZED, 1 DEBUG, 2 NONE), else the header's. */
function modeOf(config: unknown, header: string): string {
  const iM = (config as { iM?: unknown } | undefined)?.iM
  const mode = typeof iM === 'number' ? MODES[iM] : header
  return mode && MODES.includes(mode) ? mode : 'unknown'
}
