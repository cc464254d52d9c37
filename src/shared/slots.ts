// Slots of a scarce resource held at once in a process (live tail streams, expensive reads of ClickHouse): at most
// `total` in all, `perAccount` for one account and `perKey` for one API key, so that one account, or one key of it,
// cannot hold what every other account needs. A slot is taken for the time the work holds the resource and given back
// by its release (which may be called more than once).

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

export class Slots {
  private held = 0
  private readonly byAccount = new Map<string, number>()
  private readonly byKey = new Map<string, number>()

  constructor(readonly limits: SlotLimits) {}

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
      },
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
