// The alert rules (deploy/prometheus), the dashboard (deploy/grafana) and the runbook's metrics table
// (docs/operators/runbook.md) speak of the metrics Sluice exports, and of all of them: a renamed or
// new metric breaks this test, not an operator's alert. (promtool checks the rules themselves:
// test/integration/prometheus-rules.test.ts.)
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { parse } from 'yaml'
import { createMetrics } from '../../../src/shared/metrics.js'

const file = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8')

/** Every series name the registry exports (a histogram's _bucket, _sum and _count), and Sluice's own metric names. */
async function exported(): Promise<{ series: Set<string>; own: string[] }> {
  const metrics = await createMetrics().registry.getMetricsAsJSON()
  const series = new Set(
    metrics.flatMap((m) =>
      String(m.type) === 'histogram' ? ['_bucket', '_sum', '_count'].map((s) => `${m.name}${s}`) : [m.name],
    ),
  )
  // prom-client's process and Node metrics carry the prefix too; Sluice's own are the ones its code declares.
  const own = metrics.map((m) => m.name).filter((n) => !/^sluice_(process|nodejs)_/.test(n))
  return { series, own }
}

const named = (expr: string) => [...expr.matchAll(/\bsluice_[a-z0-9_]+/g)].map((m) => m[0])

it('every alert rule names only series Sluice exports', async () => {
  const { series } = await exported()
  const rules = (
    parse(file('deploy/prometheus/sluice-rules.yml')) as { groups: { rules: { alert: string; expr: string }[] }[] }
  ).groups.flatMap((g) => g.rules)
  expect(rules.length).toBeGreaterThan(10)
  for (const rule of rules)
    for (const name of named(rule.expr)) expect(series.has(name), `${rule.alert}: ${name}`).toBe(true)
})

it("every dashboard query names only series Sluice exports, and every one of Sluice's metrics is on the dashboard", async () => {
  const { series, own } = await exported()
  const dashboard = JSON.parse(file('deploy/grafana/sluice.json')) as {
    panels: { title: string; targets: { expr: string }[] }[]
  }
  const used = new Set<string>()
  for (const panel of dashboard.panels)
    for (const target of panel.targets)
      for (const name of named(target.expr)) {
        expect(series.has(name), `${panel.title}: ${name}`).toBe(true)
        used.add(name.replace(/_(bucket|sum|count)$/, ''))
      }
  expect(own.filter((m) => !used.has(m))).toEqual([])
})

it("the runbook's metrics table has every metric of Sluice's, and no other", async () => {
  const { own } = await exported()
  const table = [...file('docs/operators/runbook.md').matchAll(/^\| `(sluice_[a-z0-9_]+)` \|/gm)].map((m) => m[1]!)
  expect([...table].sort()).toEqual([...own].sort())
})
