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
