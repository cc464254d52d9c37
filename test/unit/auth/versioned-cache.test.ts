import { describe, expect, it } from 'vitest'
import { createLogger } from '../../../src/shared/logger.js'
import { VersionedCache } from '../../../src/auth/versioned-cache.js'

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
