#!/usr/bin/env node
// Self time by function and by package of V8 CPU profiles (`node --cpu-prof`, or `npm run bench --
// --profile`): what bounds a process, as text; with --inclusive, also each function's time with what
// it calls, as shares of the busy (not idle) time. Flame graphs: open the .cpuprofile in Chrome
// DevTools (Performance) or https://www.speedscope.app.
//   node bench/profile-summary.mjs <file.cpuprofile> [--top 25] [--inclusive]
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' }, inclusive: { type: 'boolean', default: false } },
})
for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, 'utf8'))
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map()
  const dt = profile.timeDeltas
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0)))
  const total = [...self.values()].reduce((a, b) => a + b, 0)
  const fns = new Map()
  const pkgs = new Map()
  for (const [id, us] of self) {
    const { callFrame: f } = byId.get(id)
    const where = whereOf(f)
    const fn = nameOf(f)
    fns.set(fn, (fns.get(fn) ?? 0) + us)
    const pkg = !f.url
      ? `(${f.functionName || 'native'})`
      : where.startsWith('node_modules/')
        ? where
            .split('/')
            .slice(0, where.split('/')[1].startsWith('@') ? 3 : 2)
            .join('/')
        : where.startsWith('dist/')
          ? `sluice ${where.split('/').slice(0, 2).join('/')}`
          : 'node internals'
    pkgs.set(pkg, (pkgs.get(pkg) ?? 0) + us)
  }
  const top = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))
  console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`)
  console.log('\nself time by package:')
  for (const [k, us] of top(pkgs)) console.log(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${k}`)
  console.log('\nself time by function:')
  for (const [k, us] of top(fns)) console.log(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${k}`)
  if (!values.inclusive) continue
  // Each sample counts once for every distinct function on its stack.
  const parent = new Map()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const inclusive = new Map()
  let busy = 0
  for (const [id, us] of self) {
    if (byId.get(id).callFrame.functionName === '(idle)') continue
    busy += us
    const seen = new Set()
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const fn = nameOf(byId.get(at).callFrame)
      if (seen.has(fn)) continue
      seen.add(fn)
      inclusive.set(fn, (inclusive.get(fn) ?? 0) + us)
    }
  }
  console.log(`\ninclusive time by function, of ${(busy / 1e6).toFixed(1)} s busy:`)
  for (const [k, us] of top(inclusive)) console.log(`${((us / busy) * 100).toFixed(1).padStart(5)}%  ${k}`)
}

/** Where a frame's code is: node_modules/<package>/..., dist/... (Sluice's own), or a node: URL. */
function whereOf(f) {
  const path = f.url.replace(/^file:\/\//, '')
  return path.includes('/node_modules/')
    ? path.replace(/.*\/node_modules\//, 'node_modules/')
    : path.replace(/.*\/dist\//, 'dist/')
}

function nameOf(f) {
  return `${f.functionName || '(anonymous)'} ${whereOf(f)}:${f.lineNumber + 1}`
}
