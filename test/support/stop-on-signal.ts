// Processes a test run started (the stacks) are stopped when the run is interrupted (SIGINT, SIGTERM) or exits without
// its global teardown, as they are by the teardown when it ends: with SIGTERM to each, synchronously. The handlers go
// first: vitest's own exit on Ctrl-C calls process.exit() from its 'exit' listener, which ends the process before any
// listener added after it runs.

/**
 * Sends SIGTERM to the pids `pids()` names when this process gets SIGINT or SIGTERM, or exits; returns the handlers'
 * removal (the teardown's: it stops them itself).
 */
export function stopOnSignal(pids: () => number[]): () => void {
  const stop = () => {
    forget()
    for (const pid of pids()) {
      try {
        process.kill(pid, 'SIGTERM')
      } catch {
        // Gone already.
      }
    }
  }
  const onSignal = (signal: NodeJS.Signals) => {
    stop()
    // The signal's usual course when no one else handles it: the run ends.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
  }
  const forget = () => {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    process.off('exit', stop)
  }
  process.prependListener('SIGINT', onSignal)
  process.prependListener('SIGTERM', onSignal)
  process.prependListener('exit', stop)
  return forget
}
