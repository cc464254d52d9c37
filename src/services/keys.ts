// Admin API keys and SDK keys: who may hold what. An SDK key belongs to exactly one environment of
// its account; an admin key has a role and may be restricted to workspaces and environments of its
// account (a key restricted to environments is restricted to their workspaces too). A key is shown
// once, at creation, and stored only as a SHA-256.
import { Refusal } from '../shared/errors.js'
import {
  ADMIN_ROLES,
  type AdminRole,
  type ApiKeyInfo,
  type ApiKeyKind,
  type Environment,
  type TenancyStore,
} from '../state/redis/tenancy.js'

export const KEY_KINDS: readonly ApiKeyKind[] = ['admin', 'server', 'client']

export interface KeyRequest {
  readonly kind: string
  readonly accountId: string
  readonly name?: string
  /** Admin keys only. */
  readonly role?: string
  readonly workspaceIds?: readonly string[]
  /** Admin keys: a restriction; SDK keys: their one environment. */
  readonly environmentIds?: readonly string[]
}

export class KeyService {
  constructor(private readonly store: TenancyStore) {}

  async create(request: KeyRequest): Promise<{ key: string; id: string }> {
    const { kind, accountId, name } = request
    if (!(KEY_KINDS as readonly string[]).includes(kind))
      throw new Refusal('INVALID', `kind must be one of ${KEY_KINDS.join(', ')}`, [
        { field: 'kind', problem: `must be one of ${KEY_KINDS.join(', ')}` },
      ])
    const role = request.role ?? 'all'
    if (!(ADMIN_ROLES as readonly string[]).includes(role))
      throw new Refusal('INVALID', `role must be one of ${ADMIN_ROLES.join(', ')}`, [
        { field: 'role', problem: `must be one of ${ADMIN_ROLES.join(', ')}` },
      ])
    const envs = await Promise.all((request.environmentIds ?? []).map((id) => this.environmentOf(accountId, id)))
    for (const id of request.workspaceIds ?? []) {
      if ((await this.store.workspace(id))?.accountId !== accountId)
        throw new Refusal('NOT_FOUND', `no workspace ${id} in account ${accountId}`)
    }
    if (kind !== 'admin') {
      const env = envs[0]
      if (envs.length !== 1 || !env || request.workspaceIds?.length || request.role !== undefined) {
        throw new Refusal('INVALID', 'an SDK key needs exactly one environment, and no role or workspace restriction', [
          { field: 'environment', problem: 'exactly one is required for an SDK key' },
        ])
      }
      return this.store.createApiKey({
        kind: kind as ApiKeyKind,
        accountId,
        name,
        workspaceId: env.workspaceId,
        environmentId: env.id,
      })
    }
    return this.store.createApiKey({
      kind: 'admin',
      accountId,
      name,
      role: role as AdminRole,
      workspaceIds: request.workspaceIds,
      environmentIds: request.environmentIds,
    })
  }

  list(accountId?: string): Promise<ApiKeyInfo[]> {
    return this.store.listApiKeys(accountId)
  }

  /** Revokes a key given itself or its public id; NOT_FOUND when there is no such key. */
  async revoke(keyOrId: string): Promise<void> {
    if (!(await this.store.revokeApiKey(keyOrId))) throw new Refusal('NOT_FOUND', 'no such key')
  }

  private async environmentOf(accountId: string, id: string): Promise<Environment> {
    const env = await this.store.environment(id)
    if (!env || env.accountId !== accountId)
      throw new Refusal('NOT_FOUND', `no environment ${id} in account ${accountId}`)
    return env
  }
}
