// The demo account of `sluice bootstrap`: the Split side (TenancyStore.bootstrapDemo: workspace,
// environments, traffic type, admin and SDK keys) and the platform side: an admin user with a
// personal access token for the settings API, a service account holding the SCIM permissions, and
// the SCIM JWT feature flag on.
import { SCIM_JWT_FLAG, SCIM_PERMISSIONS, SETTINGS_PERMISSIONS, type PlatformStore } from './platform.js'
import type { DirectoryStore } from './directory.js'
import type { DemoAccount, TenancyStore } from './tenancy.js'

const PAT_LIFETIME_MS = 365 * 86_400_000
export const DEMO_SERVICE_ACCOUNT = 'scim_provisioner'

export async function bootstrapDemoAccount({
  tenancy: store,
  platform: access,
  directory,
}: {
  tenancy: TenancyStore
  platform: PlatformStore
  directory: DirectoryStore
}): Promise<DemoAccount> {
  const demo = await store.bootstrapDemo()
  if (demo.personalAccessToken && demo.serviceAccountId) return demo
  const accountId = demo.accountId
  let admin = (await directory.users(accountId)).find((u) => u.userName === 'admin@demo.local')
  admin ??= (
    await directory.createUser(accountId, {
      userName: 'admin@demo.local',
      displayName: 'Demo admin',
      emails: [{ value: 'admin@demo.local', type: 'work', primary: true }],
      active: true,
    })
  ).user
  await access.saveServiceAccount({
    id: DEMO_SERVICE_ACCOUNT,
    name: 'SCIM provisioner',
    accountId,
    permissions: [...SCIM_PERMISSIONS],
  })
  await access.setFlag(accountId, SCIM_JWT_FLAG, true)
  const { token } = await access.createPat({
    accountId,
    userId: admin.id,
    name: 'demo settings token',
    permissions: [...SETTINGS_PERMISSIONS],
    expiresAt: Date.now() + PAT_LIFETIME_MS,
  })
  return store.saveDemoAccess({ personalAccessToken: token, serviceAccountId: DEMO_SERVICE_ACCOUNT })
}
