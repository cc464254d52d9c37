#!/usr/bin/env node
// A current ClickHouse (26.x, in this process through chDB) behind ClickHouse's HTTP interface, so
// that whole `sluice serve` processes (intake to results API) run on a current engine in the tests:
// no 26.x server package can be installed on these machines, and chDB's library has no server of its
// own. The `current-engine` test project starts it (current-engine-setup.ts).
//
//   node test/support/chdb-server.mjs <data dir> <port>     (prints "listening <port>" when ready)
//
// What it emulates: the HTTP interface as @clickhouse/client uses it: GET /ping; POST /?query=...
// with the statement in the URL and its data in the body (inserts) or the statement in the body;
// settings as URL parameters (each distinct set of settings gets a connection of its own, since
// chDB keeps a statement's SET on its connection); answers 200 with the result in the statement's
// FORMAT (TabSeparated without one) or an error status with X-ClickHouse-Exception-Code and
// ClickHouse's "Code: N. DB::Exception: ..." text.
// What it does not: authentication, sessions, compression, query parameters (Sluice sends none),
// progress headers; query ids are not the server's (KILL QUERY finds nothing: each statement has
// run to its end when its answer is sent); the statements of one connection run one at a time.
import { createServer } from 'node:http'
import { Session } from 'chdb'

const [dir, port = '0'] = process.argv.slice(2)
if (!dir) {
  console.error('usage: chdb-server.mjs <data dir> [port]')
  process.exit(2)
}

/** URL parameters that are not settings of the statement. */
const NOT_SETTINGS = new Set([
  'query',
  'query_id',
  'database',
  'default_format',
  'session_id',
  'role',
  'enable_http_compression',
  'wait_end_of_query',
  'send_progress_in_http_headers',
  'http_headers_progress_interval_ms',
])
const sessions = new Map()

function sessionFor(settings) {
  const key = JSON.stringify(settings)
  let session = sessions.get(key)
  if (!session) {
    session = new Session(dir)
    for (const [name, value] of settings) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
        throw Object.assign(new Error(`Code: 115. DB::Exception: Unknown setting ${name}. (UNKNOWN_SETTING)`), {
          clickhouseCode: 115,
        })
      session.query(`SET ${name} = '${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`)
    }
    sessions.set(key, session)
  }
  return session
}

async function body(request) {
  const chunks = []
  for await (const chunk of request) chunks.push(chunk)
  return Buffer.concat(chunks).toString('utf8')
}

const server = createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost')
  if (url.pathname === '/ping') return response.end('Ok.\n')
  const queryId = url.searchParams.get('query_id') ?? ''
  try {
    if ([...url.searchParams.keys()].some((k) => k.startsWith('param_')))
      throw Object.assign(
        new Error('Code: 456. DB::Exception: query parameters are not emulated. (UNKNOWN_QUERY_PARAMETER)'),
        { clickhouseCode: 456 },
      )
    const data = await body(request)
    const inUrl = url.searchParams.get('query')
    const sql = inUrl ? (data.length > 0 ? `${inUrl}\n${data}` : inUrl) : data
    const settings = [...url.searchParams].filter(([k]) => !NOT_SETTINGS.has(k)).sort(([a], [b]) => a.localeCompare(b))
    const result = await sessionFor(settings).queryAsync(sql, {
      format: url.searchParams.get('default_format') ?? 'TabSeparated',
    })
    response.writeHead(200, {
      'Content-Type': 'text/plain; charset=UTF-8',
      'X-ClickHouse-Query-Id': queryId,
      'X-ClickHouse-Summary': JSON.stringify({
        read_rows: String(result.rowsRead),
        read_bytes: String(result.bytesRead),
        written_rows: '0',
        written_bytes: '0',
        elapsed_ns: String(Math.round(result.elapsed * 1e9)),
      }),
    })
    response.end(Buffer.from(result.bytes()))
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    const code = err?.clickhouseCode ?? Number(/Code: (\d+)/.exec(message)?.[1] ?? 1001)
    response.writeHead(500, {
      'Content-Type': 'text/plain; charset=UTF-8',
      'X-ClickHouse-Exception-Code': String(code),
      'X-ClickHouse-Query-Id': queryId,
    })
    response.end(/^Code: \d+/.test(message) ? `${message}\n` : `Code: ${code}. DB::Exception: ${message}\n`)
  }
})

server.listen(Number(port), '127.0.0.1', () => console.log(`listening ${server.address().port}`))
const stop = () => {
  server.close()
  for (const s of sessions.values()) s.close()
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
