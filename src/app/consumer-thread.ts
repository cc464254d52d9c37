// A process that serves HTTP and also consumes (`sluice serve` with every role, the quick start) runs
// its consumers in a worker thread of their own (SLUICE_CONSUMER_THREAD, on by default): the routes
// answer on one core while the consumers decode, render and write on another, instead of taking
// turns on one event loop. The thread has its own container (its own clients) and metrics registry;
// the process's /readyz and /metrics ask it through messages, and a consumer that cannot go on there
// stops the process as it would in the main thread.
import { Worker } from 'node:worker_threads'
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue } from 'prom-client'
import type { Config } from '../config/index.js'
import type { Logger } from '../shared/logger.js'
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
  readonly message: string
  readonly stack?: string
}

const ASK_TIMEOUT_MS = 3000

export class ConsumerThread {
  private nextId = 0
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  private stopping = false

  private constructor(
    private readonly worker: Worker,
    private readonly log: Logger,
  ) {}

  /**
   * Starts the roles' consumers in a new thread and resolves once they have joined their groups;
   * rejects with the thread's error if they cannot start. After that, onFatal is called if a
   * consumer there stops for good or the thread dies.
   */
  static start(config: Config, roles: readonly Role[], log: Logger, onFatal: (err: unknown) => void): Promise<ConsumerThread> {
    const data: ThreadData = { config, roles }
    const worker = new Worker(new URL('./consumer-thread.worker.js', import.meta.url), { workerData: data, name: 'sluice-consumers' })
    const thread = new ConsumerThread(worker, log)
    return new Promise((resolve, reject) => {
      let started = false
      const fail = (err: Error) => {
        thread.rejectAll(err)
        if (!started) {
          reject(err)
          void worker.terminate()
        } else if (!thread.stopping) onFatal(err)
      }
      worker.on('message', (m: Notice | Reply) => {
        if ('id' in m) return thread.answer(m)
        if (m.kind === 'started') {
          started = true
          resolve(thread)
        } else fail(revive(m.error))
      })
      worker.on('error', (err) => fail(err))
      worker.on('exit', (code) => fail(new Error(`the consumer thread exited (code ${code})`)))
    })
  }

  /** The thread's readiness checks: its services and consumers. */
  async checks(): Promise<Record<string, string>> {
    try {
      return (await this.ask('checks')) as Record<string, string>
    } catch (err) {
      return { 'consumer-thread': err instanceof Error ? err.message : String(err) }
    }
  }

  /** The process's metrics: this thread's registry and the consumer thread's, summed. */
  async scrape(metrics: Metrics): Promise<string> {
    const own = await metrics.registry.getMetricsAsJSON()
    const theirs = (await this.ask('metrics').catch((err: unknown) => {
      this.log.warn({ err }, 'the consumer thread did not give its metrics')
      return []
    })) as MetricObjectWithValues<MetricValue<string>>[]
    return AggregatorRegistry.aggregate([own, theirs]).metrics()
  }

  /** Its consumers finish their batches and commit, its clients close; then the thread ends. */
  async stop(): Promise<void> {
    this.stopping = true
    try {
      await this.ask('stop', 0)
    } finally {
      await this.worker.terminate()
    }
  }

  private ask(kind: Request['kind'], timeoutMs = ASK_TIMEOUT_MS): Promise<unknown> {
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      const timer = timeoutMs > 0 ? setTimeout(() => this.settle(id, { id, error: `the consumer thread gave no ${kind} within ${timeoutMs} ms` }), timeoutMs) : undefined
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

  private answer(reply: Reply): void {
    this.settle(reply.id, reply)
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

export function toThreadError(err: unknown): ThreadError {
  return err instanceof Error ? { message: err.message, stack: err.stack } : { message: String(err) }
}

function revive(e: ThreadError): Error {
  const err = new Error(e.message)
  if (e.stack) err.stack = e.stack
  return err
}
