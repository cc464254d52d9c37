// The admin key of a request to an API of the whole account (integrations, alerts): an admin key
// without workspace or environment restriction, and with role all where the API says so.
import type { FastifyRequest } from 'fastify'
import { presentedKey, type ApiKeyCache, type Principal } from '../auth/api-keys.js'
import { HttpError } from '../http/errors.js'

export async function accountWideAdmin(
  apiKeys: ApiKeyCache,
  request: FastifyRequest,
  what: string,
  roleAll: boolean,
): Promise<Principal> {
  const key = presentedKey(request.headers, true)
  const principal = key ? await apiKeys.lookup(key) : undefined
  if (principal?.kind !== 'admin')
    throw new HttpError('UNAUTHORIZED', 'missing or unknown admin API key: send Authorization: Bearer <admin API key>')
  if ((roleAll && (principal.role ?? 'all') !== 'all') || principal.workspaceIds || principal.environmentIds) {
    throw new HttpError(
      'FORBIDDEN',
      `${what} belong to the whole account: they need an admin API key ${roleAll ? 'with role all and ' : ''}without workspace or environment restriction`,
    )
  }
  return principal
}
