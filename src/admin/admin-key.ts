// The admin-key check of the admin APIs, in one place. Two kinds of API take an admin key:
// - scoped like Split's (the Split Admin API v2, metrics, experiment results): any admin key, its
//   workspace and environment scopes and its role checked per call by KeyScope, which answers 404 for
//   anything outside the scopes (no hint that it exists); one rate limit per key (useScopedAdminKey);
// - of the whole account (integrations, alerts): a key without workspace or environment restriction,
//   with role all where the API says so (useAccountWideAdminKey).
// Either puts the key's principal in request.admin.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { presentedKey, type ApiKeyCache, type Principal } from '../auth/api-keys.js'
import { HttpError } from '../http/errors.js'
import type { Slots, SlotTaken } from '../shared/slots.js'
import type { RateLimit, RateLimiter } from '../state/redis/rate-limits.js'
import type { Actor } from '../state/redis/segments.js'
import type { AdminRole, Environment, TenancyStore, Workspace } from '../state/redis/tenancy.js'

declare module 'fastify' {
  interface FastifyRequest {
    admin?: Principal
  }
}

/** What a route does, and the weakest role allowed to do it. */
export type Access = 'read' | 'segments' | 'all'
const ALLOWED: Record<Access, readonly AdminRole[]> = {
  read: ['all', 'segment-editor', 'segment-viewer'],
  segments: ['all', 'segment-editor'],
  all: ['all'],
}

export class KeyScope {
  constructor(private readonly store: TenancyStore) {}

  principal(request: FastifyRequest): Principal {
    const p = request.admin
    if (!p) throw new HttpError('UNAUTHORIZED', 'missing or unknown admin API key')
    return p
  }

  actor(request: FastifyRequest): Actor {
    const p = this.principal(request)
    return { id: p.id, name: p.name ?? 'admin API key' }
  }

  /** 403 when the key's role does not allow this kind of call. */
  require(request: FastifyRequest, access: Access): Principal {
    const p = this.principal(request)
    const role = p.role ?? 'all'
    if (!ALLOWED[access].includes(role))
      throw new HttpError(
        'FORBIDDEN',
        `this API key's role (${role}) does not allow this call; it needs ${ALLOWED[access].join(' or ')}`,
      )
    return p
  }

  /** The workspace, if it belongs to the key's account and scope; else 404. */
  async workspace(request: FastifyRequest, id: string, access: Access): Promise<Workspace> {
    const p = this.require(request, access)
    const ws = inScope(p.workspaceIds, id) ? await this.store.workspace(id) : undefined
    if (!ws || ws.accountId !== p.accountId) throw new HttpError('NOT_FOUND', `workspace ${id} not found`)
    return ws
  }

  /** The environment and its workspace, if both are in the key's account and scope; else 404. */
  async environment(request: FastifyRequest, id: string, access: Access): Promise<{ env: Environment; ws: Workspace }> {
    const p = this.require(request, access)
    const env = inScope(p.environmentIds, id) && (await this.store.environment(id))
    const ws =
      env && env.accountId === p.accountId && inScope(p.workspaceIds, env.workspaceId)
        ? await this.store.workspace(env.workspaceId)
        : undefined
    if (!env || !ws) throw new HttpError('NOT_FOUND', `environment ${id} not found`)
    return { env, ws }
  }

  /** Whether the key may act on this environment (scope only; the caller has checked the account). */
  mayUseEnvironment(request: FastifyRequest, envId: string): boolean {
    return inScope(this.principal(request).environmentIds, envId)
  }
}

function inScope(allowed: readonly string[] | undefined, id: string): boolean {
  return allowed === undefined || allowed.includes(id)
}

/** A rate limit, shared by every process through Redis, and what it allows. */
export interface Rated {
  readonly rateLimiter: RateLimiter
  readonly rateLimit: RateLimit
}

/**
 * The rate limits of the admin APIs: one per API key shared by all of them (`rateLimiter`, `rateLimit`), and one per
 * account for its expensive calls (`expensive`: routes whose config says `expensive: true`, such as a test of rules
 * or of a destination, which run the account's logic within its budget).
 */
export interface AdminLimits extends Rated {
  readonly expensive: Rated
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The call is expensive (it runs an account's logic, or compiles it): rated per account as well. */
    expensive?: boolean
  }
}

/** Takes one request of a limit for `id`; a 429 with Retry-After when there is none left. */
export async function rated(
  request: FastifyRequest,
  reply: FastifyReply,
  limit: Rated,
  id: string,
  who: string,
  headers: boolean,
): Promise<void> {
  const { wait, remaining, fullInSeconds } = await limit.rateLimiter.take(id)
  if (headers) {
    void reply.header('x-ratelimit-remaining-org', String(remaining))
    void reply.header('x-ratelimit-reset-seconds-org', String(wait || fullInSeconds))
  }
  if (wait > 0) {
    void reply.header('retry-after', String(wait))
    request.log.warn({ id, who }, 'admin API rate limit exceeded')
    throw new HttpError(
      'RATE_LIMITED',
      `rate limit of ${limit.rateLimit.ratePerSecond} requests per second for ${who} exceeded; retry after ${wait} s`,
    )
  }
}

/** The admin key's principal, rated: per key, and per account for an expensive call. */
async function admitted(
  request: FastifyRequest,
  reply: FastifyReply,
  apiKeys: ApiKeyCache,
  limits: Rated & Partial<AdminLimits>,
  hint: string,
): Promise<Principal> {
  const key = presentedKey(request.headers, true)
  const principal = key ? await apiKeys.lookup(key) : undefined
  if (principal?.kind !== 'admin')
    throw new HttpError(
      'UNAUTHORIZED',
      `missing or unknown admin API key: send Authorization: Bearer <admin API key>${hint}`,
    )
  await rated(request, reply, limits, principal.id, 'this API key', true)
  if (limits.expensive && request.routeOptions.config.expensive)
    await rated(request, reply, limits.expensive, principal.accountId, "this account's tests and rule changes", false)
  return principal
}

/**
 * For the admin APIs scoped like Split's (Split Admin API v2, metrics, experiment results): an admin
 * key (`Authorization: Bearer` or `x-api-key`) into request.admin, and one rate limit per key shared
 * by those APIs and every process through Redis.
 */
export function useScopedAdminKey(
  app: FastifyInstance,
  opts: { readonly apiKeys: ApiKeyCache } & Rated,
  hint = '',
): void {
  app.decorateRequest('admin', undefined)
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    request.admin = await admitted(request, reply, opts.apiKeys, opts, hint)
  })
}

/**
 * The admin key of an account-wide API call, when its role is all; else 403 saying that `what` needs it (for the
 * APIs that any role reads and only role all changes).
 */
export function roleAll(request: FastifyRequest, what: string): Principal {
  const admin = request.admin!
  if ((admin.role ?? 'all') !== 'all') throw new HttpError('FORBIDDEN', `${what} needs an admin API key with role all`)
  return admin
}

/**
 * For the APIs of the whole account (integrations, alerts): an admin key without workspace or
 * environment restriction, and with role all when `roleAll`, into request.admin; rated as every admin API (per key,
 * shared with the scoped APIs), and per account for its expensive calls.
 */
export function useAccountWideAdminKey(
  app: FastifyInstance,
  opts: { readonly apiKeys: ApiKeyCache; readonly limits: AdminLimits },
  what: string,
  roleAll: boolean,
): void {
  app.decorateRequest('admin', undefined)
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = await admitted(request, reply, opts.apiKeys, opts.limits, '')
    if ((roleAll && (principal.role ?? 'all') !== 'all') || principal.workspaceIds || principal.environmentIds) {
      throw new HttpError(
        'FORBIDDEN',
        `${what} belong to the whole account: they need an admin API key ${roleAll ? 'with role all and ' : ''}without workspace or environment restriction`,
      )
    }
    request.admin = principal
  })
}

const READ_REFUSED = {
  total: (max: number) => `this server runs ${max} expensive reads already (SLUICE_ADMIN_READS)`,
  account: (max: number) =>
    `this account has ${max} expensive reads running on this server already (SLUICE_ADMIN_READS_PER_ACCOUNT)`,
  key: (max: number) => `this API key has ${max} expensive reads running on this server already`,
} as const

/** How long a request waits for a slot of the expensive reads (or an experiment query's) before its 429. */
export const READ_SLOT_WAIT_MS = 5_000

/**
 * Waits for a slot of `slots` for the caller's account and key until `deadline` (a time in ms), or until the client
 * leaves: a request whose client is gone gives its place to the next and runs nothing.
 */
export async function waitForSlot(
  slots: Slots,
  request: FastifyRequest,
  reply: FastifyReply,
  deadline: number,
): Promise<SlotTaken> {
  const principal = request.admin!
  const gone = new AbortController()
  // The response closes before it was written only when the client left.
  const onClose = () => {
    if (!reply.raw.writableFinished) gone.abort()
  }
  reply.raw.once('close', onClose)
  try {
    const slot = await slots.acquire(principal.accountId, principal.id, deadline - Date.now(), gone.signal)
    if (gone.signal.aborted && 'refused' in slot) request.log.info('the client left while waiting for a slot')
    return slot
  } finally {
    reply.raw.off('close', onClose)
  }
}

/**
 * A slot of the process's expensive reads for the caller's account, held until `work` settles; a 429 (retry after a
 * few seconds) when the process or the account still has its most running at `deadline` (READ_SLOT_WAIT_MS from now
 * unless given: a route that took another slot first waits for both within that time).
 */
export async function withReadSlot<T>(
  reads: Slots,
  request: FastifyRequest,
  reply: FastifyReply,
  work: () => Promise<T>,
  deadline = Date.now() + READ_SLOT_WAIT_MS,
): Promise<T> {
  const slot = await waitForSlot(reads, request, reply, deadline)
  if ('refused' in slot) {
    void reply.header('retry-after', '2')
    throw new HttpError('RATE_LIMITED', `${READ_REFUSED[slot.refused.limit](slot.refused.max)}; retry in a few seconds`)
  }
  try {
    return await work()
  } finally {
    slot.release()
  }
}

/** Every route of the plugin (registered after this call) runs within a slot of `reads` (withReadSlot). */
export function useReadSlots(app: FastifyInstance, reads: Slots): void {
  app.addHook('onRoute', (route) => {
    const handler = route.handler
    route.handler = function (this: FastifyInstance, request, reply) {
      return withReadSlot(reads, request, reply, async () => handler.call(this, request, reply))
    }
  })
}
