// What one account's on-call can cost the others, on the real Redis (and again on Redis Cluster, project
// redis-cluster). One account's storm of escalations beside another account's single step: the escalation job takes
// the accounts in turn, so the quiet account's step fires in the first round of the tick, not after the storm's
// thousand steps due before it (the review: 10,000 due steps of one account held another's page back by their whole
// firing time); every step still fires once. An account at SLUICE_ESCALATIONS_PER_ACCOUNT escalates no more incidents,
// and their timelines say why. Escalations of the former shared due set (one Redis) fire after an upgrade. A Slack
// click finds its responder by one lookup, not a read of every profile of the account.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { EscalationJob } from '../../src/jobs/escalation.job.js'
import { createLogger } from '../../src/shared/logger.js'
import { EscalationStore, type EscalationState } from '../../src/state/redis/escalations.js'
import type { IncidentRecord } from '../../src/state/redis/incidents.js'
import { createTestEnv, type TestEnv } from '../support/harness.js'

let t: TestEnv
const STORM = 1000
const NOW = Date.now()

beforeAll(async () => {
  t = await createTestEnv()
})
afterAll(async () => {
  await t?.close()
})

function job(perAccount = 10_000, onFired?: () => void): EscalationJob {
  const { escalations, oncall, notify, directory } = t.state
  return new EscalationJob(escalations, oncall, notify, directory, {
    leaseMs: 10_000,
    giveUpMs: 86_400_000,
    retentionMs: 86_400_000,
    everyMs: 100,
    perAccount,
    log: createLogger('error'),
    ...(onFired ? { onFired } : {}),
  })
}

/** An account with a webhook destination, a policy of two steps paging it, and `n` triggered incidents. */
async function account(accountId: string, n: number): Promise<{ policyId: string; incidents: string[] }> {
  const destination = {
    id: 'pager',
    name: 'pager',
    kind: 'webhook',
    enabled: true,
    events: ['triggered'],
    settings: { url: 'http://127.0.0.1:9/', contentType: 'application/json', signingSecret: '' },
    limits: { ratePerSecond: 1000, burst: 1000, concurrency: 4, maxDigest: 1 },
    createdAt: 0,
    updatedAt: 0,
  }
  await t.redis.hset(t.state.notify.keys(accountId).destinations, 'pager', JSON.stringify(destination))
  const policy = await t.state.oncall.savePolicy(
    accountId,
    { name: 'pager', steps: [0, 1].map(() => ({ targets: [{ kind: 'destination', id: 'pager' }], waitMinutes: 5 })) },
    'test',
  )
  const incidents = Array.from({ length: n }, (_, i) => `inc_${accountId}_${i}`)
  const key = t.state.escalations.keys(accountId).incidents
  for (let i = 0; i < n; i += 500)
    await t.redis.hset(
      key,
      Object.fromEntries(
        incidents
          .slice(i, i + 500)
          .map((id) => [id, JSON.stringify({ id, accountId, status: 'triggered', title: id, timeline: [] })]),
      ),
    )
  if (typeof policy === 'string') throw new Error(policy)
  return { policyId: policy.id, incidents }
}

const alert = { id: 'al', status: 'firing', severity: 'critical', description: 'fairness' } as const

async function timeline(accountId: string, incidentId: string): Promise<IncidentRecord['timeline']> {
  const json = await t.redis.hget(t.state.escalations.keys(accountId).incidents, incidentId)
  return (JSON.parse(json!) as IncidentRecord).timeline
}

it('a quiet account’s step fires in the first round beside another account’s storm of 1,000; each step once', async () => {
  let fired = 0
  const j = job(10_000, () => fired++)
  const storm = await account('acct-storm', STORM)
  const quiet = await account('acct-quiet', 1)
  // The storm's steps are all due before the quiet account's: one shared queue would fire every one of them first.
  for (let i = 0; i < STORM; i += 100)
    await Promise.all(
      storm.incidents
        .slice(i, i + 100)
        .map((incidentId, k) =>
          j.start({ accountId: 'acct-storm', incidentId, policyId: storm.policyId, alert, now: NOW - 60_000 + i + k }),
        ),
    )
  await j.start({ accountId: 'acct-quiet', incidentId: quiet.incidents[0]!, policyId: quiet.policyId, alert, now: NOW })

  // A tick stopped once the quiet account's step could have fired in a fair first round (a share of 20 each).
  await j.tick(NOW, () => fired >= 21)
  expect(fired).toBeLessThan(100)
  const first = await timeline('acct-quiet', quiet.incidents[0]!)
  expect(first.map((e) => [e.event, e.step])).toEqual([['escalated', 0]])

  // The rest of the storm in the next ticks (each fires for a second at most); then nothing more is due at that time.
  for (let n = 0; n < 30 && fired < STORM + 1; n++) await j.tick(NOW, () => false)
  expect(fired).toBe(STORM + 1)
  await j.tick(NOW, () => false)
  expect(fired).toBe(STORM + 1)
  const steps = await Promise.all(storm.incidents.map((id) => timeline('acct-storm', id)))
  expect(steps.filter((s) => s.length === 1 && s[0]!.event === 'escalated').length).toBe(STORM)

  // Their second steps, due five minutes later: each fires once more.
  for (let n = 0; n < 30 && fired < 2 * (STORM + 1); n++) await j.tick(NOW + 5 * 60_000 + 1000, () => false)
  expect(fired).toBe(2 * (STORM + 1))
  await j.tick(NOW + 5 * 60_000 + 1000, () => false)
  expect(fired).toBe(2 * (STORM + 1))
}, 120_000)

it('an account at its cap escalates no more incidents, and their timelines say why', async () => {
  const j = job(3)
  const { policyId, incidents } = await account('acct-capped', 4)
  for (const incidentId of incidents) await j.start({ accountId: 'acct-capped', incidentId, policyId, alert, now: NOW })
  const lines = await Promise.all(incidents.map((id) => timeline('acct-capped', id)))
  expect(lines.slice(0, 3)).toEqual([[], [], []])
  expect(lines[3]).toEqual([
    {
      event: 'not-escalated',
      at: NOW,
      policyId,
      paged: [
        {
          kind: 'policy',
          id: policyId,
          problem: 'the account has 3 escalations running (SLUICE_ESCALATIONS_PER_ACCOUNT)',
        },
      ],
    },
  ])
  expect(await t.state.escalations.state('acct-capped', incidents[3]!)).toBeUndefined()
  // Its stream entry replayed (a notify process killed before acknowledging it): said once, and still not escalated.
  await j.start({ accountId: 'acct-capped', incidentId: incidents[3]!, policyId, alert, now: NOW + 1 })
  expect(await timeline('acct-capped', incidents[3]!)).toHaveLength(1)
  expect(await t.state.escalations.state('acct-capped', incidents[3]!)).toBeUndefined()
  // Another account is not held by it.
  const other = await account('acct-beside', 1)
  await j.start({
    accountId: 'acct-beside',
    incidentId: other.incidents[0]!,
    policyId: other.policyId,
    alert,
    now: NOW,
  })
  expect(await t.state.escalations.state('acct-beside', other.incidents[0]!)).toMatchObject({ step: 0 })
})

// (A cluster never had the shared due set: each account's was its own there.)
it.skipIf(process.env['TEST_REDIS_ON_CLUSTER'] === '1')(
  'one Redis: escalations of the former shared due set fire after an upgrade',
  async () => {
    await job().tick(NOW, () => false) // the steps the tests before left due
    const accountId = 'acct-upgraded'
    const { policyId, incidents } = await account(accountId, 1)
    const incidentId = incidents[0]!
    const member = EscalationStore.member(accountId, incidentId)
    const state: EscalationState = {
      accountId,
      incidentId,
      policyId,
      round: 0,
      step: 0,
      seq: 0,
      dueAt: NOW,
      startedAt: NOW,
      handovers: 0,
      alert,
    }
    const k = t.state.escalations.keys(accountId)
    await t.redis.hset(k.states, member, JSON.stringify(state))
    expect(k.due).toMatch(/esc:due:acct-upgraded$/)
    await t.redis.zadd(k.due.replace(/:acct-upgraded$/, ''), NOW, member)
    let fired = 0
    await job(10_000, () => fired++).tick(NOW, () => false)
    expect(fired).toBe(1)
    expect((await timeline(accountId, incidentId)).map((e) => e.event)).toEqual(['escalated'])
  },
)

it('a Slack member is one lookup among 2,000 responders, including profiles saved before the index existed', async () => {
  const accountId = 'acct-slack'
  const { oncall } = t.state
  const N = 2000
  const member = (i: number) => `U${String(i).padStart(6, '0')}`
  for (let i = 0; i < N; i += 100)
    await Promise.all(
      Array.from({ length: 100 }, (_, k) =>
        oncall.saveProfile(accountId, `user-${i + k}`, {
          contactMethods: [{ id: 'chat', kind: 'slack', memberId: member(i + k) }],
          rules: [],
        }),
      ),
    )
  // As before the index: profiles only. The first lookup builds it from them.
  const [indexKey] = await t.keys(`${t.config.redis.keyPrefix}*responder-slack*${accountId}`)
  expect(indexKey).toBeDefined()
  await t.redis.del(indexKey!)
  expect((await oncall.responderBySlackMember(accountId, member(1500)))?.userId).toBe('user-1500')
  expect(await t.redis.hlen(indexKey!)).toBe(N + 1)
  // A changed profile moves its member; a member no one has is no one.
  await oncall.saveProfile(accountId, 'user-1500', {
    contactMethods: [{ id: 'chat', kind: 'slack', memberId: 'UNEW1500' }],
    rules: [],
  })
  expect(await oncall.responderBySlackMember(accountId, member(1500))).toBeUndefined()
  expect((await oncall.responderBySlackMember(accountId, 'UNEW1500'))?.userId).toBe('user-1500')
  expect(await oncall.responderBySlackMember(accountId, 'U999999')).toBeUndefined()
  expect(await oncall.responderBySlackMember(accountId, '__proto__')).toBeUndefined()
}, 60_000)
