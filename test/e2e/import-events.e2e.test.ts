// `sluice import-events` as a user runs it: a separate process, files on disk, the real edge.
import { mkdtempSync, rmSync, writeFileSync, createWriteStream } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import { createTestEnv, event, waitFor, type TestEnv } from '../support/harness.js'
import { runSluice } from '../support/cli.js'

let t: TestEnv
let service: RunningService
let key: string
const dir = mkdtempSync(join(tmpdir(), 'sluice-import-'))

beforeAll(async () => {
  t = await createTestEnv()
  key = (await t.bootstrap()).environments[0]!.serverSideSdkKey
  service = await t.start()
})
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  await t?.close()
})

it('imports an NDJSON file of 100,000 events, skipping lines that are not JSON objects', async () => {
  const file = join(dir, 'events.ndjson')
  const out = createWriteStream(file)
  for (let i = 0; i < 100_000; i++) {
    out.write(JSON.stringify(event(i, { eventTypeId: 'import.ndjson' })) + '\n')
    if (i === 500) out.write('not json\n')
    if (i === 900) out.write('[1,2]\n\n')
  }
  await new Promise<void>((r) => out.end(r))

  const res = await runSluice(['import-events', file, '--url', service.url, '--key', key, '--json'], t.env)
  expect(res.code, res.stderr).toBe(0)
  const summary = JSON.parse(res.stdout) as Record<string, unknown>
  expect(summary).toMatchObject({
    eventsSent: 100_000,
    eventsFailed: 0,
    requestsAccepted: 20,
    requestsFailed: 0,
    linesSkipped: 2,
  })
  await waitFor(
    '100,000 rows',
    async () => ((await t.count('events', "event_type = 'import.ndjson'")) === 100_000 ? true : undefined),
    120_000,
  )
  const [u] = await t.query<{ n: string }>(
    "SELECT uniqExact(key) AS n FROM {db}.events WHERE event_type = 'import.ndjson'",
  )
  expect(u!.n).toBe('100000')
}, 180_000)

it('imports a JSON-array file and reports a refused key per request', async () => {
  const file = join(dir, 'events.json')
  writeFileSync(
    file,
    '\n  ' + JSON.stringify(Array.from({ length: 12_345 }, (_, i) => event(i, { eventTypeId: 'import.array' }))),
  )

  const ok = await runSluice(
    ['import-events', file, '--url', service.url, '--key', key, '--batch-size', '1000', '--json'],
    t.env,
  )
  expect(ok.code, ok.stderr).toBe(0)
  expect(JSON.parse(ok.stdout)).toMatchObject({ eventsSent: 12_345, requestsAccepted: 13, requestsFailed: 0 })
  await waitFor('12,345 rows', async () =>
    (await t.count('events', "event_type = 'import.array'")) === 12_345 ? true : undefined,
  )

  const refused = await runSluice(
    ['import-events', file, '--url', service.url, '--key', 'sdk_srv_wrong', '--batch-size', '5000'],
    t.env,
  )
  expect(refused.code).toBe(1)
  expect(refused.stdout).toMatch(/events sent:\s+0/)
  expect(refused.stdout).toMatch(/requests failed:\s+3 \(12345 events\)/)
  expect(refused.stdout).toMatch(/3 x HTTP 401: missing or unknown SDK key/)
})
