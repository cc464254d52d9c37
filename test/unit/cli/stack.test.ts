// `sluice stack` loads the tooling of tools/stack at run time (it is not part of the service's build):
// the tooling must be what the command expects of it, checked here by the type checker and at run time.
import { expect, it } from 'vitest'
import type { ClusterTool, StackTool } from '../../../src/cli/commands/stack.js'
import * as cluster from '../../../tools/stack/cluster.js'
import * as single from '../../../tools/stack/index.js'

it('the tooling has every function the stack command calls, with its signature', () => {
  const tools: [StackTool, ClusterTool] = [single, cluster]
  expect(tools.flatMap((t) => Object.values(t).filter((f) => typeof f === 'function')).length).toBeGreaterThan(6)
  for (const name of ['stackUp', 'stackDown', 'stackStatus'] as const) expect(typeof single[name]).toBe('function')
  for (const name of ['clusterUp', 'clusterDown', 'clusterStatus'] as const)
    expect(typeof cluster[name]).toBe('function')
})

it("a new Kafka cluster id is 16 bytes of URL-safe base64 and never starts with '-' (read as an option otherwise)", () => {
  // 1 in 64 random ids starts with '-'; 2,000 draws miss every one of them with probability about 1e-14.
  const ids = Array.from({ length: 2000 }, () => single.newKafkaClusterId())
  for (const id of ids) {
    expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/)
    expect(Buffer.from(id, 'base64url')).toHaveLength(16)
  }
  expect(new Set(ids).size).toBe(ids.length)
})
