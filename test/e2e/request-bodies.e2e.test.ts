// Request bodies take no field they do not declare: every object schema of every request body the
// published OpenAPI document (GET /openapi.json) describes closes its properties (additionalProperties
// false, or a deliberate choice stated), including the objects TypeBox's Partial makes, which lose the
// closure of the object they are made from. And what the document says is what the API does: an unknown
// field inside a sub-object (a destination's limits, the experiment defaults) is a 400 naming it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import type { DemoAccount } from '../../src/state/redis/tenancy.js'
import { adminCaller, createTestEnv, type TestEnv } from '../support/harness.js'

type Schema = Record<string, unknown>
type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestEnv
let service: RunningService
let demo: DemoAccount
let doc: { paths: Record<string, Record<string, { requestBody?: Json }>>; components: { schemas: Json } }

beforeAll(async () => {
  t = await createTestEnv({ SLUICE_NOTIFY_ALLOW_HTTP: 'true', SLUICE_NOTIFY_ALLOWED_RANGES: '127.0.0.0/8' })
  demo = await t.bootstrap()
  service = await t.start(['edge', 'admin', 'events', 'alerts'])
  doc = (await (await fetch(`${service.url}/openapi.json`)).json()) as typeof doc
}, 120_000)
afterAll(async () => t?.close())

const call = adminCaller(
  () => service.url,
  () => demo.adminApiKey,
)

/**
 * Bodies left open as they were: what Split's SDKs send to the beacon routes and Split's Admin API clients to its
 * segment and identity routes (compatibility with clients Sluice does not control; not Sluice's own admin APIs).
 */
const OPEN_FOR_SPLIT_CLIENTS = [/^POST \/api\/[\w/]*beacon /, /^(POST|PUT|PATCH) \/internal\/api\/v2\//]

/** The object schemas (with properties) under a schema that leave additionalProperties unsaid, by JSON path. */
function openObjects(root: Schema, at: string): string[] {
  const open: string[] = []
  const seen = new Set<Schema>()
  const walk = (s: unknown, path: string) => {
    if (typeof s !== 'object' || s === null || seen.has(s as Schema)) return
    const schema = s as Schema
    seen.add(schema)
    const ref = schema['$ref']
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/'))
      walk(doc.components.schemas[ref.slice('#/components/schemas/'.length)], path)
    if (
      schema['properties'] !== undefined &&
      !('additionalProperties' in schema) &&
      !('unevaluatedProperties' in schema)
    )
      open.push(path || '(body)')
    for (const [name, child] of Object.entries((schema['properties'] as Schema | undefined) ?? {}))
      walk(child, path ? `${path}.${name}` : name)
    walk(schema['items'], `${path}[]`)
    walk(schema['additionalProperties'], `${path}.*`)
    for (const child of Object.values((schema['patternProperties'] as Schema | undefined) ?? {}))
      walk(child, `${path}.*`)
    for (const key of ['anyOf', 'oneOf', 'allOf'])
      for (const child of (schema[key] as unknown[] | undefined) ?? []) walk(child, path)
  }
  walk(root, '')
  return open.map((p) => `${at} ${p}`)
}

describe('request bodies', () => {
  it('every object schema of every request body in GET /openapi.json closes its properties', () => {
    const bodies = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).flatMap(([method, op]) =>
        Object.entries((op.requestBody?.['content'] as Record<string, { schema: Schema }> | undefined) ?? {}).map(
          ([type, content]) => [`${method.toUpperCase()} ${path} (${type})`, content.schema] as const,
        ),
      ),
    )
    expect(bodies.length).toBeGreaterThan(20)
    const open = bodies.flatMap(([where, schema]) => openObjects(schema, where))
    expect(open.filter((where) => !OPEN_FOR_SPLIT_CLIENTS.some((re) => re.test(where)))).toEqual([])
  })

  it("an unknown field in a destination's limits is a 400 naming it, and nothing is stored", async () => {
    const res = await call('/api/v1/notification-destinations', {
      method: 'POST',
      body: JSON.stringify({
        name: 'limits',
        kind: 'webhook',
        settings: { url: 'http://127.0.0.1:9/hook' },
        limits: { burst: 5, speed: 1 },
      }),
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as Json)['message']).toMatch(/limits\.speed is not a known field/)
    const list = (await (await call('/api/v1/notification-destinations')).json()) as Json
    expect(list['destinations']).toEqual([])
    // Known limits alone are taken.
    const ok = await call('/api/v1/notification-destinations', {
      method: 'POST',
      body: JSON.stringify({
        name: 'limits',
        kind: 'webhook',
        settings: { url: 'http://127.0.0.1:9/hook' },
        limits: { burst: 5 },
      }),
    })
    expect(ok.status).toBe(201)
    expect(((await ok.json()) as Json)['destination']['limits']).toMatchObject({ burst: 5 })
  })

  it('an unknown field in the experiment defaults is a 400 naming it, and the defaults are unchanged', async () => {
    const ws = demo.workspaceId
    const before = (await (await call(`/api/v1/workspaces/${ws}/experiment-defaults`)).json()) as Json
    const res = await call(`/api/v1/workspaces/${ws}/experiment-defaults`, {
      method: 'PUT',
      body: JSON.stringify({ sequential: false, alpha: 0.01 }),
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as Json)['message']).toMatch(/alpha is not a known field/)
    const after = (await (await call(`/api/v1/workspaces/${ws}/experiment-defaults`)).json()) as Json
    expect(after).toEqual(before)
    expect(JSON.stringify(after)).not.toContain('alpha')
  })

  it("an unknown field in an integration's test or in the alert of the rules' test is a 400 naming it", async () => {
    const made = await call('/api/v1/integrations', {
      method: 'POST',
      body: JSON.stringify({ name: 'bodies', template: 'alertmanager' }),
    })
    expect(made.status).toBe(201)
    const id = ((await made.json()) as Json)['id'] as string
    const test = (body: Json) => call(`/api/v1/integrations/${id}/test`, { method: 'POST', body: JSON.stringify(body) })
    const typo = await test({ payloads: [{ status: 'firing' }] })
    expect(typo.status).toBe(400)
    expect(((await typo.json()) as Json)['message']).toMatch(/payloads is not a known field/)
    expect((await test({})).status).toBe(200)
    const rules = (alert: Json) => call('/api/v1/alert-rules/test', { method: 'POST', body: JSON.stringify({ alert }) })
    const unknown = await rules({ severity: 'warning', speed: 1 })
    expect(unknown.status).toBe(400)
    expect(((await unknown.json()) as Json)['message']).toMatch(/alert\.speed is not a known field/)
    expect((await rules({ severity: 'warning' })).status).toBe(200)
  })
})
