// The console's types of the API's requests and answers, generated from GET /openapi.json by openapi-typescript (a
// kept generator, rather than the hand-written interfaces each view used to declare). The OpenAPI test
// (test/e2e/openapi.e2e.test.ts) generates them from a running process that serves every role and fails when
// console/src/api-types.ts differs; SLUICE_UPDATE_API_TYPES=1 writes it.
import openapiTS, { astToString } from 'openapi-typescript'

/** The document without its prose (descriptions, summaries, examples): the types, not the reference's comments. */
function types(node, within) {
  if (Array.isArray(node)) return node.map((x) => types(x, ''))
  if (node === null || typeof node !== 'object') return node
  const out = {}
  for (const [k, v] of Object.entries(node)) {
    // In a map of properties (or of paths, answers, media types) every key is a name, never prose.
    const named = within === 'properties' || within === 'paths' || within === 'responses' || within === 'content'
    if (!named && ['description', 'summary', 'examples', 'example', 'title'].includes(k) && typeof v !== 'object')
      continue
    if (!named && (k === 'examples' || k === 'example')) continue
    out[k] = types(v, k)
  }
  return out
}

/** The file's text for an OpenAPI document. */
export async function consoleTypes(doc) {
  const ast = await openapiTS(types(doc, ''), { alphabetize: true, exportType: true })
  return `// Generated from GET /openapi.json by scripts/console-types.mjs (openapi-typescript): do not edit. The OpenAPI test\n// fails when it is out of date; SLUICE_UPDATE_API_TYPES=1 npx vitest run test/e2e/openapi.e2e.test.ts writes it.\n\n${astToString(ast)}`
}
