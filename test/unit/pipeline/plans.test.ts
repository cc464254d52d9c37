import { readFileSync } from 'node:fs'
import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'
import { TrackingPlanSchema } from '../../../src/pipeline/plan-schema.js'
import {
  checkPlan,
  compilePlan,
  PLAN_FORMATS,
  PLAN_LIMITS,
  proposePlan,
  type TrackingPlan,
} from '../../../src/pipeline/plans.js'

const plan: TrackingPlan = {
  mode: 'block',
  unplannedEvents: 'violation',
  unplannedProperties: 'violation',
  events: {
    checkout: {
      owner: 'payments',
      value: { required: true, minimum: 0 },
      properties: {
        plan: { type: 'string', enum: ['free', 'pro'], required: true },
        amount: { type: 'number', minimum: 0, maximum: 1000 },
        sku: { type: 'string', pattern: '^[A-Z]{3}-[0-9]+$' },
        email: { type: ['string', 'null'], format: 'email' },
        items: { type: 'integer' },
      },
    },
    visit: { properties: {}, unplannedProperties: 'allow' },
  },
}

describe('a compiled plan', () => {
  const compiled = compilePlan(plan, 3)

  it('passes an event that keeps the plan, and names every broken rule of one that does not', () => {
    expect(compiled.check('checkout', 10, { plan: 'pro', amount: 5, sku: 'ABC-12', email: null, items: 2 })).toBe(
      undefined,
    )
    const verdict = compiled.check('checkout', null, {
      amount: 5000,
      sku: 'abc',
      email: 'not an email',
      items: 1.5,
      planName: 'pro',
      ['__proto__']: 1,
    })!
    const found = verdict.violations.map((v) => `${v.rule} ${v.field}`).sort()
    expect(found).toEqual(
      [
        'required value',
        'required properties.plan',
        'out_of_range properties.amount',
        'pattern properties.sku',
        'format properties.email',
        'wrong_type properties.items',
        'unplanned_property properties.planName',
        'unplanned_property properties.__proto__',
      ].sort(),
    )
    expect(verdict.count).toBe(8)
    expect(verdict.unplanned.toSorted()).toEqual(['__proto__', 'planName'])
  })

  it('an enum, a wrong type, an unplanned event type; a type that allows unplanned properties', () => {
    expect(compiled.check('checkout', 1, { plan: 'gold' })!.violations).toEqual([
      { rule: 'not_in_enum', field: 'properties.plan', message: "properties.plan must be one of the plan's values" },
    ])
    expect(compiled.check('checkout', 1, { plan: 7 })!.violations.map((v) => v.rule)).toEqual([
      'wrong_type',
      'not_in_enum',
    ])
    expect(compiled.check('signup', null, {})!.violations).toEqual([
      { rule: 'unplanned_event', field: '', message: 'event type signup is not in the plan' },
    ])
    expect(compiled.check('visit', null, { anything: 1, constructor: 'x' })).toBe(undefined)
    // Names of Object.prototype are not the plan's.
    expect(compiled.check('toString', null, {})!.violations[0]!.rule).toBe('unplanned_event')
    expect(compilePlan({ ...plan, unplannedEvents: 'allow' }, 4).check('signup', null, {})).toBe(undefined)
  })

  it('counts every violation of an event and describes the first 8', () => {
    const properties = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`p${i}`, i]))
    const verdict = compiled.check('checkout', 1, { plan: 'free', ...properties })!
    expect(verdict.count).toBe(300)
    expect(verdict.violations).toHaveLength(8)
    expect(verdict.unplanned).toHaveLength(300)
  })

  it('runs a pattern in linear time, and not on a text longer than its budget allows', () => {
    const hostile = compilePlan(
      {
        ...plan,
        events: { e: { properties: { p: { type: 'string', pattern: '^(a+)+$' }, q: { pattern: '(x+x+)+y' } } } },
      },
      1,
    )
    const text = 'a'.repeat(5000) + '!'
    const started = performance.now()
    for (let i = 0; i < 20; i++) expect(hostile.check('e', null, { p: text, q: 'x'.repeat(5000) })!.count).toBe(2)
    expect(performance.now() - started).toBeLessThan(2000)
    const long = hostile.check('e', null, { p: 'a'.repeat(32_000) })!
    expect(long.violations[0]!.message).toMatch(/longer than the \d+ characters the pattern is run on/)
    expect(hostile.check('e', null, { p: 'aaa' })).toBe(undefined)
  })

  it('checks the formats on hostile text of an event property quickly', () => {
    const events = Object.fromEntries(PLAN_FORMATS.map((f) => [f, { properties: { p: { format: f } } }]))
    const formats = compilePlan({ ...plan, events }, 1)
    const texts = [
      'a'.repeat(32_768),
      '1.'.repeat(16_000),
      ':'.repeat(32_768),
      'a@'.repeat(16_000),
      '-a'.repeat(16_000),
    ]
    const started = performance.now()
    for (const f of PLAN_FORMATS) for (const p of texts) formats.check(f, null, { p })
    expect(performance.now() - started).toBeLessThan(1000)
    expect(formats.check('uuid', null, { p: '6f1c6b1e-6e1a-4a55-9a57-0a1f3f0b9d2c' })).toBe(undefined)
    expect(formats.check('date-time', null, { p: 'yesterday' })!.violations[0]!.rule).toBe('format')
  })
})

describe('what the review found', () => {
  it('runs each pattern as itself, with its own cap (ajv keeps one regex per its name)', () => {
    const two = compilePlan(
      { ...plan, events: { a: { properties: { x: { pattern: '^a+$' }, y: { pattern: '^[0-9]+$' } } } } },
      1,
    )
    expect(two.check('a', null, { x: 'aaa', y: '123' })).toBe(undefined)
    expect(two.check('a', null, { x: 'aaa', y: 'aaa' })!.violations.map((v) => v.field)).toEqual(['properties.y'])
    expect(two.check('a', null, { x: '123', y: '123' })!.violations.map((v) => v.field)).toEqual(['properties.x'])
  })

  it('describes at least one violation of every rule broken, past the first eight', () => {
    const properties = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`extra${i}`, i]))
    const verdict = compilePlan(plan, 1).check('checkout', 1, { ...properties, plan: 'gold' })!
    expect(verdict.rules).toEqual(['unplanned_property', 'not_in_enum'])
    expect(new Set(verdict.violations.map((v) => v.rule))).toEqual(new Set(verdict.rules))
  })

  it('bounds the enum values of an event type together', () => {
    const enums = Object.fromEntries(
      Array.from({ length: 3 }, (_, i) => [`p${i}`, { enum: Array.from({ length: 700 }, (_, j) => j) }]),
    )
    expect(checkPlan({ ...plan, events: { e: { properties: enums } } }).map((p) => p.problem)).toContain(
      "has enums of 2100 values together, past the 2000 an event type's may have",
    )
  })

  it('plans and strips a property named constructor as any other', () => {
    const c = compilePlan(
      { ...plan, events: { e: { properties: { ['constructor']: { type: 'string' as const } } } } },
      1,
    )
    expect(c.check('e', null, { ['constructor']: 'x' })).toBe(undefined)
    expect(c.check('e', null, { ['constructor']: 1 })!.rules).toEqual(['wrong_type'])
  })
})

describe('checking a plan as it is saved', () => {
  const problems = (p: TrackingPlan) => checkPlan(p).map((x) => `${x.field}: ${x.problem}`)

  it('names the place of each problem', () => {
    const bad: TrackingPlan = {
      ...plan,
      events: {
        'bad type!': {},
        e: {
          value: { minimum: 5, maximum: 1 },
          properties: {
            __proto__x: { type: 'string' },
            ['constructor']: { type: 'string' as const },
            a: { pattern: '(a)\\1' },
            b: { enum: [1, 'x'], type: 'number' },
            c: { minLength: 3, maxLength: 2 },
            // Eleven patterns of about a thousand instructions each: more than an event type's may take together.
            ...Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`w${i}`, { pattern: '\\w{1000}' }])),
            f: { enum: [] },
          },
        },
      },
    }
    const found = problems(bad)
    expect(found.some((p) => p.startsWith('events.bad type!: must be an event type id'))).toBe(true)
    expect(found.some((p) => p.startsWith('events.e.value.minimum: must be at most maximum (1)'))).toBe(true)
    // A property may be named constructor (events have such properties); __proto__ cannot be planned.
    expect(found.some((p) => p.startsWith('events.e.properties.constructor'))).toBe(false)
    const proto = JSON.parse(
      '{"mode":"observe","unplannedEvents":"allow","unplannedProperties":"allow","events":{"e":{"properties":{"__proto__":{}}}}}',
    ) as TrackingPlan
    expect(problems(proto)).toEqual([
      'events.e.properties.__proto__: must be a property name of 1 to 255 characters, not __proto__',
    ])
    expect(found.some((p) => p.startsWith('events.e.properties.__proto__x:'))).toBe(false)
    expect(found.some((p) => p.startsWith('events.e.properties.a.pattern: is not a regex RE2 accepts'))).toBe(true)
    expect(found.some((p) => p.startsWith("events.e.properties.b.enum.1: is not of the property's type"))).toBe(true)
    expect(found.some((p) => p.startsWith('events.e.properties.c.minLength: must be at most maxLength (2)'))).toBe(true)
    expect(found.some((p) => p.startsWith('events.e.properties: has patterns of'))).toBe(true)
    expect(found.some((p) => p.startsWith('events.e.properties.f.enum: must list 1 to 1000 values'))).toBe(true)
    expect(problems(plan)).toEqual([])
  })

  it('bounds sizes: enum values, event types, properties', () => {
    const huge: TrackingPlan = {
      ...plan,
      events: { e: { properties: { p: { enum: Array.from({ length: PLAN_LIMITS.enumValues + 1 }, (_, i) => i) } } } },
    }
    expect(problems(huge)).toContain('events.e.properties.p.enum: must list 1 to 1000 values')
    const many: TrackingPlan = {
      ...plan,
      events: Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`e${i}`, {}])),
    }
    expect(problems(many)).toContain('events: lists 501 event types, past the 500')
  })

  it('a valid plan compiles whole', () => {
    const compiled = compilePlan(plan, 1)
    for (const type of Object.keys(plan.events)) expect(() => compiled.compile(type)).not.toThrow()
  })
})

describe('a proposed plan', () => {
  it('passes what was seen and flags a changed type', () => {
    const proposed = proposePlan([
      {
        eventType: 'checkout',
        valueShare: 1,
        propertiesTruncated: false,
        cutRecords: 0,
        properties: [
          { name: 'plan', types: { string: 1000 }, fillRate: 1 },
          { name: 'coupon', types: { string: 10, null: 5 }, fillRate: 0.015 },
          { name: '__proto__', types: { number: 1 }, fillRate: 0.001 },
        ],
      },
      { eventType: 'visit', valueShare: null, propertiesTruncated: true, cutRecords: 0, properties: [] },
    ])
    expect(checkPlan(proposed)).toEqual([])
    expect(proposed.events['checkout']!.properties!['coupon']).toEqual({ type: ['string', 'null'] })
    const compiled = compilePlan(proposed, 1)
    expect(compiled.check('checkout', 3, { plan: 'pro', coupon: null })).toBe(undefined)
    expect(compiled.check('checkout', 3, { plan: 2 })!.violations[0]!.rule).toBe('wrong_type')
    expect(compiled.check('visit', null, { any: 1 })).toBe(undefined)
  })
})

it("the importers' doc's example plan is a plan: its shape, its checks, and what it says of an event", () => {
  const page = readFileSync(new URL('../../../docs/sdk-and-import.md', import.meta.url), 'utf8')
  const text = /### Tracking plans[^]*?```json\n([^]*?)```/.exec(page)![1]!
  const example = JSON.parse(text) as TrackingPlan
  expect(new Ajv({ strict: false }).validate(TrackingPlanSchema, example)).toBe(true)
  expect(checkPlan(example)).toEqual([])
  const compiled = compilePlan(example, 3)
  expect(compiled.check('checkout', 10, { plan: 'pro', seats: 2, sku: 'ABC-1' })).toBe(undefined)
  // What the doc says a refusal reads.
  expect(compiled.check('checkout', 10, { plan: 'gold', seats: 0 })!.violations[0]!.message).toBe(
    "properties.plan must be one of the plan's values",
  )
})
