// A stand-in for the consumer thread's entry: speaks its protocol and misbehaves as workerData.roles[0] says.
import { parentPort, workerData } from 'node:worker_threads'

const behaviour = workerData.roles[0]
parentPort.on('message', ({ id, kind }) => {
  if (behaviour === 'mute' && kind !== 'stop') return
  if (kind === 'checks') parentPort.postMessage({ id, value: { clickhouse: 'ok', 'events-consumer': 'ok' } })
  if (kind === 'metrics')
    parentPort.postMessage({
      id,
      value: [
        { name: 'fixture_total', help: 'h', type: 'counter', aggregator: 'sum', values: [{ value: 7, labels: {} }] },
      ],
    })
  if (kind === 'stop') parentPort.postMessage({ id, value: undefined })
})
if (behaviour === 'fail-start')
  parentPort.postMessage({
    kind: 'failed',
    error: { name: 'TypeError', message: 'no clickhouse', code: 'ECONNREFUSED' },
  })
else parentPort.postMessage({ kind: 'started' })
if (behaviour === 'die') setTimeout(() => process.exit(3), 50)
if (behaviour === 'fatal-then-die') {
  parentPort.postMessage({ kind: 'fatal', error: { name: 'Error', message: 'consumer gave up' } })
  setTimeout(() => process.exit(1), 20)
}
