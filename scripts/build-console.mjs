#!/usr/bin/env node
// Builds the console (console/: TypeScript and Preact) into dist/console: one script, one stylesheet
// and the page, no source maps of the server, nothing loaded from elsewhere. esbuild because it
// bundles and minifies TypeScript and JSX in well under a second with no configuration to keep; the
// type check is `tsc -p console/tsconfig.json` (npm run lint).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { build } from 'esbuild'

const out = new URL('../dist/console/', import.meta.url)
mkdirSync(out, { recursive: true })
await build({
  entryPoints: [new URL('../console/src/main.tsx', import.meta.url).pathname],
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outfile: new URL('app.js', out).pathname,
  logLevel: 'warning',
  legalComments: 'none',
})
copyFileSync(new URL('../console/index.html', import.meta.url), new URL('index.html', out))
// uPlot's own stylesheet (the plot's layout) first, then the console's design, as one file.
writeFileSync(
  new URL('app.css', out),
  [
    readFileSync(new URL('../node_modules/uplot/dist/uPlot.min.css', import.meta.url), 'utf8'),
    readFileSync(new URL('../console/style.css', import.meta.url), 'utf8'),
  ].join('\n'),
)
