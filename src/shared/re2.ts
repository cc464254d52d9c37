// What the RE2 regexes of user input (alert conditions, tracking plans' patterns) share: the size of a compiled
// program, and the worst time a run of it takes per character of text.
import type { RE2JS } from 're2js'

/**
 * The worst time of a regex run per character of text and instruction of its program (re2js's NFA, which a program
 * too large for its backtracker runs: 21 to 23 ns measured on the bench machine, for `\w{100}\d` and `\w{1000}\d`
 * over 8 and 64 KiB), with a margin. Most runs take far less; a run is refused only when this bound does not fit.
 */
export const REGEX_NS_PER_STEP = 30

/** The size of a compiled regex's program (re2js keeps it on its RE2). */
export function instructionsOf(regex: RE2JS): number {
  return (regex as unknown as { re2Input: { numberOfInstructions(): number } }).re2Input.numberOfInstructions()
}
