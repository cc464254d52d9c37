import { describe, expect, it } from 'vitest'
import { AppError, clickhouseCode, fromClickHouse, fromRedis, isDependencyUnavailable, isRedisOutage } from '../../../src/shared/errors.js'

const replyError = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' })

describe('ClickHouse errors', () => {
  it('reads the exception code from current servers and from 18.16 text', () => {
    expect(clickhouseCode(Object.assign(new Error('x'), { code: '25' }))).toBe(25)
    expect(clickhouseCode(new Error('Code: 25, e.displayText() = DB::Exception: Cannot parse escape sequence'))).toBe(25)
    expect(clickhouseCode(new Error('Code: 252. DB::Exception: Too many parts'))).toBe(252)
    expect(clickhouseCode(new Error('socket hang up'))).toBeUndefined()
  })

  it('treats refusals of the data as deterministic and everything else as an outage', () => {
    const refused = fromClickHouse(new Error('Code: 25, e.displayText() = DB::Exception: Cannot parse escape sequence: missing second part of surrogate pair, e.what() = DB::Exception'))
    expect(refused).toMatchObject({
      code: 'SINK_REFUSED_DATA',
      retriable: false,
      message: 'Code: 25, e.displayText() = DB::Exception: Cannot parse escape sequence: missing second part of surrogate pair',
    })
    expect(fromClickHouse(new Error('Code: 395. DB::Exception: Value passed to throwIf'))).toMatchObject({ retriable: false })
    for (const text of ['Code: 252. DB::Exception: Too many parts', 'Code: 241. Memory limit exceeded', 'Code: 60. Table does not exist', 'connect ECONNREFUSED 127.0.0.1:8123', 'Timeout error.']) {
      expect(fromClickHouse(new Error(text)), text).toMatchObject({ code: 'SINK_UNAVAILABLE', retriable: true })
    }
  })
})

describe('Redis errors', () => {
  it('tells an outage or passing state from a refused command', () => {
    expect(fromRedis(replyError('WRONGTYPE Operation against a key holding the wrong kind of value'))).toMatchObject({ code: 'SINK_REFUSED_DATA', retriable: false })
    expect(fromRedis(replyError('ERR Error running script'))).toMatchObject({ retriable: false })
    for (const e of [
      replyError('OOM command not allowed'),
      replyError('LOADING Redis is loading'),
      replyError('BUSY script'),
      new Error('Command timed out'),
      new Error('Connection is closed.'),
      Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('x'), { name: 'MaxRetriesPerRequestError' }),
    ]) {
      expect(fromRedis(e), e.message).toMatchObject({ code: 'SINK_UNAVAILABLE', retriable: true })
      expect(isRedisOutage(e)).toBe(true)
    }
  })

  it('says which errors mean a dependency is away (503), and not for bugs', () => {
    expect(isDependencyUnavailable(new Error('Command timed out'))).toBe(true)
    expect(isDependencyUnavailable(new AppError('SINK_UNAVAILABLE', 'x', true))).toBe(true)
    expect(isDependencyUnavailable(new AppError('SINK_REFUSED_DATA', 'x', false))).toBe(false)
    expect(isDependencyUnavailable(new TypeError('x is undefined'))).toBe(false)
    expect(isDependencyUnavailable(replyError('WRONGTYPE x'))).toBe(false)
  })
})
