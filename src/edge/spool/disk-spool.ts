// The edge's write-ahead spool: Kafka messages kept on local disk, in order, while Kafka is slow or
// down. Storage is LevelDB (classic-level): an ordered key-value log whose writes with `sync: true`
// are fsync'd (and grouped when concurrent), whose deletes are compacted away, and whose LOCK file
// (an OS lock, released when the process dies, even by kill -9) makes a spool directory belong to one
// process at a time. Keys are 8-byte big-endian sequence numbers, so iteration order is append order.
import { mkdirSync } from 'node:fs'
import { mkdir, open } from 'node:fs/promises'
import { join } from 'node:path'
import { deserialize, serialize } from 'node:v8'
import { ClassicLevel } from 'classic-level'
import type { OutboundMessage } from '../../broker/ports.js'
import { AppError } from '../../shared/errors.js'

export interface SpoolEntry {
  readonly seq: bigint
  readonly topic: string
  readonly messages: readonly OutboundMessage[]
  readonly bytes: number
  readonly spooledAtMs: number
}

interface StoredEntry {
  readonly topic: string
  readonly spooledAtMs: number
  readonly messages: readonly { key: string; value: Uint8Array; headers: Record<string, string>; ordered?: boolean }[]
}

export interface SpoolStats {
  readonly bytes: number
  readonly entries: number
  readonly messages: number
  readonly oldestMs: number | undefined
}

/**
 * Appends fail with a retriable AppError: SPOOL_FULL (no room under maxBytes) or SPOOL_FAILED (the
 * disk refused the write); the edge answers both with 503 and Retry-After.
 */
export class DiskSpool {
  /** What each entry holds, in append order (values stay on disk). */
  private readonly index = new Map<bigint, { bytes: number; messages: number; spooledAtMs: number }>()
  private nextSeq = 1n
  private bytes = 0
  private messages = 0
  /** Bytes promised to appends in progress, so concurrent appends cannot overshoot the limit together. */
  private reserved = 0

  private constructor(
    private readonly db: ClassicLevel<Buffer, Buffer>,
    readonly dir: string,
    readonly maxBytes: number,
  ) {}

  /** Opens (or creates) the spool in dir; fails if another process holds it. */
  static async open(dir: string, maxBytes: number): Promise<DiskSpool> {
    mkdirSync(dir, { recursive: true })
    const db = new ClassicLevel<Buffer, Buffer>(dir, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
    try {
      await db.open()
    } catch (err) {
      const cause = (err as { cause?: Error }).cause
      const held = /lock/i.test(`${cause?.message ?? ''} ${(err as Error).message}`)
      throw new Error(
        held
          ? `spool directory ${dir} is in use by another process (each edge process needs its own SLUICE_SPOOL_DIR)`
          : `cannot open spool directory ${dir}: ${cause?.message ?? (err as Error).message}`,
        { cause: err },
      )
    }
    const spool = new DiskSpool(db, dir, maxBytes)
    for await (const [key, value] of db.iterator()) {
      const seq = key.readBigUInt64BE(0)
      const entry = deserialize(value) as StoredEntry
      spool.index.set(seq, { bytes: value.length, messages: entry.messages.length, spooledAtMs: entry.spooledAtMs })
      spool.bytes += value.length
      spool.messages += entry.messages.length
      spool.nextSeq = seq + 1n
    }
    return spool
  }

  stats(): SpoolStats {
    const first = this.index.values().next()
    return {
      bytes: this.bytes,
      entries: this.index.size,
      messages: this.messages,
      oldestMs: first.done ? undefined : first.value.spooledAtMs,
    }
  }

  /** Whether an entry of this many bytes would fit now. */
  hasRoomFor(bytes: number): boolean {
    return this.bytes + this.reserved + bytes <= this.maxBytes
  }

  /** Appends the messages as one entry, durable (fsync'd) when this resolves. */
  async append(topic: string, messages: readonly OutboundMessage[]): Promise<bigint> {
    const stored: StoredEntry = {
      topic,
      spooledAtMs: Date.now(),
      messages: messages.map((m) => ({
        key: m.key,
        value: m.value,
        headers: { ...m.headers },
        ...(m.ordered ? { ordered: true } : {}),
      })),
    }
    const value = serialize(stored)
    if (!this.hasRoomFor(value.length)) {
      throw new AppError(
        'SPOOL_FULL',
        `the spool holds ${this.bytes} of ${this.maxBytes} bytes; no room for ${value.length} more`,
        true,
      )
    }
    const seq = this.nextSeq++
    this.reserved += value.length
    try {
      await this.db.put(keyOf(seq), value, { sync: true })
    } catch (err) {
      throw new AppError('SPOOL_FAILED', `the spool could not write to ${this.dir}: ${(err as Error).message}`, true, {
        cause: err,
      })
    } finally {
      this.reserved -= value.length
    }
    this.index.set(seq, { bytes: value.length, messages: messages.length, spooledAtMs: stored.spooledAtMs })
    this.bytes += value.length
    this.messages += messages.length
    return seq
  }

  /** Up to maxBytes of the oldest entries (at least one), skipping those in `skip`, in order. */
  async oldest(maxBytes: number, skip: ReadonlySet<bigint> = new Set()): Promise<SpoolEntry[]> {
    const seqs: bigint[] = []
    let bytes = 0
    for (const [seq, meta] of this.index) {
      if (skip.has(seq)) continue
      if (seqs.length > 0 && bytes + meta.bytes > maxBytes) break
      seqs.push(seq)
      bytes += meta.bytes
    }
    if (seqs.length === 0) return []
    const values = await this.db.getMany(seqs.map(keyOf))
    const entries: SpoolEntry[] = []
    values.forEach((value, i) => {
      if (value === undefined) return
      const stored = deserialize(value) as StoredEntry
      entries.push({
        seq: seqs[i]!,
        topic: stored.topic,
        spooledAtMs: stored.spooledAtMs,
        bytes: value.length,
        messages: stored.messages.map((m) => ({
          key: m.key,
          value: Buffer.from(m.value.buffer, m.value.byteOffset, m.value.byteLength),
          headers: m.headers,
          ...(m.ordered ? { ordered: true } : {}),
        })),
      })
    })
    return entries
  }

  /**
   * Moves an entry Kafka refuses as data (its records, not an outage) out of the spool into
   * `<dir>.refused/<seq>.v8` (v8-serialized, as stored), so it cannot block the entries behind it.
   * Returns the file's path.
   */
  async setAside(seq: bigint): Promise<string> {
    const value = await this.db.get(keyOf(seq))
    const dir = `${this.dir}.refused`
    const file = join(dir, `${seq}.v8`)
    if (value !== undefined) {
      await mkdir(dir, { recursive: true })
      const handle = await open(file, 'w')
      try {
        await handle.writeFile(value)
        await handle.sync()
      } finally {
        await handle.close()
      }
    }
    await this.remove([seq])
    return file
  }

  /** Deletes entries (after Kafka acknowledged them). */
  async remove(seqs: readonly bigint[]): Promise<void> {
    const present = seqs.filter((s) => this.index.has(s))
    if (present.length === 0) return
    await this.db.batch(
      present.map((seq) => ({ type: 'del' as const, key: keyOf(seq) })),
      { sync: true },
    )
    for (const seq of present) {
      const meta = this.index.get(seq)
      if (!meta) continue
      this.index.delete(seq)
      this.bytes -= meta.bytes
      this.messages -= meta.messages
    }
  }

  async close(): Promise<void> {
    await this.db.close()
  }
}

function keyOf(seq: bigint): Buffer {
  const key = Buffer.alloc(8)
  key.writeBigUInt64BE(seq)
  return key
}
