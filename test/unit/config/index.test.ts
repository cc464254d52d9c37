import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../../src/config/index.js'

describe('loadConfig', () => {
  it('has working defaults and is frozen', () => {
    const config = loadConfig({})
    expect(config.http).toEqual({
      host: '127.0.0.1',
      port: 8080,
      requestTimeoutMs: 60_000,
      idleTimeoutMs: 120_000,
      checkAnswers: false,
    })
    expect(config.kafka.brokers).toEqual(['127.0.0.1:9092'])
    expect(config.kafka.partitions).toBeGreaterThanOrEqual(3)
    expect(config.events.maxBodyBytes).toBeGreaterThanOrEqual(8 * 1024 * 1024)
    expect(config.events.maxRecords).toBeGreaterThanOrEqual(10_000)
    expect(config.clickhouse.database).toBe('sluice')
    expect(Object.isFrozen(config.kafka)).toBe(true)
  })

  it('coerces numbers and lists', () => {
    const config = loadConfig({ SLUICE_PORT: '9999', KAFKA_BROKERS: 'a:1,b:2', KAFKA_PARTITIONS: '12' })
    expect(config.http.port).toBe(9999)
    expect(config.kafka.brokers).toEqual(['a:1', 'b:2'])
    expect(config.kafka.partitions).toBe(12)
  })

  it.each([
    [{ SLUICE_PORT: 'eighty' }, /SLUICE_PORT="eighty" must be integer/],
    [{ KAFKA_BROKERS: 'localhost' }, /KAFKA_BROKERS="localhost" must match/],
    [{ SLUICE_EVENTS_MAX_BODY_BYTES: '1000' }, /SLUICE_EVENTS_MAX_BODY_BYTES=.* must be >= 8388608/],
    [{ CLICKHOUSE_DATABASE: 'x; DROP' }, /CLICKHOUSE_DATABASE/],
    [{ SLUICE_LOG_LEVEL: 'loud' }, /SLUICE_LOG_LEVEL/],
    [
      { SLUICE_OUTBOUND_ALLOW_INSECURE: 'true' },
      /SLUICE_OUTBOUND_ALLOW_INSECURE is now called SLUICE_JWKS_ALLOW_INSECURE/,
    ],
  ])('stops on %j with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(message)
  })

  it('reads the JWKS fetch settings into the outbound policy of that fetch', () => {
    const { jwks } = loadConfig({ SLUICE_JWKS_ALLOW_INSECURE: 'true', SLUICE_JWKS_TIMEOUT_MS: '700' }).scim
    expect(jwks).toEqual({ allowInsecure: true, timeoutMs: 700, maxBytes: 65_536, cooldownMs: 30_000 })
  })
})
