// Slots of a scarce resource held at once in a process (live tail streams, expensive reads of ClickHouse): at most
// `total` in all, `perAccount` for one account and `perKey` for one API key, so that one account, or one key of it,
// cannot hold what every other account needs. A slot is taken for the time the work holds the resource and given back
// by its release (which may be called more than once). A caller may wait a few seconds for a slot (acquire): the
// waiters are served in order, at most WAITERS_PER_SLOT per slot of an account, so an account that asks for more
// than it holds waits for its own slots and never takes another account's turn.

export interface SlotLimits {
  readonly total: number
  readonly perAccount: number
  /** Default: perAccount. */
  readonly perKey?: number
}

/** Which limit refused a slot, and its value. */
export interface SlotRefusal {
  readonly limit: 'total' | 'account' | 'key'
  readonly max: number
}

export type SlotTaken = { readonly release: () => void } | { readonly refused: SlotRefusal }

/** Waiters an account may have per slot it is allowed; beyond them a request is refused at once. */
const WAITERS_PER_SLOT = 4

interface Waiter {
  readonly accountId: string
  readonly keyId: string
  /** Hands the waiter a slot, or (none) sends it away with the limit that refused it; once. */
  readonly settle: (taken?: SlotTaken) => void
}

export class Slots {
  private held = 0
  private readonly byAccount = new Map<string, number>()
  private readonly byKey = new Map<string, number>()
  private readonly waiters: Waiter[] = []

  constructor(readonly limits: SlotLimits) {}

  /**
   * A slot for this account's key as soon as one is free within `waitMs`, or the limit that refused it (at once when
   * the account already has its waiters). `signal`: the caller is gone (its client left); it stops waiting at once and
   * gives its place in the queue to the next.
   */
  acquire(accountId: string, keyId: string, waitMs: number, signal?: AbortSignal): Promise<SlotTaken> {
    const now = this.take(accountId, keyId)
    if (!('refused' in now) || waitMs <= 0 || signal?.aborted) return Promise.resolve(now)
    const queued = this.waiters.filter((w) => w.accountId === accountId).length
    if (queued >= this.limits.perAccount * WAITERS_PER_SLOT) return Promise.resolve(now)
    return new Promise((resolve) => {
      const leave = () => waiter.settle()
      const waiter: Waiter = {
        accountId,
        keyId,
        settle: (taken) => {
          clearTimeout(timer)
          signal?.removeEventListener('abort', leave)
          const i = this.waiters.indexOf(waiter)
          if (i >= 0) this.waiters.splice(i, 1)
          resolve(taken ?? now)
        },
      }
      const timer = setTimeout(leave, waitMs)
      signal?.addEventListener('abort', leave, { once: true })
      this.waiters.push(waiter)
    })
  }

  /** A slot for this account's key, or the limit that refuses it. */
  take(accountId: string, keyId: string): SlotTaken {
    const perKey = this.limits.perKey ?? this.limits.perAccount
    if (this.held >= this.limits.total) return { refused: { limit: 'total', max: this.limits.total } }
    if ((this.byAccount.get(accountId) ?? 0) >= this.limits.perAccount)
      return { refused: { limit: 'account', max: this.limits.perAccount } }
    if ((this.byKey.get(keyId) ?? 0) >= perKey) return { refused: { limit: 'key', max: perKey } }
    this.held++
    add(this.byAccount, accountId, 1)
    add(this.byKey, keyId, 1)
    let released = false
    return {
      release: () => {
        if (released) return
        released = true
        this.held--
        add(this.byAccount, accountId, -1)
        add(this.byKey, keyId, -1)
        this.wake()
      },
    }
  }

  /** The first waiters, in order, that a slot can be given to now. */
  private wake(): void {
    for (let i = 0; i < this.waiters.length && this.held < this.limits.total;) {
      const waiter = this.waiters[i]!
      const taken = this.take(waiter.accountId, waiter.keyId)
      if ('refused' in taken) {
        i++
        continue
      }
      waiter.settle(taken)
    }
  }

  /** Slots held now, in all. */
  get inUse(): number {
    return this.held
  }
}

function add(counts: Map<string, number>, id: string, n: number): void {
  const next = (counts.get(id) ?? 0) + n
  if (next > 0) counts.set(id, next)
  else counts.delete(id)
}
