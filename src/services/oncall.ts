// On-call schedules of an account: saved when they mean something (pipeline/oncall/schedules.ts checks their zone and
// times; their responders must be the account's users), asked who is on call and for their shifts, and shown to
// people's own calendars as iCalendar feeds (RFC 5545, by ical-generator) at secret addresses.
import { lazy } from '../shared/lazy.js'
import { Ajv } from 'ajv'
import icalGenerator from 'ical-generator'
import { ScheduleSchema } from '../pipeline/oncall/schedule-schema.js'
import {
  canonicalZone,
  scheduleProblems,
  shifts,
  type ScheduleDefinition,
  type Shift,
} from '../pipeline/oncall/schedules.js'
import { WorkBudget } from '../shared/budget.js'
import { AppError, invalid, Refusal, type FieldProblem } from '../shared/errors.js'
import { fieldProblems } from '../shared/field-problems.js'
import type { DirectoryStore, User } from '../state/redis/directory.js'
import {
  MAX_FEEDS,
  MAX_SCHEDULES,
  type Feed,
  type FeedSubject,
  type OnCallStore,
  type StoredSchedule,
} from '../state/redis/oncall.js'

export type { ScheduleDefinition }
export { INSTANT_PROBLEM, instantText } from '../pipeline/oncall/schedules.js'

const DAY_MS = 86_400_000
/** How far ahead "until" looks for the end of a shift or a gap, a step at a time (most end within the first). */
const UNTIL_DAYS = [2, 14, 92]
/** The CPU time computing one calendar feed may take (its schedules one after another, other work between them). */
const FEED_CPU_MS = 2000
/** The most shifts one feed holds (writing one takes a third of a millisecond). */
const MAX_FEED_EVENTS = 1000
/** What a calendar feed shows: the past two weeks and the next half year. */
const FEED_PAST_DAYS = 14
const FEED_AHEAD_DAYS = 183

export interface ResponderView {
  readonly id: string
  readonly userName: string
  readonly displayName?: string
}

/** A shift with its responder as the directory has them now. */
export interface ShiftView {
  readonly start: number
  readonly end: number
  readonly responder: ResponderView
}

/** A schedule's shape (the API checks it before the service; a file of `sluice schedules add` is checked here). */
const validShape = lazy(() => new Ajv({ allErrors: true, strict: false, verbose: true }).compile(ScheduleSchema))

const responderOf = (users: ReadonlyMap<string, User>, id: string): ResponderView => {
  const user = users.get(id)
  if (!user) return { id, userName: id, displayName: 'a removed user' }
  return { id, userName: user.userName, ...(user.displayName !== undefined && { displayName: user.displayName }) }
}

/** Text without the control characters RFC 5545 refuses in TEXT (ical-generator escapes only line breaks). */
const plainText = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ')
/** A text property's value as RFC 5545 writes it (ical-generator leaves a calendar's name as given). */
const icalText = (text: string) => plainText(text).replace(/[\\;,]/g, (c) => `\\${c}`)

export class OnCallService {
  constructor(
    private readonly store: OnCallStore,
    private readonly directory: DirectoryStore,
  ) {}

  /** Saves a new schedule (id undefined) or a schedule's new version; 400s name the field, 409 a stale version. */
  async save(
    accountId: string,
    definition: ScheduleDefinition & { version?: number },
    updatedBy: string,
    id?: string,
  ): Promise<StoredSchedule> {
    const { version, ...schedule } = definition
    const problems = await this.problems(accountId, schedule)
    if (problems.length > 0) throw invalid(problems, 'the schedule was not saved')
    const saved = await this.store.saveSchedule(
      accountId,
      { overrides: [], ...schedule, timeZone: canonicalZone(schedule.timeZone) },
      updatedBy,
      id,
      version,
    )
    if (saved === 'missing') throw new Refusal('NOT_FOUND', `no schedule ${id}`)
    if (saved === 'stale')
      throw new Refusal('CONFLICT', `schedule ${id} changed since version ${version}: read it again, then replace it`)
    if (saved === 'full')
      throw new Refusal('CONFLICT', `this account has ${MAX_SCHEDULES} schedules, the most it may keep`)
    return saved
  }

  /** What keeps a schedule from being saved, each naming its field (none: it may be). */
  async problems(accountId: string, schedule: ScheduleDefinition): Promise<FieldProblem[]> {
    const valid = validShape()
    if (!valid(schedule)) return fieldProblems(valid.errors ?? [], 'body')
    const problems = scheduleProblems(schedule)
    problems.push(...(await this.unknownResponders(accountId, schedule)))
    return problems
  }

  /** Responders that are not users of the account, named by their place. */
  private async unknownResponders(accountId: string, s: ScheduleDefinition): Promise<FieldProblem[]> {
    const places: [string, string][] = [
      ...s.layers.flatMap((l, i) => l.responders.map((r, j): [string, string] => [`layers[${i}].responders[${j}]`, r])),
      ...(s.overrides ?? []).map((o, i): [string, string] => [`overrides[${i}].responder`, o.responder]),
    ]
    const known = new Set(
      (await this.directory.usersById(accountId, [...new Set(places.map(([, id]) => id))])).map((u) => u.id),
    )
    return places
      .filter(([, id]) => !known.has(id))
      .map(([field, id]) => ({ field, problem: `${JSON.stringify(id)} is not a user of this account` }))
  }

  async get(accountId: string, id: string): Promise<StoredSchedule> {
    const schedule = await this.store.schedule(accountId, id)
    if (!schedule) throw new Refusal('NOT_FOUND', `no schedule ${id}`)
    return schedule
  }

  list(accountId: string): Promise<StoredSchedule[]> {
    return this.store.schedules(accountId)
  }

  async remove(accountId: string, id: string): Promise<void> {
    if (!(await this.store.removeSchedule(accountId, id))) throw new Refusal('NOT_FOUND', `no schedule ${id}`)
  }

  /** The shifts of [from, to) with their responders. */
  async shifts(accountId: string, schedule: ScheduleDefinition, from: number, to: number): Promise<ShiftView[]> {
    const list = shifts(schedule, from, to)
    return this.withResponders(accountId, list)
  }

  private async withResponders(accountId: string, list: readonly Shift[]): Promise<ShiftView[]> {
    const users = await this.people(accountId, list)
    return list.map((s) => ({ start: s.start, end: s.end, responder: responderOf(users, s.responder) }))
  }

  /** The users on call in these shifts, by id. */
  private async people(accountId: string, list: readonly Shift[]): Promise<Map<string, User>> {
    const ids = [...new Set(list.map((s) => s.responder))]
    return new Map((await this.directory.usersById(accountId, ids)).map((u) => [u.id, u]))
  }

  /** Who is on call at `at`, and until when that holds (the shift's end, or the gap's). */
  async onCall(
    accountId: string,
    schedule: ScheduleDefinition,
    at: number,
  ): Promise<{ responder: ResponderView | null; until: number | null }> {
    for (const days of UNTIL_DAYS) {
      const to = at + days * DAY_MS
      const first = shifts(schedule, at, to)[0]
      const last = days === UNTIL_DAYS.at(-1)
      if (!first) {
        if (last) return { responder: null, until: null }
      } else if (first.start > at) return { responder: null, until: first.start }
      else if (first.end < to || last) {
        const [view] = await this.withResponders(accountId, [first])
        return { responder: view!.responder, until: first.end < to ? first.end : null }
      }
    }
    throw new Error('unreachable: the last lookahead answers')
  }

  /** A secret feed address's token for a schedule of the account, or one of its users. */
  async createFeed(accountId: string, subject: FeedSubject): Promise<string> {
    if ('scheduleId' in subject) await this.get(accountId, subject.scheduleId)
    else if ((await this.directory.usersById(accountId, [subject.userId])).length === 0)
      throw invalid([{ field: 'userId', problem: `${JSON.stringify(subject.userId)} is not a user of this account` }])
    const made = await this.store.createFeed(accountId, subject)
    if (made === 'full')
      throw new Refusal('CONFLICT', `this account has ${MAX_FEEDS} calendar feeds, the most it may keep: revoke some`)
    return made.token
  }

  /**
   * The iCalendar text of a feed token (404 for a token that is not one); `admit` rates the feed's account before its
   * shifts are computed.
   */
  async calendar(token: string, now: number, admit: (accountId: string) => Promise<void>): Promise<string> {
    const feed = await this.store.feed(token)
    if (!feed) throw new Refusal('NOT_FOUND', 'no such calendar feed')
    await admit(feed.accountId)
    // Whole days, so that an event's start (its UID) stays the same from one fetch to the next.
    const today = Math.floor(now / DAY_MS) * DAY_MS
    const from = today - FEED_PAST_DAYS * DAY_MS
    const to = today + FEED_AHEAD_DAYS * DAY_MS
    const schedules = await this.feedSchedules(feed)
    if ('scheduleId' in feed && schedules.length === 0) {
      await this.store.removeFeed(token)
      throw new Refusal('NOT_FOUND', 'no such calendar feed')
    }
    const users = await this.directory.usersById(feed.accountId, 'userId' in feed ? [feed.userId] : [])
    const title = 'userId' in feed ? `On call: ${users[0]?.displayName ?? users[0]?.userName ?? feed.userId}` : ''
    const calendar = icalGenerator({
      name: icalText(title || `On call: ${schedules[0]!.name}`),
      prodId: { company: 'sluice', product: 'on-call' },
    })
    // A feed of a responder reads every schedule of the account: computed one after another, other requests served
    // between them, within FEED_CPU_MS and MAX_FEED_EVENTS.
    const budget = new WorkBudget({ maxSteps: Infinity, maxCpuMs: FEED_CPU_MS }, 'this calendar feed')
    const computed: { schedule: StoredSchedule; shifts: Shift[] }[] = []
    let events = 0
    for (const schedule of schedules) {
      await budget.yield()
      if (budget.spentMs > FEED_CPU_MS)
        throw new AppError(
          'QUERY_LIMIT',
          `this calendar feed's schedules take more than ${FEED_CPU_MS} ms to compute: make their layers simpler (fewer restrictions, longer turns)`,
          false,
        )
      const list = shifts(schedule, from, to).filter((s) => !('userId' in feed) || s.responder === feed.userId)
      events += list.length
      if (events > MAX_FEED_EVENTS)
        throw new AppError(
          'QUERY_LIMIT',
          `this calendar feed would hold more than ${MAX_FEED_EVENTS} shifts: make its schedules' turns longer, or ask the API for the shifts of fewer days`,
          false,
        )
      computed.push({ schedule, shifts: list })
    }
    const people = await this.people(
      feed.accountId,
      computed.flatMap((c) => c.shifts),
    )
    for (const { schedule, shifts: list } of computed)
      for (const s of list) {
        const who = responderOf(people, s.responder)
        calendar.createEvent({
          id: `${schedule.id}-${s.start}-${s.responder}@sluice`,
          sequence: schedule.version,
          stamp: new Date(schedule.updatedAt),
          start: new Date(s.start),
          end: new Date(s.end),
          summary: plainText(`On call: ${schedule.name} (${who.displayName ?? who.userName})`),
          x: [{ key: 'X-SLUICE-RESPONDER', value: s.responder }],
        })
      }
    return calendar.toString()
  }

  /** Revokes a feed of the account (404 for a token that is none of its feeds). */
  async removeFeed(accountId: string, token: string): Promise<void> {
    const feed = await this.store.feed(token)
    if (feed?.accountId !== accountId || !(await this.store.removeFeed(token)))
      throw new Refusal('NOT_FOUND', 'no such calendar feed')
  }

  private async feedSchedules(feed: Feed): Promise<StoredSchedule[]> {
    if ('scheduleId' in feed) {
      const one = await this.store.schedule(feed.accountId, feed.scheduleId)
      return one ? [one] : []
    }
    return this.store.schedules(feed.accountId)
  }
}
