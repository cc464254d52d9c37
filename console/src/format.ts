// How figures and times read, the same in every view: a time in the reader's own zone and language (never a raw ISO
// string), how long ago, a count with its noun.

/** A time as a person reads it, in their zone: "29 Nov 2026, 03:11". */
export function when(t: string | number): string {
  const d = new Date(t)
  return Number.isNaN(d.getTime()) ? '–' : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

/** A count with its noun, singular for one: "1 event", "3 events". */
export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`

/** How long ago a time was ("42 seconds ago", "3 hours ago"), its date beyond two days; `none` for no time. */
export function ago(iso: string | null, none: string): string {
  if (iso === null) return none
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000))
  if (s < 120) return `${plural(s, 'second')} ago`
  if (s < 7200) return `${plural(Math.round(s / 60), 'minute')} ago`
  if (s < 172_800) return `${plural(Math.round(s / 3600), 'hour')} ago`
  return `on ${new Date(iso).toLocaleDateString()}`
}

/** A count as a person reads it on an axis: 1,200, 15k, 2.5M. */
export function count(v: number): string {
  const a = Math.abs(v)
  if (a >= 1e6) return `${+(v / 1e6).toFixed(1)}M`
  if (a >= 1e4) return `${+(v / 1e3).toFixed(1)}k`
  return Number.isInteger(v) ? v.toLocaleString('en') : v.toFixed(1)
}
