// The edge spool on a real disk with an in-memory publisher (the real Kafka is in test/fault/spool):
// what Kafka does not take is spooled and drained in order, marked as replays; the spool survives a
// reopen; one process at a time holds a directory; an entry Kafka refuses as data is set aside
// instead of holding every entry behind it.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createLogger } from '../../../../src/shared/logger.js'
import { createMetrics } from '../../../../src/shared/metrics.js'
import { PublishError, REPLAY_HEADER, type OutboundMessage, type Publisher } from '../../../../src/broker/ports.js'
import { DiskSpool } from '../../../../src/edge/spool/disk-spool.js'
import { SpoolingIntake } from '../../../../src/edge/spool/intake.js'
import { waitFor } from '../../../support/harness.js'

class MemoryPublisher implements Publisher {
  down = false
  published: OutboundMessage[] = []
  async publish(_topic: string, messages: readonly OutboundMessage[]): Promise<void> {
    if (this.down)
      throw new PublishError('PUBLISH_FAILED', 'kafka did not acknowledge the messages', {
        cause: new Error('connect ECONNREFUSED'),
      })
    if (messages.some((m) => m.key === 'poison')) {
      throw new PublishError('PUBLISH_FAILED', 'kafka did not acknowledge the messages', {
        cause: Object.assign(
          new Error('The request included a message larger than the max message size the server will accept'),
          { type: 'MESSAGE_TOO_LARGE' },
        ),
      })
    }
    this.published.push(...messages)
  }
}

const dirs: string[] = []
const intakes: SpoolingIntake[] = []
afterEach(async () => {
  for (const i of intakes.splice(0)) await i.close()
  for (const d of dirs.splice(0)) {
    rmSync(d, { recursive: true, force: true })
    rmSync(`${d}.refused`, { recursive: true, force: true })
  }
})

async function intakeOn(dir: string, publisher: Publisher, metrics = createMetrics()) {
  const intake = new SpoolingIntake(
    publisher,
    { dir, maxBytes: 1 << 20, afterMs: 100 },
    metrics,
    createLogger('silent'),
  )
  await intake.open()
  intakes.push(intake)
  return intake
}
const message = (key: string): OutboundMessage => ({
  key,
  value: Buffer.from(`[{"k":"${key}"}]`),
  headers: { 'sluice-request-id': key },
})
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-spool-unit-'))
  dirs.push(dir)
  return dir
}

it('spools what Kafka does not take and drains it in order once Kafka is back, each message marked as a replay', async () => {
  const publisher = new MemoryPublisher()
  const intake = await intakeOn(newDir(), publisher)
  expect(await intake.accept('events', [message('direct')])).toEqual({ spooled: false })
  publisher.down = true
  for (const key of ['a', 'b', 'c']) expect(await intake.accept('events', [message(key)])).toEqual({ spooled: true })
  expect(intake.state()).toMatchObject({ spooling: true, spool: { entries: 3 } })
  publisher.down = false
  await waitFor('the spool drained', async () => (intake.state()?.spooling === false ? true : undefined), 10_000)
  expect(publisher.published.map((m) => m.key)).toEqual(['direct', 'a', 'b', 'c'])
  expect(publisher.published.map((m) => m.headers[REPLAY_HEADER])).toEqual([undefined, '1', '1', '1'])
  expect(await intake.accept('events', [message('after')])).toEqual({ spooled: false })
})

it('keeps its spool across a restart, and one process at a time holds the directory', async () => {
  const dir = newDir()
  const publisher = new MemoryPublisher()
  publisher.down = true
  const first = await intakeOn(dir, publisher)
  await first.accept('events', [message('a'), message('b')])
  await expect(DiskSpool.open(dir, 1 << 20)).rejects.toThrow(/in use by another process/)
  await first.close()
  publisher.down = false
  const second = await intakeOn(dir, publisher)
  await waitFor('the spool drained', async () => (second.state()?.spool.entries === 0 ? true : undefined), 10_000)
  expect(publisher.published.map((m) => m.key)).toEqual(['a', 'b'])
})

it('sets aside an entry Kafka refuses as data, and drains the entries around it', async () => {
  const dir = newDir()
  const publisher = new MemoryPublisher()
  const metrics = createMetrics()
  const intake = await intakeOn(dir, publisher, metrics)
  publisher.down = true
  for (const key of ['a', 'poison', 'b']) await intake.accept('events', [message(key)])
  publisher.down = false
  await waitFor('the spool drained', async () => (intake.state()?.spooling === false ? true : undefined), 10_000)
  expect(publisher.published.map((m) => m.key)).toEqual(['a', 'b'])
  expect(existsSync(`${dir}.refused`)).toBe(true)
  expect(readdirSync(`${dir}.refused`)).toHaveLength(1)
  expect(await metrics.registry.getSingleMetricAsString('sluice_spool_refused_messages_total')).toMatch(/ 1$/m)
})

it('refuses a body that does not fit in the spool, and keeps what it holds', async () => {
  const publisher = new MemoryPublisher()
  publisher.down = true
  const intake = new SpoolingIntake(
    publisher,
    { dir: newDir(), maxBytes: 300, afterMs: 100 },
    createMetrics(),
    createLogger('silent'),
  )
  await intake.open()
  intakes.push(intake)
  await intake.accept('events', [message('a')])
  await expect(intake.accept('events', [message('b'), message('c'), message('d')])).rejects.toMatchObject({
    code: 'SPOOL_FULL',
    retriable: true,
  })
  expect(intake.state()).toMatchObject({ spool: { entries: 1, messages: 1 } })
})
