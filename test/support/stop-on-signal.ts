// Processes a test run started (the stacks) are stopped when the run is interrupted (SIGINT, SIGTERM) or exits without
// its global teardown, as they are by the teardown when it ends: with SIGTERM to each, synchronously. The handlers go
// first: vitest's own exit on Ctrl-C calls process.exit() from its 'exit' listener, which ends the process before any
// listener added after it runs.
import { readdirSync, readFileSync } from 'node:fs'

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

let stoppingChildren = false

/**
 * On SIGINT or SIGTERM to this process alone (a terminal's Ctrl-C reaches its whole group, a `kill` does not), its
 * children (vitest's workers, with what they run in process, and the servers a setup started) get SIGTERM too:
 * otherwise they outlive the run, orphaned. Once per process.
 */
export function stopChildrenOnSignal(): void {
  if (stoppingChildren) return
  stoppingChildren = true
  const onSignal = (signal: NodeJS.Signals) => {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    for (const pid of childrenOf(process.pid)) {
      try {
        process.kill(pid, 'SIGTERM')
      } catch {
        // Gone already.
      }
    }
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
  }
  process.prependListener('SIGINT', onSignal)
  process.prependListener('SIGTERM', onSignal)
}

/** The processes whose parent is `pid` (Linux's /proc; none where there is no /proc). */
function childrenOf(pid: number): number[] {
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return []
  }
  const children: number[] = []
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so the fields are read after the last ')'.
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(name))
    } catch {
      // Gone meanwhile.
    }
  }
  return children
}
