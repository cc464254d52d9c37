// Adjusted p-values for a family of comparisons: Holm's step-down (family-wise error) and
// Benjamini–Hochberg (false discovery rate), as statsmodels' multipletests computes them.

/** The p-values adjusted by a correction's name (none: as they are). */
export function adjust(pValues: readonly (number | null)[], correction: 'bh' | 'holm' | 'none'): (number | null)[] {
  return correction === 'bh' ? benjaminiHochberg(pValues) : correction === 'holm' ? holm(pValues) : [...pValues]
}

/** The p-values that are numbers, smallest first, each with its place in the order given. */
function rank(pValues: readonly (number | null)[]): { p: number; index: number }[] {
  return pValues
    .flatMap((p, index) => (p === null || !Number.isFinite(p) ? [] : [{ p, index }]))
    .sort((x, y) => x.p - y.p)
}

/**
 * Holm's step-down adjusted p-values, in the order given (nulls stay null and are not counted): the i-th smallest
 * times (m − i + 1), made monotone from the smallest up, capped at 1.
 */
export function holm(pValues: readonly (number | null)[]): (number | null)[] {
  const ranked = rank(pValues)
  const m = ranked.length
  const adjusted: (number | null)[] = pValues.map(() => null)
  let running = 0
  ranked.forEach((r, i) => {
    running = Math.max(running, Math.min(1, r.p * (m - i)))
    adjusted[r.index] = running
  })
  return adjusted
}

/**
 * Benjamini–Hochberg adjusted p-values, in the order given (nulls and non-numbers stay null and are not counted):
 * p(i)·m/i, made monotone from the largest down, capped at 1.
 */
export function benjaminiHochberg(pValues: readonly (number | null)[]): (number | null)[] {
  const ranked = rank(pValues)
  const m = ranked.length
  const adjusted: (number | null)[] = pValues.map(() => null)
  let running = 1
  for (let i = m - 1; i >= 0; i--) {
    const r = ranked[i]!
    running = Math.min(running, (r.p * m) / (i + 1))
    adjusted[r.index] = Math.min(1, running)
  }
  return adjusted
}
