// A process that serves HTTP and also consumes (`sluice serve` with every role, the quick start) runs
// its consumers in a worker thread of their own (SLUICE_CONSUMER_THREAD, on by default): the routes
// answer on one core while the consumers decode, render and write on another, instead of taking
// turns on one event loop. The thread has its own container (its own clients) and metrics registry;
// the process's /readyz and /metrics ask it through messages, and a consumer that cannot go on there
// stops the process as it would in the main thread.
import { Worker } from 'node:worker_threads'
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue } from 'prom-client'
import type { Config } from '../config/index.js'
import { HttpError } from '../http/errors.js'
import type { Metrics } from '../shared/metrics.js'
import type { Role } from './roles.js'

/** What the thread is given (workerData). */
export interface ThreadData {
  readonly config: Config
  readonly roles: readonly Role[]
}

/** Main thread → consumer thread, answered by a Reply with the same id. */
export interface Request {
  readonly id: number
  readonly kind: 'checks' | 'metrics' | 'stop'
}
export type Reply = { readonly id: number; readonly value: unknown } | { readonly id: number; readonly error: string }
/** Consumer thread → main thread, unasked. */
export type Notice = { readonly kind: 'started' } | { readonly kind: 'failed' | 'fatal'; readonly error: ThreadError }
export interface ThreadError {
  readonly name: string
  readonly message: string
  readonly stack?: string
  readonly code?: string
}

/** Longer than the thread's own probes (2 s), so a slow service is reported by name, not as silence. */
const ASK_TIMEOUT_MS = 2500

export class ConsumerThread {
  private nextId = 0
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  private stopping = false
  /** Set once the worker has ended: nothing posted to it is answered after that. */
  private ended: Error | undefined
  private readonly exited: Promise<void>

  private constructor(private readonly worker: Worker) {
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()))
  }

  /**
   * Starts the roles' consumers in a new thread and resolves once they have joined their groups;
   * rejects with the thread's error if they cannot start. After that, onFatal is called once if a
   * consumer there stops for good or the thread dies. entry: the thread's script (tests use their own).
   */
  static start(
    config: Config,
    roles: readonly Role[],
    onFatal: (err: unknown) => void,
    entry = new URL('./consumer-thread.worker.js', import.meta.url),
  ): Promise<ConsumerThread> {
    const data: ThreadData = { config, roles }
    const worker = new Worker(entry, { workerData: data, name: 'sluice-consumers' })
    const thread = new ConsumerThread(worker)
    return new Promise((resolve, reject) => {
      let started = false
      let reported = false
      const fail = (err: Error) => {
        if (!started) {
          reject(err)
          void worker.terminate()
        } else if (!thread.stopping && !reported) onFatal(err)
        reported = true
      }
      worker.on('message', (m: Notice | Reply) => {
        if ('id' in m) return thread.settle(m.id, m)
        if (m.kind === 'started') {
          started = true
          resolve(thread)
        } else fail(revive(m.error))
      })
      worker.on('error', (err) => fail(err))
      worker.on('exit', (code) => {
        thread.ended = new Error(`the consumer thread exited (code ${code})`)
        thread.rejectAll(thread.ended)
        fail(thread.ended)
      })
    })
  }

  /**
   * The thread's readiness checks: its services and consumers. A thread too busy to answer in time
   * is reported as such ('busy: …'), which makes the process degraded, not unready.
   */
  async checks(): Promise<Record<string, string>> {
    try {
      return (await this.ask('checks')) as Record<string, string>
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      return { 'consumer-thread': this.ended ? message : `busy: ${message}` }
    }
  }

  /**
   * The process's metrics: this thread's registry and the consumer thread's, summed. If the thread
   * does not answer the scrape fails (503) rather than dropping its series, which a scraper would
   * read as counters reset to zero.
   */
  async scrape(metrics: Metrics): Promise<string> {
    const [own, theirs] = await Promise.all([
      metrics.registry.getMetricsAsJSON(),
      this.ask('metrics').catch((err: unknown) => {
        throw new HttpError(
          'UNAVAILABLE',
          `metrics of the consumer thread: ${err instanceof Error ? err.message : String(err)}`,
        )
      }),
    ])
    return AggregatorRegistry.aggregate([own, theirs as MetricObjectWithValues<MetricValue<string>>[]]).metrics()
  }

  /** Its consumers finish their batches and commit, its clients close; then the thread ends. */
  async stop(): Promise<void> {
    this.stopping = true
    try {
      if (!this.ended) await Promise.race([this.ask('stop', 0), this.exited])
    } finally {
      await this.worker.terminate()
    }
  }

  private ask(kind: Request['kind'], timeoutMs = ASK_TIMEOUT_MS): Promise<unknown> {
    if (this.ended) return Promise.reject(this.ended)
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      const timer =
        timeoutMs > 0
          ? setTimeout(() => this.settle(id, { id, error: `no answer within ${timeoutMs} ms` }), timeoutMs)
          : undefined
      this.waiting.set(id, {
        resolve: (v) => {
          clearTimeout(timer)
          resolve(v)
        },
        reject: (e) => {
          clearTimeout(timer)
          reject(e)
        },
      })
      this.worker.postMessage({ id, kind } satisfies Request)
    })
  }

  private settle(id: number, reply: Reply): void {
    const waiter = this.waiting.get(id)
    if (!waiter) return
    this.waiting.delete(id)
    if ('error' in reply) waiter.reject(new Error(reply.error))
    else waiter.resolve(reply.value)
  }

  private rejectAll(err: Error): void {
    for (const [id, waiter] of this.waiting) {
      this.waiting.delete(id)
      waiter.reject(err)
    }
  }
}

/** An error as it crosses the thread boundary: its name, message, stack and code are kept. */
export function toThreadError(err: unknown): ThreadError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) }
  const code = (err as { code?: unknown }).code
  return { name: err.name, message: err.message, stack: err.stack, ...(typeof code === 'string' ? { code } : {}) }
}

function revive(e: ThreadError): Error {
  const err = Object.assign(new Error(e.message), e.code ? { code: e.code } : {})
  err.name = e.name
  if (e.stack) err.stack = e.stack
  return err
}
