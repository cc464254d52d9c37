// What every Admin API route relies on: the key's role decides what kind of call it may make (403),
// and a workspace or environment outside the key's account or scope answers exactly as one that does
// not exist (404), so a key learns nothing of other accounts. The store is a hand-written fake.
import { request as httpRequest } from 'node:http'
import Fastify, { type FastifyRequest } from 'fastify'
import { describe, expect, it } from 'vitest'
import { KeyScope, withReadSlot, type Access } from '../../../src/admin/admin-key.js'
import { Slots } from '../../../src/shared/slots.js'
import type { Principal } from '../../../src/auth/api-keys.js'
import { HttpError } from '../../../src/http/errors.js'
import type { AdminRole, Environment, TenancyStore, Workspace } from '../../../src/state/redis/tenancy.js'

const ws = (id: string, accountId: string): Workspace => ({
  id,
  name: `Workspace ${id}`,
  accountId,
  requiresTitleAndComments: false,
  createdAt: 1_700_000_000_000,
})
const env = (id: string, workspaceId: string, accountId: string): Environment => ({
  id,
  name: `Env ${id}`,
  production: false,
  workspaceId,
  accountId,
})

const WORKSPACES = [ws('ws1', 'acc1'), ws('ws2', 'acc1'), ws('wsX', 'acc2')]
const ENVIRONMENTS = [
  env('env1', 'ws1', 'acc1'),
  env('env1b', 'ws1', 'acc1'),
  env('env2', 'ws2', 'acc1'),
  env('envX', 'wsX', 'acc2'),
  // An environment whose workspace is gone.
  env('orphan', 'ws-deleted', 'acc1'),
]

function fakeStore() {
  const calls: string[] = []
  const store = {
    workspace: async (id: string) => {
      calls.push(`workspace ${id}`)
      return WORKSPACES.find((w) => w.id === id)
    },
    environment: async (id: string) => {
      calls.push(`environment ${id}`)
      return ENVIRONMENTS.find((e) => e.id === id)
    },
  }
  return { store: store as unknown as TenancyStore, calls }
}

const admin = (p: Partial<Principal> = {}): Principal => ({ id: 'key-1', kind: 'admin', accountId: 'acc1', ...p })
const request = (principal: Principal | undefined) => ({ admin: principal }) as unknown as FastifyRequest

/** The HttpError a call throws (synchronously or not), or a failure. */
async function httpError(call: () => unknown): Promise<HttpError> {
  try {
    await call()
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError)
    return err as HttpError
  }
  throw new Error('expected an HttpError, nothing was thrown')
}

const ROLES: readonly AdminRole[] = ['all', 'segment-editor', 'segment-viewer']
const ALLOWED: Record<Access, readonly AdminRole[]> = {
  read: ['all', 'segment-editor', 'segment-viewer'],
  segments: ['all', 'segment-editor'],
  all: ['all'],
}

describe('KeyScope.require', () => {
  const access = new KeyScope(fakeStore().store)

  for (const kind of ['read', 'segments', 'all'] as const) {
    for (const role of ROLES) {
      const allowed = ALLOWED[kind].includes(role)
      it(`${allowed ? 'allows' : 'refuses (403)'} a ${role} key a "${kind}" call`, async () => {
        const principal = admin({ role })
        if (allowed) {
          expect(access.require(request(principal), kind)).toBe(principal)
        } else {
          const err = await httpError(() => access.require(request(principal), kind))
          expect(err.code).toBe('FORBIDDEN')
          expect(err.statusCode).toBe(403)
          expect(err.message).toContain(role)
        }
      })
    }
  }

  it('treats a key without a role as role "all"', () => {
    const principal = admin()
    for (const kind of ['read', 'segments', 'all'] as const)
      expect(access.require(request(principal), kind)).toBe(principal)
  })

  it('answers 401 when the request carries no admin key', async () => {
    const err = await httpError(() => access.require(request(undefined), 'read'))
    expect(err.code).toBe('UNAUTHORIZED')
    expect(err.statusCode).toBe(401)
  })
})

describe('KeyScope.principal and actor', () => {
  const access = new KeyScope(fakeStore().store)

  it('gives the principal of the request, or 401', async () => {
    const principal = admin()
    expect(access.principal(request(principal))).toBe(principal)
    expect((await httpError(() => access.principal(request(undefined)))).statusCode).toBe(401)
  })

  it('names the audit actor after the key, with a default name', () => {
    expect(access.actor(request(admin({ id: 'k9', name: 'CI key' })))).toEqual({ id: 'k9', name: 'CI key' })
    expect(access.actor(request(admin({ id: 'k9' })))).toEqual({ id: 'k9', name: 'admin API key' })
  })
})

describe('KeyScope.workspace', () => {
  it('returns a workspace of the key’s account', async () => {
    const access = new KeyScope(fakeStore().store)
    await expect(access.workspace(request(admin({ role: 'segment-viewer' })), 'ws2', 'read')).resolves.toEqual(
      WORKSPACES[1],
    )
  })

  it('answers 404 for a workspace of another account, exactly as for one that does not exist', async () => {
    const access = new KeyScope(fakeStore().store)
    const foreign = await httpError(() => access.workspace(request(admin()), 'wsX', 'read'))
    const missing = await httpError(() => access.workspace(request(admin()), 'nope', 'read'))
    for (const [err, id] of [
      [foreign, 'wsX'],
      [missing, 'nope'],
    ] as const) {
      expect(err.code).toBe('NOT_FOUND')
      expect(err.statusCode).toBe(404)
      expect(err.message).toBe(`workspace ${id} not found`)
      expect(err.details).toBeUndefined()
    }
  })

  it('answers 404 for a workspace of the account outside the key’s workspace scope', async () => {
    const access = new KeyScope(fakeStore().store)
    const scoped = request(admin({ workspaceIds: ['ws1'] }))
    await expect(access.workspace(scoped, 'ws1', 'read')).resolves.toEqual(WORKSPACES[0])
    const err = await httpError(() => access.workspace(scoped, 'ws2', 'read'))
    expect(err.code).toBe('NOT_FOUND')
    expect(err.message).toBe('workspace ws2 not found')
  })

  it('answers 404 to a key scoped to no workspace at all', async () => {
    const access = new KeyScope(fakeStore().store)
    const err = await httpError(() => access.workspace(request(admin({ workspaceIds: [] })), 'ws1', 'read'))
    expect(err.statusCode).toBe(404)
  })

  it('answers 403 before looking up anything when the role does not allow the call', async () => {
    const { store, calls } = fakeStore()
    const access = new KeyScope(store)
    const err = await httpError(() => access.workspace(request(admin({ role: 'segment-viewer' })), 'ws1', 'segments'))
    expect(err.code).toBe('FORBIDDEN')
    expect(calls).toEqual([])
  })
})

describe('KeyScope.environment', () => {
  it('returns the environment and its workspace', async () => {
    const access = new KeyScope(fakeStore().store)
    await expect(access.environment(request(admin({ role: 'segment-editor' })), 'env2', 'segments')).resolves.toEqual({
      env: ENVIRONMENTS[2],
      ws: WORKSPACES[1],
    })
  })

  it('answers 404 for an environment of another account, exactly as for one that does not exist', async () => {
    const access = new KeyScope(fakeStore().store)
    const foreign = await httpError(() => access.environment(request(admin()), 'envX', 'read'))
    const missing = await httpError(() => access.environment(request(admin()), 'nope', 'read'))
    for (const [err, id] of [
      [foreign, 'envX'],
      [missing, 'nope'],
    ] as const) {
      expect(err.code).toBe('NOT_FOUND')
      expect(err.statusCode).toBe(404)
      expect(err.message).toBe(`environment ${id} not found`)
      expect(err.details).toBeUndefined()
    }
  })

  it('answers 404 for an environment outside the key’s environment scope', async () => {
    const access = new KeyScope(fakeStore().store)
    const scoped = request(admin({ environmentIds: ['env1'] }))
    await expect(access.environment(scoped, 'env1', 'read')).resolves.toMatchObject({
      env: { id: 'env1' },
      ws: { id: 'ws1' },
    })
    const err = await httpError(() => access.environment(scoped, 'env1b', 'read'))
    expect(err.code).toBe('NOT_FOUND')
    expect(err.message).toBe('environment env1b not found')
  })

  it('answers 404 for an environment in scope whose workspace is outside the key’s workspace scope', async () => {
    const access = new KeyScope(fakeStore().store)
    const scoped = request(admin({ workspaceIds: ['ws1'] }))
    await expect(access.environment(scoped, 'env1', 'read')).resolves.toMatchObject({ env: { id: 'env1' } })
    const err = await httpError(() => access.environment(scoped, 'env2', 'read'))
    expect(err.code).toBe('NOT_FOUND')
    expect(err.message).toBe('environment env2 not found')
  })

  it('answers 404 for an environment whose workspace no longer exists', async () => {
    const access = new KeyScope(fakeStore().store)
    const err = await httpError(() => access.environment(request(admin()), 'orphan', 'read'))
    expect(err.code).toBe('NOT_FOUND')
  })

  it('answers 403 before looking up anything when the role does not allow the call', async () => {
    const { store, calls } = fakeStore()
    const access = new KeyScope(store)
    const err = await httpError(() => access.environment(request(admin({ role: 'segment-editor' })), 'env1', 'all'))
    expect(err.code).toBe('FORBIDDEN')
    expect(calls).toEqual([])
  })
})

describe('KeyScope.mayUseEnvironment', () => {
  const access = new KeyScope(fakeStore().store)

  it('allows any environment to a key without an environment scope', () => {
    expect(access.mayUseEnvironment(request(admin()), 'env1')).toBe(true)
    expect(access.mayUseEnvironment(request(admin()), 'anything')).toBe(true)
  })

  it('allows only the environments of the key’s scope', () => {
    const scoped = request(admin({ environmentIds: ['env1', 'env2'] }))
    expect(access.mayUseEnvironment(scoped, 'env1')).toBe(true)
    expect(access.mayUseEnvironment(scoped, 'env2')).toBe(true)
    expect(access.mayUseEnvironment(scoped, 'env1b')).toBe(false)
    expect(access.mayUseEnvironment(request(admin({ environmentIds: [] })), 'env1')).toBe(false)
  })

  it('answers 401 without an admin key', async () => {
    expect((await httpError(() => access.mayUseEnvironment(request(undefined), 'env1'))).statusCode).toBe(401)
  })
})

describe('withReadSlot', () => {
  it('gives the place of a request whose client left while waiting to the next, and never runs its read', async () => {
    const app = Fastify()
    const reads = new Slots({ total: 4, perAccount: 1 })
    const ran: string[] = []
    let finishFirst = () => {}
    const firstHolds = new Promise<void>((r) => (finishFirst = r))
    app.addHook('onRequest', async (req) => {
      req.admin = admin()
    })
    app.get('/read/:n', async (req, reply) =>
      withReadSlot(reads, req, reply, async () => {
        const n = (req.params as { n: string }).n
        ran.push(n)
        if (n === '1') await firstHolds
        return { n }
      }),
    )
    const url = await app.listen({ host: '127.0.0.1', port: 0 })
    try {
      const first = fetch(`${url}/read/1`)
      await expect.poll(() => ran).toEqual(['1'])
      // The second request's client leaves while it waits behind the first.
      const gone = httpRequest(`${url}/read/2`)
      gone.on('error', () => undefined)
      gone.end()
      await new Promise((r) => setTimeout(r, 200))
      gone.destroy()
      await new Promise((r) => setTimeout(r, 200))
      const third = fetch(`${url}/read/3`)
      await new Promise((r) => setTimeout(r, 100))
      finishFirst()
      expect((await first).status).toBe(200)
      expect(await (await third).json()).toEqual({ n: '3' })
      expect(ran).toEqual(['1', '3'])
      expect(reads.inUse).toBe(0)
    } finally {
      await app.close()
    }
  })
})
