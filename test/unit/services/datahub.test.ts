// The event-type detail's reading of property names: what ClickHouse sends of each record is its members as
// `{"name":c` / `,"name":c` (c the first character of the value), cut at 16 KiB; the service reads the complete ones,
// whatever the cut or the names hold. The SQL that makes them runs on both engines in the catalogue e2e suite.
import { describe, expect, it } from 'vitest'
import { describeProperties, membersOf } from '../../../src/services/datahub.js'

/** The members of a record as the sample query sends them (its extractAll over JSON.stringify's text). */
const membersAsSent = (properties: Record<string, unknown>) =>
  Object.entries(properties)
    .map(([name, value], i) => `${i === 0 ? '{' : ','}${JSON.stringify(name)}:${JSON.stringify(value)[0]}`)
    .join('')

describe('the members of a record as read', () => {
  it('gives each name as sent, with the type of its value', () => {
    const properties = { plan: 'pro', seats: 3, neg: -1, trial: false, on: true, gone: null, 'a"b\\c é😀\n': 'x' }
    expect(membersOf(membersAsSent(properties))).toEqual([
      { name: 'plan', type: 'string' },
      { name: 'seats', type: 'number' },
      { name: 'neg', type: 'number' },
      { name: 'trial', type: 'boolean' },
      { name: 'on', type: 'boolean' },
      { name: 'gone', type: 'null' },
      { name: 'a"b\\c é😀\n', type: 'string' },
    ])
  })

  it('reads only the complete members of a cut text, wherever the cut falls', () => {
    const text = membersAsSent({ first: 1, 'se\\"cond': 'x', third: true })
    const complete = [
      { name: 'first', type: 'number' },
      { name: 'se\\"cond', type: 'string' },
      { name: 'third', type: 'boolean' },
    ]
    for (let cut = 0; cut <= text.length; cut++) {
      const read = membersOf(text.slice(0, cut))
      expect(complete.slice(0, read.length)).toEqual(read)
      if (cut === text.length) expect(read).toEqual(complete)
    }
  })

  it('reads nothing from text that is not members', () => {
    expect(membersOf('')).toEqual([])
    expect(membersOf('{}')).toEqual([])
    expect(membersOf('[1,2]')).toEqual([])
    expect(membersOf('{"a\\x":1')).toEqual([])
  })
})

describe('the properties of a sample', () => {
  it('counts each record once per name, by type, over the whole sample (cut ones included)', () => {
    const sample = [
      { members: membersAsSent({ plan: 'pro', seats: 1 }), cut: false },
      { members: membersAsSent({ plan: null }), cut: false },
      { members: `${membersAsSent({ plan: 'x' })},"seats":`, cut: true },
      { members: '', cut: false },
    ]
    expect(describeProperties(sample)).toEqual({
      properties: [
        { name: 'plan', types: { string: 2, null: 1 }, fillRate: 3 / 4 },
        { name: 'seats', types: { number: 1 }, fillRate: 1 / 4 },
      ],
      truncated: false,
    })
  })
})
