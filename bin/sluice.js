#!/usr/bin/env node
// The `sluice` command runs the compiled CLI (npm run build writes dist/).
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const entry = new URL('../dist/cli/index.js', import.meta.url)
if (!existsSync(fileURLToPath(entry))) {
  console.error('sluice: dist/ is missing; run `npm install && npm run build` in the project folder first')
  process.exit(1)
}
await import(entry.href)
