// API key lookup (admin and SDK keys) for request authentication, from an in-memory copy of the
// keys in Redis. Keys are looked up by their SHA-256, so the comparison does not depend on how much
// of a secret matches, and plain keys are never stored.
import type { Logger } from '../shared/logger.js'
import { hashKey, keyId, type AdminRole, type ApiKeyKind, type TenancyStore } from '../state/redis/tenancy.js'
import { VersionedCache } from '../shared/versioned-cache.js'

export interface Principal {
  /** The key's public id (never the key itself): for audit logs and rate limits. */
  readonly id: string
  readonly name?: string
  readonly kind: ApiKeyKind
  readonly accountId: string
  readonly role?: AdminRole
  readonly workspaceIds?: readonly string[]
  readonly environmentIds?: readonly string[]
  readonly workspaceId?: string
  readonly environmentId?: string
}

export class ApiKeyCache {
  private readonly cache: VersionedCache<Principal>

  constructor(store: TenancyStore, refreshMs: number, log: Logger) {
    this.cache = new VersionedCache(
      {
        version: () => store.apiKeysVersion(),
        load: async () => {
          const { version, keys } = await store.apiKeys()
          const entries = new Map<string, Principal>()
          for (const [hash, record] of keys) {
            if (record.revokedAt !== undefined) continue
            const { kind, accountId, name, role, workspaceIds, environmentIds, workspaceId, environmentId } = record
            entries.set(hash, {
              id: keyId(hash),
              kind,
              accountId,
              name,
              role,
              workspaceIds,
              environmentIds,
              workspaceId,
              environmentId,
            })
          }
          return { version, entries }
        },
      },
      refreshMs,
      log,
    )
  }

  start(): Promise<void> {
    return this.cache.start()
  }

  stop(): void {
    this.cache.stop()
  }

  /** The principal of a valid (not revoked) key, or undefined. */
  lookup(key: string): Promise<Principal | undefined> {
    return this.cache.get(hashKey(key))
  }
}

/** The key a request presents: `Authorization: Bearer <key>`, or `x-api-key` where allowed. */
export function presentedKey(
  headers: Record<string, string | string[] | undefined>,
  allowApiKeyHeader: boolean,
): string | undefined {
  const auth = headers['authorization']
  if (typeof auth === 'string' && auth.startsWith('Bearer ')) return auth.slice(7).trim() || undefined
  const header = headers['x-api-key']
  return allowApiKeyHeader && typeof header === 'string' ? header.trim() || undefined : undefined
}

/** An SDK key's environment: the principal of a server-side or client-side key. */
export type SdkPrincipal = Principal & { readonly kind: 'server' | 'client'; readonly environmentId: string }

export function isSdkPrincipal(p: Principal | undefined): p is SdkPrincipal {
  return (p?.kind === 'server' || p?.kind === 'client') && p.environmentId !== undefined
}
