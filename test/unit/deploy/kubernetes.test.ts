// The Kubernetes manifests (deploy/kubernetes) against the code: every variable they set is a setting
// the configuration declares, and the values load; one Deployment per role, each with readiness on
// /readyz and liveness on /healthz; the edge with its autoscaler, disruption budget and spool volume.
import { readdirSync, readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { ROLES } from '../../../src/app/roles.js'
import { loadConfig, settings } from '../../../src/config/index.js'

type Doc = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const DIR = new URL('../../../deploy/kubernetes/', import.meta.url)
const docs: Doc[] = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((f) => parseAllDocuments(readFileSync(new URL(f, DIR), 'utf8')).map((d) => d.toJSON() as Doc))
const of = (kind: string) => docs.filter((d) => d['kind'] === kind)
const configMap = of('ConfigMap').find((d) => d['metadata']['name'] === 'sluice-config')!['data'] as Record<
  string,
  string
>
const secret = of('Secret').find((d) => d['metadata']['name'] === 'sluice-secrets')!['stringData'] as Record<
  string,
  string
>
const container = (d: Doc) => d['spec']['template']['spec']['containers'][0] as Doc
const envOf = (d: Doc): Record<string, string> => ({
  ...configMap,
  ...secret,
  ...Object.fromEntries((container(d)['env'] as { name: string; value: string }[]).map((e) => [e.name, e.value])),
})

it('sets only variables the configuration declares, with values it loads', () => {
  const declared = new Set(settings().map((s) => s.env))
  const deployments = of('Deployment')
  const used = new Set([
    ...Object.keys(configMap),
    ...Object.keys(secret),
    ...deployments.flatMap((d) => (container(d)['env'] as { name: string }[]).map((e) => e.name)),
  ])
  expect([...used].filter((name) => !declared.has(name))).toEqual([])
  for (const d of deployments) expect(() => loadConfig(envOf(d)), d['metadata']['name'] as string).not.toThrow()
})

it('runs each role in a Deployment of its own, ready on /readyz and alive on /healthz', () => {
  const deployments = of('Deployment')
  expect(deployments.map((d) => (container(d)['args'] as string[]).join(' ')).sort()).toEqual(
    ROLES.map((r) => `serve --roles ${r}`).sort(),
  )
  for (const d of deployments) {
    const c = container(d)
    expect(c['readinessProbe']['httpGet']).toEqual({ path: '/readyz', port: 'http' })
    expect(c['livenessProbe']['httpGet']).toEqual({ path: '/healthz', port: 'http' })
    expect(c['ports']).toEqual([{ containerPort: Number(envOf(d)['SLUICE_PORT']), name: 'http' }])
  }
})

it('scales the edge by CPU, keeps it available through disruptions, and keeps its spool on a volume', () => {
  const edge = of('Deployment').find((d) => d['metadata']['name'] === 'sluice-edge')!
  expect(of('HorizontalPodAutoscaler')[0]!['spec']['scaleTargetRef']).toEqual({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    name: 'sluice-edge',
  })
  expect(of('PodDisruptionBudget')[0]!['spec']['selector']['matchLabels']).toEqual(
    edge['spec']['selector']['matchLabels'],
  )
  const mount = (container(edge)['volumeMounts'] as { name: string; mountPath: string }[])[0]!
  expect(mount.mountPath).toBe(envOf(edge)['SLUICE_SPOOL_DIR'])
  expect((edge['spec']['template']['spec']['volumes'] as { name: string }[]).map((v) => v.name)).toContain(mount.name)
})
