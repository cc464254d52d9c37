// A value made on first use: schema validators compiled at module load cost every `sluice` command and every process
// (about 40 ms each, seconds in all on a loaded machine) whether it validates that kind of input or not.

/** `make()` on the first call, the same value after. */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined
  return () => (made ??= { value: make() }).value
}
