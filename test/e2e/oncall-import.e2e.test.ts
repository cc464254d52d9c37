// Moving from Opsgenie and Grafana OnCall end to end: `sluice import schedules --from <tool> <file>` on each tool's
// API export (the fixtures of test/unit/pipeline/oncall/import.test.ts) against a real Redis and a real service. A dry
// run makes nothing and says what it would make; the import makes the schedules and policies, finds the export's people
// among the account's users by email, and the service then answers who is on call at the sample times as each tool's
// documented rules do (one of them where the tool pages several, as the report says). Run again, it makes nothing
// twice; a schedule whose people are not the account's users is not made, and the command says who and exits 1.
import { readFileSync } from 'node:fs'
import { DateTime } from 'luxon'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { runSluice } from '../support/cli.js'
import { createTestEnv, jsonCaller, type TestEnv } from '../support/harness.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestEnv
let service: RunningService
let demo: DemoAccount
const json = jsonCaller(() => service.url)
const call = (method: string, path: string, body?: unknown) => json(demo.adminApiKey, method, path, body)
const fixture = (name: string) => new URL(`../fixtures/oncall-import/${name}`, import.meta.url).pathname

beforeAll(async () => {
  t = await createTestEnv()
  demo = await t.bootstrap()
  service = await t.start(['admin'])
  // The account's users, as SCIM provisions them: found by email (henry is not one of them).
  for (const name of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace'])
    await t.state.directory.createUser(demo.accountId, {
      userName: name,
      emails: [{ value: `${name}@example.com`, primary: true }],
      active: true,
    })
})
afterAll(async () => {
  await t?.close()
})

const importing = (from: string, file: string, ...more: string[]) =>
  runSluice(['import', 'schedules', '--from', from, fixture(file), '--account', demo.accountId, ...more], t.env)

async function names(path: string, key: string): Promise<string[]> {
  return ((await call('GET', path)).body[key] as Json[]).map((x) => x['name'] as string).sort()
}

/** The service's answers at the expected file's sample times, against the tool's. */
async function sameAnswers(expectedFile: string): Promise<void> {
  const expected = JSON.parse(readFileSync(fixture(expectedFile), 'utf8')) as {
    schedule: string
    zone: string
    samples: { at: string; onCall: string[] }[]
  }
  const schedules = (await call('GET', '/api/v1/schedules')).body['schedules'] as Json[]
  const id = schedules.find((s) => s['name'] === expected.schedule)!['id'] as string
  for (const sample of expected.samples) {
    const at = DateTime.fromISO(sample.at, { zone: expected.zone }).toUTC().toISO()!
    const res = await call('GET', `/api/v1/schedules/${id}/on-call?at=${encodeURIComponent(at)}`)
    expect(res.status).toBe(200)
    const who = res.body['responder'] === null ? undefined : `${res.body['responder']['userName']}@example.com`
    if (sample.onCall.length === 0) expect(who, sample.at).toBeUndefined()
    else if (sample.onCall.length === 1) expect(who, sample.at).toBe(sample.onCall[0])
    else expect(sample.onCall, sample.at).toContain(who)
  }
}

describe('sluice import schedules', () => {
  it('from Opsgenie: a dry run makes nothing; the import makes schedules and policies answering as Opsgenie does', async () => {
    const dry = await importing('opsgenie', 'opsgenie-export.json', '--dry-run')
    expect(dry.stdout).toMatch(/^Dry run: nothing was made\./)
    expect(dry.stdout).toMatch(/would be created\s+"ops_primary"/)
    expect(dry.stdout).toMatch(/would be created\s+"managers"/)
    expect(dry.stdout).toMatch(/would be created\s+"ops_escalation"/)
    // db_secondary has henry, who is not a user here: not imported, said, exit code 1.
    expect(dry.stdout).toMatch(/not imported\s+"db_secondary"[\s\S]*"u-henry" is not a user of this account/)
    expect(dry.stdout).toMatch(
      /people\["u-henry"\]: is not a user of this account \(no active user named "henry@example.com"\)/,
    )
    expect(dry.code).toBe(1)
    expect(await names('/api/v1/schedules', 'schedules')).toEqual([])
    expect(await names('/api/v1/escalation-policies', 'policies')).toEqual([])

    const run = await importing('opsgenie', 'opsgenie-export.json', '--json')
    expect(run.code, run.stderr).toBe(1)
    const outcome = JSON.parse(run.stdout) as Json
    expect(outcome['dryRun']).toBe(false)
    expect((outcome['schedules'] as Json[]).map((s) => [s['name'], s['outcome']])).toEqual([
      ['ops_primary', 'created'],
      ['db_secondary', 'not imported'],
    ])
    expect(await names('/api/v1/schedules', 'schedules')).toEqual(['ops_primary'])
    expect(await names('/api/v1/escalation-policies', 'policies')).toEqual(['managers', 'ops_escalation'])
    await sameAnswers('opsgenie-expected.json')
    // The policy pages the imported schedule, then erin, then hands over to the imported managers policy.
    const policies = (await call('GET', '/api/v1/escalation-policies')).body['policies'] as Json[]
    const ops = policies.find((p) => p['name'] === 'ops_escalation')!
    const managers = policies.find((p) => p['name'] === 'managers')!
    const schedule = ((await call('GET', '/api/v1/schedules')).body['schedules'] as Json[])[0]!
    expect(ops['steps'].map((s: Json) => [s['targets'][0]['kind'], s['waitMinutes']])).toEqual([
      ['schedule', 10],
      ['user', 20],
      ['policy', 5],
    ])
    expect(ops['steps'][0]['targets'][0]['id']).toBe(schedule['id'])
    expect(ops['steps'][2]['targets'][0]['id']).toBe(managers['id'])
    expect(managers['steps'][1]['targets'][0]['id']).toBe(schedule['id'])

    // Again: what exists by name is left as it is.
    const again = await importing('opsgenie', 'opsgenie-export.json')
    expect(again.stdout).toMatch(/exists\s+"ops_primary"/)
    expect(await names('/api/v1/schedules', 'schedules')).toEqual(['ops_primary'])
    expect(await names('/api/v1/escalation-policies', 'policies')).toEqual(['managers', 'ops_escalation'])
  })

  it('from Grafana OnCall: the schedule answers as OnCall does, levels and overrides kept; the chain is a policy', async () => {
    const run = await importing('grafana-oncall', 'grafana-oncall-export.json')
    expect(run.stdout).toMatch(/^Imported from grafana-oncall\./)
    expect(run.stdout).toMatch(/created\s+"platform"/)
    expect(run.stdout).toMatch(/not imported\s+"secondary"[\s\S]*"UHENRY" is not a user/)
    expect(run.stdout).toMatch(/schedules\["from a calendar"\]: is an iCal schedule/)
    expect(run.stdout).toMatch(/created\s+"platform-escalation"/)
    // Overlaps are looked for in the coming weeks: the weekend shift still beside the 24x7 one, at one level.
    expect(run.stdout).toMatch(/layers "24x7" and "weekend extra" are both on call from \S+ to \S+ \(Europe\/Berlin\)/)
    expect(run.code).toBe(1)
    await sameAnswers('grafana-oncall-expected.json')
    const policies = (await call('GET', '/api/v1/escalation-policies')).body['policies'] as Json[]
    const chain = policies.find((p) => p['name'] === 'platform-escalation')!
    expect(chain['repeat']).toBe(5)
    expect(chain['steps'].map((s: Json) => s['waitMinutes'])).toEqual([15, 30])
  })

  it('refuses a file that is not JSON, or a tool it does not know, saying so', async () => {
    const bad = await runSluice(
      ['import', 'schedules', '--from', 'pagerduty', fixture('opsgenie-export.json'), '--account', demo.accountId],
      t.env,
    )
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toMatch(/Allowed choices are opsgenie, grafana-oncall/)
    const notJson = await runSluice(
      [
        'import',
        'schedules',
        '--from',
        'opsgenie',
        fixture('../../e2e/oncall-import.e2e.test.ts'),
        '--account',
        demo.accountId,
      ],
      t.env,
    )
    expect(notJson.code).not.toBe(0)
    expect(notJson.stderr).toMatch(/oncall-import\.e2e\.test\.ts: .*JSON/)
  })
})
