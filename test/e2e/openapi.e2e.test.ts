// GET /openapi.json describes every public route of a process that runs every role: it is a valid
// OpenAPI 3.1 document (checked by an independent validator), lists each route with its method, and
// gives each operation its success answer and its error answers in the API's own error body. That
// the answers match these schemas is checked by every other test (SLUICE_CHECK_ANSWERS).
import { readFileSync, writeFileSync } from 'node:fs'
import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningService } from '../../src/app/service.js'
import { createTestEnv, type TestEnv } from '../support/harness.js'
// @ts-expect-error a script of the repository, in JavaScript
import { consoleTypes } from '../../scripts/console-types.mjs'

let t: TestEnv
let service: RunningService
let doc: {
  openapi: string
  paths: Record<
    string,
    Record<
      string,
      {
        tags?: string[]
        summary?: string
        responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>
      }
    >
  >
  components: { schemas: Record<string, unknown> }
}

beforeAll(async () => {
  t = await createTestEnv()
  service = await t.start(['edge', 'admin', 'events', 'alerts'])
  const res = await fetch(`${service.url}/openapi.json`)
  expect(res.status).toBe(200)
  doc = (await res.json()) as typeof doc
}, 120_000)
afterAll(async () => t?.close())

const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}')

it('is a valid OpenAPI 3.1 document', async () => {
  expect(doc.openapi).toBe('3.1.0')
  const result = await new Validator().validate(doc)
  expect(result.errors ?? []).toEqual([])
  expect(result.valid).toBe(true)
})

it('types the console: console/src/api-types.ts is generated from it (SLUICE_UPDATE_API_TYPES=1 writes it)', async () => {
  const text = await (consoleTypes as (d: unknown) => Promise<string>)(doc)
  const file = new URL('../../console/src/api-types.ts', import.meta.url)
  if (process.env['SLUICE_UPDATE_API_TYPES'] === '1') writeFileSync(file, text)
  expect(readFileSync(file, 'utf8'), 'the API changed: SLUICE_UPDATE_API_TYPES=1 writes the console types').toBe(text)
})

it('lists every public route of every API with its method, and no internal one', () => {
  const routes = service.routes.filter((r) => r.public && r.method !== 'HEAD')
  expect(routes.length).toBeGreaterThan(40)
  for (const { method, url } of routes)
    expect(doc.paths[openApiPath(url)]?.[method.toLowerCase()], `${method} ${url}`).toBeDefined()
  const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
  )
  expect(documented.sort()).toEqual(routes.map((r) => `${r.method} ${openApiPath(r.url)}`).sort())
  for (const internal of ['/healthz', '/readyz', '/metrics', '/openapi.json'])
    expect(doc.paths[internal]).toBeUndefined()
  for (const api of [
    '/api/events/bulk',
    '/api/testImpressions/bulk',
    '/api/testImpressions/count',
    '/api/testImpressions/beacon',
    '/api/v1/keys/ss',
    '/api/v1/keys/cs',
    '/api/v1/metrics/config',
    '/api/v1/metrics/usage',
    '/api/v1/webhook/{webhookId}',
    '/api/v1/integrations',
    '/internal/api/v2/workspaces',
    '/gateway/ng/api/settings',
    '/gateway/ng/api/scim/account/{account}/Users',
  ]) {
    expect(doc.paths[api], api).toBeDefined()
  }
})

it("gives every operation a tag, a summary, a success answer and its errors in the API's error body", () => {
  const errorBody: [RegExp, string][] = [
    [/^\/internal\/api\/v2\//, 'SplitError'],
    [/^\/gateway\/ng\/api\/scim\//, 'ScimError'],
    [/^\/gateway\/ng\/api\//, 'HarnessError'],
    [/^\/api\//, 'SluiceError'],
  ]
  for (const [path, ops] of Object.entries(doc.paths)) {
    const expected = errorBody.find(([re]) => re.test(path))![1]
    expect(doc.components.schemas[expected], expected).toBeDefined()
    for (const [method, op] of Object.entries(ops)) {
      const where = `${method.toUpperCase()} ${path}`
      expect(op.tags?.length, where).toBeGreaterThan(0)
      expect(op.summary, where).toBeTruthy()
      const statuses = Object.keys(op.responses)
      expect(
        statuses.some((s) => s.startsWith('2')),
        where,
      ).toBe(true)
      // 431 comes from the HTTP server before any route, in its own body (checked below).
      const errors = statuses.filter((s) => /^[45]/.test(s) && s !== '431')
      expect(errors.length, where).toBeGreaterThanOrEqual(3)
      for (const status of errors)
        expect(JSON.stringify(op.responses[status]), `${where} ${status}`).toContain(`#/components/schemas/${expected}`)
    }
  }
})

it('documents on every operation the 431 the HTTP server answers oversized headers with, as it answers it', async () => {
  const ops = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([m, op]) => [`${m} ${path}`, op] as const),
  )
  expect(ops.length).toBeGreaterThan(40)
  for (const [name, op] of ops)
    expect(Object.keys(op.responses['431']?.content ?? {}), name).toEqual(['application/json'])
  const res = await fetch(`${service.url}/api/events/bulk`, {
    method: 'POST',
    headers: { 'x-big': 'a'.repeat(20_000) },
    body: '[]',
  })
  expect(res.status).toBe(431)
  expect(res.headers.get('content-type')).toBe('application/json')
  expect(await res.json()).toMatchObject({
    error: 'Request Header Fields Too Large',
    message: expect.any(String),
    statusCode: 431,
  })
})

it('describes every SCIM answer as application/scim+json, the media type SCIM answers have (RFC 7644 3.1)', () => {
  const scim = Object.entries(doc.paths).filter(([path]) => path.startsWith('/gateway/ng/api/scim/'))
  expect(scim.length).toBeGreaterThan(3)
  for (const [path, ops] of scim) {
    for (const [method, op] of Object.entries(ops)) {
      for (const [status, answer] of Object.entries(op.responses)) {
        // 431 is the HTTP server's own answer to oversized headers, before any route (see below).
        if (status === '204' || status === '431') continue
        expect(Object.keys(answer.content ?? {}), `${method.toUpperCase()} ${path} ${status}`).toEqual([
          'application/scim+json',
        ])
      }
    }
  }
})
