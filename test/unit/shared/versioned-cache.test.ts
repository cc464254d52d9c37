import { describe, expect, it } from 'vitest'
import { createLogger } from '../../../src/shared/logger.js'
import { KeyedCache, VersionedCache } from '../../../src/shared/versioned-cache.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A source whose version check reads the version at once and answers a few ms later, like a GET in flight. */
function source() {
  const state = { version: 1, entries: new Map<string, string>(), checks: 0 }
  return {
    state,
    version: async () => {
      state.checks++
      const v = String(state.version)
      await sleep(5)
      return v
    },
    load: async () => ({ version: String(state.version), entries: new Map(state.entries) }),
  }
}

describe('VersionedCache', () => {
  it('finds an entry created while a version check was in flight (the check had read the old version)', async () => {
    const src = source()
    const cache = new VersionedCache(src, 60_000, createLogger('silent'))
    await cache.start()
    const unknown = cache.get('nobody') // starts a check that reads version 1
    await sleep(1)
    src.state.entries.set('new-key', 'principal')
    src.state.version = 2
    expect(await cache.get('new-key')).toBe('principal')
    expect(await unknown).toBeUndefined()
    cache.stop()
  })

  it('answers a flood of unknown keys with a bounded number of version checks', async () => {
    const src = source()
    const cache = new VersionedCache(src, 60_000, createLogger('silent'))
    await cache.start()
    const started = performance.now()
    await Promise.all(Array.from({ length: 2000 }, (_, i) => cache.get(`unknown-${i}`)))
    const elapsed = performance.now() - started
    // At most one check per 20 ms interval (plus the one in flight), however many misses.
    expect(src.state.checks).toBeLessThanOrEqual(Math.ceil(elapsed / 20) + 2)
    cache.stop()
  })
})

describe('KeyedCache', () => {
  /** Records by key with a version each; counts the round trips. */
  function records() {
    const state = {
      values: new Map<string, string | undefined>(),
      versions: new Map<string, number>(),
      loads: 0,
      checks: 0,
    }
    return {
      state,
      load: async (key: string) => {
        state.loads++
        await sleep(2)
        return state.values.get(key)
      },
      version: async (key: string) => {
        state.checks++
        return state.versions.get(key)
      },
    }
  }

  it('reads a record once while it is fresh, and once for concurrent first reads', async () => {
    const src = records()
    src.state.values.set('a', 'A1')
    src.state.versions.set('a', 1)
    const cache = new KeyedCache(src, { refreshMs: 60_000 })
    expect(await Promise.all([cache.get('a'), cache.get('a'), cache.get('a')])).toEqual(['A1', 'A1', 'A1'])
    expect(await cache.get('a')).toBe('A1')
    expect(src.state.loads).toBe(1)
  })

  it('after refreshMs, checks the version and reads the record again only when it changed', async () => {
    const src = records()
    src.state.values.set('a', 'A1')
    src.state.versions.set('a', 1)
    const cache = new KeyedCache(src, { refreshMs: 20 })
    await cache.get('a')
    src.state.values.set('a', 'A2 (same version: not read)')
    await sleep(25)
    expect(await cache.get('a')).toBe('A1')
    expect(src.state.loads).toBe(1)
    src.state.versions.set('a', 2)
    src.state.values.set('a', 'A2')
    expect(await cache.get('a')).toBe('A1') // still fresh: the last check was just now
    await sleep(25)
    expect(await cache.get('a')).toBe('A2')
    expect(src.state.loads).toBe(2)
  })

  it('reads a record without a version (or with none stored) again after each refreshMs', async () => {
    const src = records()
    src.state.values.set('a', 'A1')
    const unversioned = new KeyedCache({ load: src.load }, { refreshMs: 20 })
    const missingVersion = new KeyedCache(src, { refreshMs: 20 })
    await Promise.all([unversioned.get('a'), missingVersion.get('a')])
    src.state.values.set('a', 'A2')
    await sleep(25)
    expect(await unversioned.get('a')).toBe('A2')
    expect(await missingVersion.get('a')).toBe('A2')
    expect(src.state.loads).toBe(4)
  })

  it('keeps an absent record as absent, and does not keep a failed read', async () => {
    const src = records()
    const cache = new KeyedCache(src, { refreshMs: 60_000 })
    expect(await cache.get('gone')).toBeUndefined()
    expect(await cache.get('gone')).toBeUndefined()
    expect(src.state.loads).toBe(1)
    let fail = true
    const flaky = new KeyedCache(
      {
        load: async (key: string) => {
          if (fail) throw new Error('redis away')
          return key.toUpperCase()
        },
      },
      { refreshMs: 60_000 },
    )
    await expect(flaky.get('b')).rejects.toThrow('redis away')
    expect(flaky.peek('b')).toBeUndefined()
    fail = false
    expect(await flaky.get('b')).toBe('B')
    expect(flaky.peek('b')).toBe('B')
  })

  it('keeps at most maxEntries records, dropping the one read longest ago', async () => {
    const src = records()
    for (const k of ['a', 'b', 'c']) src.state.values.set(k, k)
    const cache = new KeyedCache(src, { refreshMs: 60_000, maxEntries: 2 })
    for (const k of ['a', 'b', 'c']) await cache.get(k)
    expect([cache.peek('a'), cache.peek('b'), cache.peek('c')]).toEqual([undefined, 'b', 'c'])
  })
})
