import { describe, expect, it } from 'vitest'
import {
  AppError,
  clickhouseCode,
  fromClickHouse,
  fromRedis,
  isDependencyUnavailable,
  isRedisOutage,
} from '../../../src/shared/errors.js'

const replyError = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' })

describe('ClickHouse errors', () => {
  it('reads the exception code from current servers and from 18.16 text', () => {
    expect(clickhouseCode(Object.assign(new Error('x'), { code: '25' }))).toBe(25)
    expect(clickhouseCode(new Error('Code: 25, e.displayText() = DB::Exception: Cannot parse escape sequence'))).toBe(
      25,
    )
    expect(clickhouseCode(new Error('Code: 252. DB::Exception: Too many parts'))).toBe(252)
    expect(clickhouseCode(new Error('socket hang up'))).toBeUndefined()
  })

  it('treats refusals of the rows of an insert as deterministic data errors', () => {
    const refused = fromClickHouse(
      new Error(
        'Code: 25, e.displayText() = DB::Exception: Cannot parse escape sequence: missing second part of surrogate pair, e.what() = DB::Exception',
      ),
      'an insert',
      true,
    )
    expect(refused).toMatchObject({
      code: 'SINK_REFUSED_DATA',
      retriable: false,
      message:
        'Code: 25, e.displayText() = DB::Exception: Cannot parse escape sequence: missing second part of surrogate pair',
    })
    expect(
      fromClickHouse(new Error('Code: 395. DB::Exception: Value passed to throwIf'), 'an insert', true),
    ).toMatchObject({ code: 'SINK_REFUSED_DATA', retriable: false })
    // A row cut short is the data's fault; a connection cut under a cluster insert is not, whatever the code.
    expect(
      fromClickHouse(new Error('Code: 32. DB::Exception: Attempt to read after eof: (at row 3)'), 'an insert', true),
    ).toMatchObject({ code: 'SINK_REFUSED_DATA' })
    expect(
      fromClickHouse(
        new Error(
          'Code: 32, e.displayText() = DB::Exception: Attempt to read after eof: while receiving packet from 127.0.0.1:9204, e.what() = DB::Exception',
        ),
        'an insert',
        true,
      ),
    ).toMatchObject({ code: 'SINK_UNAVAILABLE', retriable: true })
  })

  it('waits out a named set of passing states and the network, and nothing else', () => {
    for (const text of [
      'Code: 252. DB::Exception: Too many parts',
      'Code: 241. Memory limit exceeded',
      'Code: 60. Table does not exist',
      'Code: 81, e.displayText() = DB::Exception: Database test doesn’t exist',
      'Code: 286, e.displayText() = DB::Exception: Quorum for previous write has not been satisfied yet',
      'Code: 319, e.displayText() = DB::Exception: Unknown status, client must retry',
      'Code: 210, e.displayText() = DB::NetException: Connection reset by peer, while reading from socket (127.0.0.1:9204)',
      'connect ECONNREFUSED 127.0.0.1:8123',
      'Timeout error.',
      'socket hang up',
    ]) {
      expect(fromClickHouse(new Error(text), 'an insert', true), text).toMatchObject({
        code: 'SINK_UNAVAILABLE',
        retriable: true,
      })
      expect(fromClickHouse(new Error(text), 'a query'), text).toMatchObject({
        code: 'SINK_UNAVAILABLE',
        retriable: true,
      })
    }
  })

  it('calls any other refusal a refusal of the statement, naming its purpose and code, never retriable', () => {
    const alias = Object.assign(
      new Error('JOIN ANY LEFT JOIN ... USING (key) no alias for subquery or table function'),
      { code: '206', type: 'ALIAS_REQUIRED' },
    )
    const refused = fromClickHouse(alias, 'the experiment results query')
    expect(refused).toMatchObject({ code: 'SINK_REFUSED_QUERY', retriable: false })
    expect(refused.message).toMatch(/^clickhouse refused the experiment results query \(code 206\): JOIN ANY LEFT JOIN/)
    expect(isDependencyUnavailable(refused)).toBe(false)
    for (const text of [
      'Code: 62. DB::Exception: Syntax error',
      'Code: 497. DB::Exception: default: Not enough privileges',
      'Code: 47, e.displayText() = DB::Exception: Unknown identifier: x',
    ]) {
      expect(fromClickHouse(new Error(text), 'an insert', true), text).toMatchObject({
        code: 'SINK_REFUSED_QUERY',
        retriable: false,
      })
    }
    // Data codes in a statement that carries no rows are Sluice's own literals.
    expect(fromClickHouse(new Error('Code: 6. DB::Exception: Cannot parse text'), 'a query')).toMatchObject({
      code: 'SINK_REFUSED_QUERY',
    })
  })
})

describe('Redis errors', () => {
  it('tells an outage or passing state from a refused command', () => {
    expect(fromRedis(replyError('WRONGTYPE Operation against a key holding the wrong kind of value'))).toMatchObject({
      code: 'SINK_REFUSED_DATA',
      retriable: false,
    })
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
