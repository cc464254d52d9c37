import { expect, it, vi } from 'vitest'
import { Slots } from '../../../src/shared/slots.js'

it('gives a waiting request the slot freed within its wait, in order, and never another account’s', async () => {
  vi.useFakeTimers()
  try {
    const slots = new Slots({ total: 2, perAccount: 1 })
    const a = slots.take('a', 'ka')
    const b = slots.take('b', 'kb')
    expect('release' in a && 'release' in b).toBe(true)
    const order: string[] = []
    const a2 = slots.acquire('a', 'ka', 5_000).then((t) => (order.push('a2'), t))
    void slots.acquire('c', 'kc', 5_000).then((t) => (order.push('c'), t))
    // b's slot freed: a2 still waits for its account's slot, c (another account) takes it.
    if ('release' in b) b.release()
    await vi.advanceTimersByTimeAsync(0)
    expect(order).toEqual(['c'])
    if ('release' in a) a.release()
    await vi.advanceTimersByTimeAsync(0)
    expect(order).toEqual(['c', 'a2'])
    expect('release' in (await a2)).toBe(true)
    expect(slots.inUse).toBe(2)
  } finally {
    vi.useRealTimers()
  }
})

it('refuses a waiter after its wait, and at once beyond four waiters per slot of the account', async () => {
  vi.useFakeTimers()
  try {
    const slots = new Slots({ total: 8, perAccount: 1 })
    expect('release' in slots.take('a', 'k')).toBe(true)
    const waiting = Array.from({ length: 4 }, () => slots.acquire('a', 'k', 5_000))
    const fifth = await slots.acquire('a', 'k', 5_000)
    expect(fifth).toEqual({ refused: { limit: 'account', max: 1 } })
    // Another account is not affected by a's waiters.
    expect('release' in (await slots.acquire('b', 'kb', 5_000))).toBe(true)
    await vi.advanceTimersByTimeAsync(5_000)
    expect(await Promise.all(waiting)).toEqual(Array(4).fill({ refused: { limit: 'account', max: 1 } }))
    expect(slots.inUse).toBe(2)
  } finally {
    vi.useRealTimers()
  }
})

it('lets a waiter whose caller is gone leave at once, giving its place to the next, and never runs it', async () => {
  vi.useFakeTimers()
  try {
    const slots = new Slots({ total: 4, perAccount: 1 })
    const held = slots.take('a', 'k')
    const left = new AbortController()
    const first = slots.acquire('a', 'k', 5_000, left.signal)
    const second = slots.acquire('a', 'k', 5_000)
    left.abort()
    // Refused at once, not after its wait.
    expect(await first).toEqual({ refused: { limit: 'account', max: 1 } })
    if ('release' in held) held.release()
    await vi.advanceTimersByTimeAsync(0)
    // The slot went to the next waiter, and the one that left holds nothing.
    expect('release' in (await second)).toBe(true)
    expect(slots.inUse).toBe(1)
    // A caller already gone does not wait at all.
    const gone = AbortSignal.abort()
    expect(await slots.acquire('a', 'k', 5_000, gone)).toEqual({ refused: { limit: 'account', max: 1 } })
  } finally {
    vi.useRealTimers()
  }
})
