// Account settings as Harness answers them: PUT writes the SCIM JWT settings with a
// personal access token (`x-api-key`), one result per item; values take effect after a delay. GET
// shows what is in effect and what is pending. Errors in Harness's ResponseDTO shapes.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { checkUrl, OutboundError, type OutboundPolicy } from '../../shared/outbound.js'
import { SCIM_JWT_BINDINGS, SCIM_JWT_SETTINGS } from '../../auth/scim-jwt.js'
import { HttpError, prepareError } from '../../http/errors.js'
import { isActive, type DirectoryStore } from '../../state/redis/directory.js'
import {
  effectiveValue,
  SCIM_PERMISSIONS,
  SETTINGS_PERMISSIONS,
  type PlatformStore,
  type PatRecord,
  type Permission,
} from '../../state/redis/platform.js'
import { isText } from '../../shared/text.js'
import type { Static } from 'typebox'
import { answer, SettingsBody, SettingsQuery, SettingsRead, settingsAnswers, SettingsWritten } from './schemas.js'

export interface SettingsRoutesOptions {
  readonly platform: PlatformStore
  readonly directory: DirectoryStore
  readonly delayMs: number
  readonly outbound: OutboundPolicy
}

const IDENTIFIERS: readonly string[] = [...Object.values(SCIM_JWT_SETTINGS), ...Object.values(SCIM_JWT_BINDINGS)]
const MAX_VALUE = 2048

type Query = { Querystring: Static<typeof SettingsQuery> }

export async function settingsRoutes(app: FastifyInstance, opts: SettingsRoutesOptions): Promise<void> {
  const { platform } = opts
  app.setErrorHandler(harnessErrorHandler)

  /** The PAT of the call, valid for the account in the query and holding `needed`; else 400/401/403. */
  const authorize = async (
    request: FastifyRequest<Query>,
    needed: readonly Permission[],
  ): Promise<{ accountId: string; pat: PatRecord }> => {
    const accountId = request.query.accountIdentifier
    const token = request.headers['x-api-key']
    const pat = typeof token === 'string' && token ? await platform.pat(token) : undefined
    if (!pat || pat.accountId !== accountId || pat.expiresAt <= Date.now()) {
      request.log.info(
        { accountId, reason: !pat ? 'unknown token' : pat.accountId !== accountId ? 'other account' : 'expired' },
        'settings call refused',
      )
      throw new HttpError(
        'UNAUTHORIZED',
        'missing, unknown or expired personal access token for this account (send x-api-key)',
      )
    }
    const owner = await opts.directory.user(pat.accountId, pat.userId)
    if (!owner || !isActive(owner)) {
      request.log.info({ accountId, patId: pat.id }, 'settings call refused: the token owner is deactivated or deleted')
      throw new HttpError(
        'UNAUTHORIZED',
        'missing, unknown or expired personal access token for this account (send x-api-key)',
      )
    }
    const missing = needed.filter((p) => !pat.permissions.includes(p))
    if (missing.length)
      throw new HttpError('FORBIDDEN', `the token lacks ${missing.join(', ')} on Default Settings at account scope`)
    return { accountId, pat }
  }

  const tags = ['settings']
  const security = [{ personalAccessToken: [] }]
  app.put<Query & { Body: unknown[] }>(
    '/settings',
    {
      schema: {
        tags,
        security,
        summary: 'Write the SCIM JWT settings; new values take effect after a delay. Each item is answered on its own',
        querystring: SettingsQuery,
        body: SettingsBody,
        response: settingsAnswers({ 200: answer('One result per item', SettingsWritten) }),
      },
    },
    async (request) => {
      const { accountId, pat } = await authorize(request, SETTINGS_PERMISSIONS)
      const body = request.body

      // Items are checked independently; a later item naming the same setting as an earlier one fails.
      const seen = new Set<string>()
      const checked = (await Promise.all(body.map((item: unknown) => checkItem(item)))).map((c) => {
        if (!c.ok) return c
        if (seen.has(c.identifier))
          return { ok: false as const, identifier: c.identifier, error: 'appears more than once in this request' }
        seen.add(c.identifier)
        return c
      })
      const changes = new Map(checked.flatMap((c) => (c.ok ? [[c.identifier, c.value] as const] : [])))
      const now = Date.now()
      const written = await platform.writeSettings(accountId, changes, opts.delayMs, now)
      request.log.info(
        {
          accountId,
          patId: pat.id,
          changed: [...written.keys()],
          refused: checked.filter((c) => !c.ok).map((c) => c.identifier),
        },
        'settings written',
      )
      return {
        status: 'SUCCESS',
        data: checked.map((c) => {
          const record = c.ok ? written.get(c.identifier) : undefined
          return {
            identifier: c.identifier,
            setting: settingView(c.identifier, c.ok ? c.value : null),
            lastModifiedAt: record?.lastModifiedAt ?? null,
            effectiveAt: record?.effectiveAt ?? null,
            updateStatus: c.ok && record !== undefined,
            errorMessage: c.ok ? null : c.error,
          }
        }),
        metaData: null,
        correlationId: request.id,
      }

      async function checkItem(
        item: unknown,
      ): Promise<
        { ok: true; identifier: string; value: string | null } | { ok: false; identifier: string | null; error: string }
      > {
        if (typeof item !== 'object' || item === null || Array.isArray(item))
          return {
            ok: false,
            identifier: null,
            error: 'must be an object {identifier, value, allowOverrides, updateType}',
          }
        const o = item as Record<string, unknown>
        const identifier = typeof o['identifier'] === 'string' ? o['identifier'] : null
        const fail = (error: string) => ({ ok: false as const, identifier, error })
        if (identifier === null || !IDENTIFIERS.includes(identifier))
          return fail(`identifier must be one of ${IDENTIFIERS.join(', ')}`)
        if (o['allowOverrides'] !== undefined && typeof o['allowOverrides'] !== 'boolean')
          return fail('allowOverrides must be a boolean')
        if (o['updateType'] === 'RESTORE') return { ok: true, identifier, value: null }
        if (o['updateType'] !== 'UPDATE') return fail('updateType must be UPDATE or RESTORE')
        const value = o['value']
        if (!isText(value, MAX_VALUE) || value.trim() === '')
          return fail(`value must be a non-empty string of at most ${MAX_VALUE} characters`)
        switch (identifier) {
          case SCIM_JWT_SETTINGS.jwksUrl:
            try {
              await checkUrl(value, opts.outbound)
            } catch (err) {
              // The precise reason (what a host resolves to) stays in the log: answers must not map internal DNS.
              request.log.info(
                { accountId, reason: err instanceof Error ? err.message : String(err) },
                'JWKS URL refused',
              )
              const form = err instanceof OutboundError && /URL|credentials/.test(err.message)
              return fail(
                form
                  ? `value ${err.message}`
                  : `value must be ${opts.outbound.allowInsecure ? 'an http(s)' : 'an https'} URL whose host resolves to public addresses only`,
              )
            }
            break
          case SCIM_JWT_BINDINGS.maxLifetimeSeconds:
            if (!/^[1-9]\d{0,6}$/.test(value)) return fail('value must be a whole number of seconds from 1 to 9999999')
            break
          case SCIM_JWT_BINDINGS.requireNbf:
            if (value !== 'true' && value !== 'false') return fail('value must be true or false')
            break
          case SCIM_JWT_SETTINGS.keyField:
            if (value.length > 256) return fail('value (a claim name) must be at most 256 characters')
            break
          case SCIM_JWT_SETTINGS.serviceAccountId: {
            const sa = await platform.serviceAccount(accountId, value)
            if (!sa) return fail(`no service account ${value} in this account`)
            const missing = SCIM_PERMISSIONS.filter((p) => !sa.permissions.includes(p))
            if (missing.length) return fail(`service account ${value} lacks ${missing.join(', ')}`)
          }
        }
        return { ok: true, identifier, value }
      }
    },
  )

  app.get<Query>(
    '/settings',
    {
      schema: {
        tags,
        security,
        summary: 'The SCIM JWT settings in effect, and pending values',
        querystring: SettingsQuery,
        response: settingsAnswers({ 200: answer('Every SCIM JWT setting', SettingsRead) }),
      },
    },
    async (request) => {
      const { accountId } = await authorize(request, ['core_setting_view'])
      const settings = await platform.settings(accountId)
      const now = Date.now()
      return {
        status: 'SUCCESS',
        data: IDENTIFIERS.map((id) => {
          const record = settings.get(id)
          const pending = record !== undefined && now < record.effectiveAt
          return {
            setting: settingView(id, effectiveValue(record, now)),
            pendingValue: pending ? record.value : null,
            effectiveAt: record?.effectiveAt ?? null,
            lastModifiedAt: record?.lastModifiedAt ?? null,
          }
        }),
        metaData: null,
        correlationId: request.id,
      }
    },
  )
}

function settingView(identifier: string | null, value: string | null) {
  return {
    identifier,
    category: 'SCIM',
    groupIdentifier: 'scim_jwt',
    valueType: 'String',
    value,
    defaultValue: null,
    allowOverrides: false,
    settingSource: value === null ? 'DEFAULT' : 'ACCOUNT',
    isSettingEditable: true,
  }
}

const HARNESS_CODES: Partial<Record<number, string>> = {
  400: 'INVALID_REQUEST',
  401: 'INVALID_TOKEN',
  403: 'NG_ACCESS_DENIED',
  404: 'RESOURCE_NOT_FOUND',
  413: 'INVALID_REQUEST',
  415: 'INVALID_REQUEST',
  429: 'TOO_MANY_REQUESTS',
}

/** Harness's error shapes: FAILURE with field errors for bad input, ERROR otherwise. */
export function harnessErrorHandler(
  error: FastifyError | HttpError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const http = prepareError(error, request, reply)
  const code = HARNESS_CODES[http.statusCode] ?? 'UNEXPECTED'
  if (http.details) {
    void reply.code(http.statusCode).send({
      status: 'FAILURE',
      code,
      message: http.message,
      correlationId: request.id,
      errors: http.details.map((d) => ({ fieldId: d.field, error: d.problem })),
    })
    return
  }
  void reply.code(http.statusCode).send({
    status: 'ERROR',
    code,
    message: http.message,
    correlationId: request.id,
    detailedMessage: null,
    responseMessages: [{ code, level: 'ERROR', message: http.message, exception: null, failureTypes: [] }],
    metadata: null,
  })
}
