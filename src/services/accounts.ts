// Accounts (tenants) and what they hold at the top: workspaces, environments and traffic types, and
// the demo account. A caller that names no account acts on the demo account only if it exists: it
// is never created as a side effect (`sluice bootstrap` creates it).
import { Refusal } from '../shared/errors.js'
import { bootstrapDemoAccount } from '../state/redis/demo.js'
import type { RedisStores } from '../state/redis/index.js'
import type { DemoAccount, Environment, TenancyStore, TrafficType, Workspace } from '../state/redis/tenancy.js'

export const NO_DEMO_ACCOUNT =
  'no account given and there is no demo account: pass --account <id>, or run `sluice bootstrap` to create the demo account'

export class AccountService {
  private readonly store: TenancyStore

  constructor(private readonly state: Pick<RedisStores, 'tenancy' | 'platform' | 'directory'>) {
    this.store = state.tenancy
  }

  /** Creates the demo account (workspace, environments, keys, settings token, SCIM service account) or shows it. */
  bootstrapDemo(): Promise<DemoAccount> {
    return bootstrapDemoAccount(this.state)
  }

  /** The demo account, if `sluice bootstrap` created it. */
  demo(): Promise<DemoAccount | undefined> {
    return this.store.demo()
  }

  /** The account to act on: the one given (it must exist), else the demo account (it must exist). */
  async resolve(accountId: string | undefined): Promise<string> {
    if (accountId === undefined) {
      const demo = await this.store.demo()
      if (!demo) throw new Refusal('NOT_FOUND', NO_DEMO_ACCOUNT)
      return demo.accountId
    }
    if (!(await this.store.accountExists(accountId))) throw new Refusal('NOT_FOUND', `no account ${accountId}`)
    return accountId
  }

  /** The workspace to act on: the one given, else the demo workspace (it must exist). */
  async resolveWorkspace(workspaceId: string | undefined): Promise<Workspace> {
    const id = workspaceId ?? (await this.store.demo())?.workspaceId
    if (id === undefined) throw new Refusal('NOT_FOUND', NO_DEMO_ACCOUNT.replace('--account', '--workspace'))
    const ws = await this.store.workspace(id)
    if (!ws) throw new Refusal('NOT_FOUND', `no workspace ${id}`)
    return ws
  }

  createAccount(name: string): Promise<{ id: string; name: string }> {
    return this.store.createAccount(name)
  }

  listAccounts(): Promise<{ id: string; name: string }[]> {
    return this.store.listAccounts()
  }

  async createWorkspace(
    accountId: string | undefined,
    name: string,
    requiresTitleAndComments: boolean,
  ): Promise<Workspace> {
    return this.store.createWorkspace(await this.resolve(accountId), name, requiresTitleAndComments)
  }

  async listWorkspaces(accountId: string | undefined): Promise<Workspace[]> {
    return this.store.listWorkspaces(await this.resolve(accountId))
  }

  async createEnvironment(workspaceId: string | undefined, name: string, production: boolean): Promise<Environment> {
    return this.store.createEnvironment((await this.resolveWorkspace(workspaceId)).id, name, production)
  }

  async listEnvironments(workspaceId: string | undefined): Promise<Environment[]> {
    return this.store.environments((await this.resolveWorkspace(workspaceId)).id)
  }

  async createTrafficType(workspaceId: string | undefined, name: string): Promise<TrafficType> {
    return this.store.createTrafficType((await this.resolveWorkspace(workspaceId)).id, name)
  }

  async listTrafficTypes(workspaceId: string | undefined): Promise<TrafficType[]> {
    return this.store.trafficTypes((await this.resolveWorkspace(workspaceId)).id)
  }
}
