// The console's static files (dist/console, built by `npm run build` from console/), served by the
// admin role at /console/ under a strict Content-Security-Policy: only this origin's script, style
// and API; no inline script, no framing, nothing from elsewhere. The pages call the public API with
// the admin key like any other client; no route here reads a key or any data. `/` leads to the console.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { HttpError } from '../../http/errors.js'

/** From src/admin/console (tests) and dist/admin/console (the service) alike: <project>/dist/console. */
export const CONSOLE_DIR = fileURLToPath(new URL('../../../dist/console/', import.meta.url))

export const CONSOLE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
} as const

export async function consoleRoutes(app: FastifyInstance): Promise<void> {
  app.get('/console', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console/', 301))
  // The address a person types first leads to the console (302: the root may serve something else one day).
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console/', 302))
  if (!existsSync(CONSOLE_DIR)) {
    app.get('/console/*', { schema: { hide: true } }, async () => {
      throw new HttpError('NOT_FOUND', 'the console is not built: run npm run build')
    })
    return
  }
  await app.register(fastifyStatic, {
    root: CONSOLE_DIR,
    prefix: '/console/',
    index: ['index.html'],
    wildcard: false,
    schemaHide: true,
    setHeaders: (reply) => {
      void reply.headers(CONSOLE_HEADERS)
    },
  })
}
