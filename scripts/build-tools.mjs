#!/usr/bin/env node
// Builds the development tooling (tools/stack: `sluice stack`) into dist/tools/stack, apart from the
// service (tsc builds src/ into dist/). esbuild bundles what the tooling takes from src/ with it, so
// the service's build knows nothing of the tooling, and an installation without tools/ (the service
// image) has a `sluice` whose `stack` command says it is not there. The type check of tools/ is
// npm run lint (tsconfig.json).
import { existsSync } from 'node:fs'
import { build } from 'esbuild'

const tools = new URL('../tools/stack/', import.meta.url)
if (!existsSync(tools)) process.exit(0)
await build({
  entryPoints: ['index.ts', 'cluster.ts'].map((f) => new URL(f, tools).pathname),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  outdir: new URL('../dist/tools/stack/', import.meta.url).pathname,
  logLevel: 'warning',
})
