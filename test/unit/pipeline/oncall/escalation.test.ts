// An escalation policy's walk (next step, waits, runs again, handovers) and what a policy may not be (loops of
// handovers, steps after a handover, repeating without a pause).
import { describe, expect, it } from 'vitest'
import { nextPosition, policyProblems, type PolicyDefinition } from '../../../../src/pipeline/oncall/escalation.js'

const user = { kind: 'user' as const, id: 'u1' }
const policy = (steps: PolicyDefinition['steps'], repeat?: number): PolicyDefinition => ({
  name: 'p',
  steps,
  ...(repeat !== undefined ? { repeat } : {}),
})

describe('nextPosition', () => {
  it('walks the steps with their waits, runs the policy again while runs are left, then ends', () => {
    const p = policy(
      [
        { targets: [user], waitMinutes: 5 },
        { targets: [user], waitMinutes: 10 },
      ],
      1,
    )
    const walk: unknown[] = []
    let at: Parameters<typeof nextPosition>[1] | undefined = { policyId: 'p', round: 0, step: 0 }
    while (at) {
      const next = nextPosition(p, at)
      walk.push(next && [next.position.round, next.position.step, next.afterMs / 60_000])
      at = next?.position
    }
    expect(walk).toEqual([[0, 1, 5], [1, 0, 10], [1, 1, 5], undefined])
  })

  it('hands over to another policy at once, at its first step', () => {
    const p = policy([{ targets: [{ kind: 'policy', id: 'q' }], waitMinutes: 30 }], 3)
    expect(nextPosition(p, { policyId: 'p', round: 0, step: 0 })).toEqual({
      position: { policyId: 'q', round: 0, step: 0 },
      afterMs: 0,
    })
  })
})

describe('policyProblems', () => {
  const handover = (id: string) => policy([{ targets: [{ kind: 'policy', id }], waitMinutes: 0 }])

  it('refuses a loop of handovers through other policies, naming the field and the loop', () => {
    const others = new Map([
      ['b', handover('c')],
      ['c', handover('a')],
    ])
    const problems = policyProblems('a', handover('b'), others)
    expect(problems).toEqual([
      { field: 'steps[0].targets[0].id', problem: expect.stringContaining('"a" → "b" → "c" → "a"') },
    ])
    // Without the way back, no loop.
    expect(policyProblems('a', handover('b'), new Map([['b', policy([{ targets: [user], waitMinutes: 1 }])]]))).toEqual(
      [],
    )
  })

  it('refuses a handover to itself or to no policy, more than one handover, and steps after one', () => {
    expect(policyProblems('a', handover('a'), new Map())[0]).toMatchObject({ problem: /same policy/ })
    expect(policyProblems('a', handover('x'), new Map())[0]).toMatchObject({ problem: /no escalation policy "x"/ })
    const two = policy([
      {
        targets: [
          { kind: 'policy', id: 'b' },
          { kind: 'policy', id: 'c' },
        ],
        waitMinutes: 0,
      },
      { targets: [user], waitMinutes: 1 },
    ])
    const problems = policyProblems(
      'a',
      two,
      new Map([
        ['b', handover('z')],
        ['c', handover('z')],
      ]),
    )
    expect(problems.map((p) => p.problem).join('\n')).toMatch(/more than one policy[\s\S]*would never fire/)
  })

  it('refuses a policy that repeats with no wait anywhere', () => {
    expect(policyProblems(undefined, policy([{ targets: [user], waitMinutes: 0 }], 2), new Map())).toEqual([
      { field: 'repeat', problem: expect.stringContaining('without a pause') },
    ])
    expect(policyProblems(undefined, policy([{ targets: [user], waitMinutes: 0 }]), new Map())).toEqual([])
  })
})
