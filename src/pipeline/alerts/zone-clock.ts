// Wall-clock times in IANA zones, resolved as luxon resolves them but without its cost per call. luxon asks Intl for a
// zone's offset at every conversion (tens of microseconds each: 200 weekly windows over a month took a second); here a
// zone's offsets are read from luxon once per block of BLOCK_MS (sampled every SAMPLE_MS, each change found to the
// millisecond) into a table shared by every window and account of the process, and a conversion is arithmetic.
// The conversions follow luxon's own (fixOffset, startOf, plus, set), so the instants are luxon's to the millisecond;
// test/unit/pipeline/alerts/windows.test.ts checks them against luxon itself.
import { IANAZone } from 'luxon'

const BLOCK_MS = 32 * 86_400_000
/** No zone changes its offset twice within this (tzdb's closest changes are weeks apart). */
const SAMPLE_MS = 3 * 3_600_000
/** Zone blocks kept (about 600 zones exist; a few blocks each around now). */
const MAX_BLOCKS = 4096

interface Block {
  /** Instants from which each offset holds, the first the block's start. */
  readonly starts: number[]
  /** Minutes east of UTC. */
  readonly offsets: number[]
}

const blocks = new Map<string, Block>()

function readBlock(zone: string, index: number): Block {
  const key = `${zone}|${index}`
  let block = blocks.get(key)
  if (block) return block
  const z = IANAZone.create(zone)
  const from = index * BLOCK_MS
  const to = from + BLOCK_MS
  const starts = [from]
  const offsets = [z.offset(from)]
  let prevAt = from
  let prev = offsets[0]!
  for (let t = from + SAMPLE_MS; prevAt < to; t += SAMPLE_MS) {
    const at = Math.min(t, to)
    const o = z.offset(at)
    if (o !== prev) {
      // The first millisecond of the new offset, in (prevAt, at].
      let lo = prevAt
      let hi = at
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2)
        if (z.offset(mid) === prev) lo = mid
        else hi = mid
      }
      starts.push(hi)
      offsets.push(o)
      prev = o
    }
    prevAt = at
  }
  block = { starts, offsets }
  if (blocks.size >= MAX_BLOCKS) blocks.delete(blocks.keys().next().value as string)
  blocks.set(key, block)
  return block
}

/** The zone's offset from UTC (minutes) at an instant, as luxon's IANAZone.offset gives it. */
export function offsetAt(zone: string, ms: number): number {
  const { starts, offsets } = readBlock(zone, Math.floor(ms / BLOCK_MS))
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (starts[mid]! <= ms) lo = mid
    else hi = mid - 1
  }
  return offsets[lo]!
}

interface WallClock {
  readonly year: number
  /** 1 to 12. */
  readonly month: number
  readonly day: number
  readonly hour: number
  readonly minute: number
  readonly second: number
  readonly millisecond: number
}

/** An instant in a zone, as luxon holds a DateTime: its epoch ms, its offset, and its wall-clock fields. */
export interface ZonedTime extends WallClock {
  readonly ms: number
  readonly offset: number
  /** 1 (Monday) to 7 (Sunday), as luxon's weekday. */
  readonly weekday: number
}

function zoned(ms: number, offset: number): ZonedTime {
  const d = new Date(ms + offset * 60_000)
  return {
    ms,
    offset,
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
    weekday: d.getUTCDay() === 0 ? 7 : d.getUTCDay(),
  }
}

/** Wall-clock fields to an instant, starting from a guessed offset: luxon's fixOffset (a time in a gap moves on). */
function resolve(zone: string, c: WallClock, guess: number): ZonedTime {
  const local = Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second, c.millisecond)
  let utc = local - guess * 60_000
  const o2 = offsetAt(zone, utc)
  if (o2 === guess) return zoned(utc, guess)
  utc -= (o2 - guess) * 60_000
  const o3 = offsetAt(zone, utc)
  if (o2 === o3) return zoned(utc, o2)
  return zoned(local - Math.min(o2, o3) * 60_000, Math.max(o2, o3))
}

/** DateTime.fromMillis(ms, {zone}). */
export function inZone(zone: string, ms: number): ZonedTime {
  return zoned(ms, offsetAt(zone, ms))
}

/** dt.startOf('day'). */
export function startOfDay(zone: string, t: ZonedTime): ZonedTime {
  return resolve(zone, { ...t, hour: 0, minute: 0, second: 0, millisecond: 0 }, t.offset)
}

/** dt.plus({days}) (negative: minus). */
export function plusDays(zone: string, t: ZonedTime, days: number): ZonedTime {
  return resolve(zone, { ...t, day: t.day + days }, t.offset)
}

/** dt.set({hour, minute}). */
export function atTime(zone: string, t: ZonedTime, hour: number, minute: number): ZonedTime {
  return resolve(zone, { ...t, hour, minute }, t.offset)
}
