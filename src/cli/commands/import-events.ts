// `sluice import-events <file>`: streams an NDJSON or JSON-array file through POST /api/events/bulk in
// batches, a few requests in flight, with a progress bar and a summary. Memory stays bounded by
// (concurrency + 1) batches whatever the file size.
import { createReadStream, statSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { Readable } from 'node:stream'
import { SingleBar, Presets } from 'cli-progress'
import type { Command } from 'commander'
import streamJson from 'stream-json'
import StreamArray from 'stream-json/streamers/StreamArray.js'
import { NO_DEMO_ACCOUNT } from '../../services/accounts.js'
import { CliError, config, positiveInt, withServices } from '../context.js'

export interface ImportOptions {
  readonly url: string
  readonly key: string
  readonly batchSize: number
  readonly batchBytes: number
  readonly concurrency: number
  readonly progress: boolean
}

export interface ImportSummary {
  eventsSent: number
  eventsFailed: number
  requestsAccepted: number
  requestsFailed: number
  linesSkipped: number
  failures: Record<string, number>
  seconds: number
}

interface Batch {
  readonly body: string
  readonly count: number
}

const MAX_ATTEMPTS = 5

export async function importEvents(file: string, options: ImportOptions): Promise<ImportSummary> {
  const size = statSync(file).size
  const summary: ImportSummary = {
    eventsSent: 0,
    eventsFailed: 0,
    requestsAccepted: 0,
    requestsFailed: 0,
    linesSkipped: 0,
    failures: {},
    seconds: 0,
  }
  const started = Date.now()
  const input = createReadStream(file)
  const bar = options.progress
    ? new SingleBar(
        { format: ' {bar} {percentage}% | {events} events sent | {eta_formatted} left', etaBuffer: 50 },
        Presets.shades_classic,
      )
    : undefined
  bar?.start(size, 0, { events: 0 })
  const tick = setInterval(() => bar?.update(input.bytesRead, { events: summary.eventsSent }), 200)

  const endpoint = new URL('/api/events/bulk', options.url)
  const send = async (batch: Batch): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      let retryAfter = 0
      let failure: string
      try {
        const res = await fetch(endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${options.key}`,
            splitsdkversion: 'sluice-import-1',
          },
          body: batch.body,
        })
        const text = await res.text()
        if (res.status === 202) {
          summary.requestsAccepted++
          summary.eventsSent += batch.count
          return
        }
        failure = `HTTP ${res.status}: ${messageOf(text)}`
        // 503 and 429 mean nothing was accepted: safe to send again.
        if (res.status === 503 || res.status === 429) retryAfter = Number(res.headers.get('retry-after') ?? '1') || 1
      } catch (err) {
        const code = (err as { cause?: { code?: string } }).cause?.code
        failure = `network error: ${code ?? (err as Error).message}`
        // Only a refused connection proves the request never arrived; anything else could duplicate.
        if (code === 'ECONNREFUSED') retryAfter = 1
      }
      if (retryAfter === 0 || attempt >= MAX_ATTEMPTS) {
        summary.requestsFailed++
        summary.eventsFailed += batch.count
        summary.failures[failure] = (summary.failures[failure] ?? 0) + 1
        return
      }
      await new Promise((r) => setTimeout(r, Math.min(retryAfter, 30) * 1000))
    }
  }

  // A fixed number of workers pull from the batch generator: reading pauses while all are busy.
  const batches = batchesOf(records(input, summary), options.batchSize, options.batchBytes)
  const worker = async () => {
    for (;;) {
      const next = await batches.next()
      if (next.done) return
      await send(next.value)
    }
  }
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker))
  } finally {
    clearInterval(tick)
    bar?.update(size, { events: summary.eventsSent })
    bar?.stop()
  }
  summary.seconds = (Date.now() - started) / 1000
  return summary
}

/** Yields each record as JSON text, from NDJSON (one object per line) or a JSON array. */
async function* records(input: Readable, summary: ImportSummary): AsyncGenerator<string> {
  const first = await firstSignificantChar(input)
  if (first === '[') {
    const pipeline = input.pipe(streamJson.parser()).pipe(StreamArray.streamArray())
    for await (const item of pipeline as AsyncIterable<{ value: unknown }>) yield JSON.stringify(item.value)
    return
  }
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    const text = line.trim()
    if (!text) continue
    try {
      const value: unknown = JSON.parse(text)
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        yield text
        continue
      }
    } catch {
      // counted below
    }
    summary.linesSkipped++
  }
}

async function* batchesOf(source: AsyncGenerator<string>, maxCount: number, maxBytes: number): AsyncGenerator<Batch> {
  let items: string[] = []
  let bytes = 2
  for await (const item of source) {
    if (items.length > 0 && (items.length >= maxCount || bytes + item.length + 1 > maxBytes)) {
      yield { body: `[${items.join(',')}]`, count: items.length }
      items = []
      bytes = 2
    }
    items.push(item)
    bytes += item.length + 1
  }
  if (items.length > 0) yield { body: `[${items.join(',')}]`, count: items.length }
}

/** Peeks at the stream without consuming it. */
async function firstSignificantChar(input: Readable): Promise<string> {
  for (;;) {
    const chunk = input.read() as Buffer | null
    if (chunk) {
      input.unshift(chunk)
      return chunk.toString('utf8').trimStart().charAt(0)
    }
    if (input.readableEnded) return ''
    await new Promise<void>((resolve) => {
      const done = () => {
        input.off('readable', done)
        input.off('end', done)
        resolve()
      }
      input.on('readable', done)
      input.on('end', done)
    })
  }
}

function messageOf(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown }
    if (typeof body.message === 'string') return body.message
  } catch {
    // not JSON
  }
  return text.slice(0, 200)
}

export function importEventsCommand(program: Command): void {
  program
    .command('import-events <file>')
    .description('send an NDJSON or JSON-array file of events through POST /api/events/bulk')
    .option('--url <url>', 'base URL of a running sluice edge (default: http://SLUICE_HOST:SLUICE_PORT)')
    .option('--key <sdkKey>', 'SDK key of the target environment (default: the demo Production server-side key)')
    .option('--batch-size <n>', 'events per request', positiveInt, 5000)
    .option('--batch-bytes <n>', 'largest request body in bytes', positiveInt, 4 * 1024 * 1024)
    .option('--concurrency <n>', 'requests in flight', positiveInt, 4)
    .option('--json', 'print the summary as JSON')
    .action(
      async (
        file: string,
        opts: {
          url?: string
          key?: string
          batchSize: number
          batchBytes: number
          concurrency: number
          json?: boolean
        },
      ) => {
        const cfg = config()
        const key =
          opts.key ?? (await withServices(async (s) => (await s.accounts.demo())?.environments[0]?.serverSideSdkKey))
        if (!key) throw new CliError(`no --key given and ${NO_DEMO_ACCOUNT.replace('no account given and ', '')}`)
        const summary = await importEvents(file, {
          url: opts.url ?? `http://${cfg.http.host}:${cfg.http.port}`,
          key,
          batchSize: opts.batchSize,
          batchBytes: opts.batchBytes,
          concurrency: opts.concurrency,
          progress: !opts.json && process.stderr.isTTY,
        })
        if (opts.json) console.log(JSON.stringify(summary))
        else {
          console.log(`events sent:        ${summary.eventsSent}`)
          console.log(`requests accepted:  ${summary.requestsAccepted}`)
          console.log(`requests failed:    ${summary.requestsFailed} (${summary.eventsFailed} events)`)
          for (const [why, n] of Object.entries(summary.failures)) console.log(`  ${n} x ${why}`)
          if (summary.linesSkipped) console.log(`lines skipped (not a JSON object): ${summary.linesSkipped}`)
          console.log(
            `elapsed:            ${summary.seconds.toFixed(1)} s (${Math.round(summary.eventsSent / Math.max(summary.seconds, 0.001))} events/s)`,
          )
        }
        if (summary.requestsFailed > 0) process.exitCode = 1
      },
    )
}
