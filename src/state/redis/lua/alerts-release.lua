-- Releases suppressed alerts: each becomes firing again with a new `triggered` event in the streams (as
-- PagerDuty does when a maintenance window ends over an open alert). Two uses, one atomic call each:
--   due:    the alerts whose cover has ended (alerts:suppressed, scored by that end, or an hour ahead to check
--           that a long hold's window still exists), at most `limit` of them;
--   window: the alerts a window suppresses, after it was changed or deleted: due at `until` (its
--           current occurrence's end), released now when that is not later than now. Read from the
--           window's own index (alerts:acct:<account>:held:<window>), a page of `limit` after `cursor` per
--           call, so that a change of one window costs what that window holds, in short calls.
-- KEYS: the all-alerts stream
-- ARGV: key prefix (the account's on a Redis Cluster), now (ms), limit, now (ISO), maxlen,
--       the deleted-integrations set ('' with one Redis), window id ('' for the due ones), until (ms),
--       account id and cursor (the last alert id of the page before, '' for the first; window only)
-- Returns the ids of the alerts released; in window mode, the next cursor first ('' when the index is done).
-- include: alert-lifecycle.lua

local P, now, limit, atIso, maxlen, deleted = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], ARGV[5], ARGV[6]
local windowId, untilMs, acct, cursor = ARGV[7], tonumber(ARGV[8]), ARGV[9], ARGV[10]
local KEY = P .. 'alerts:suppressed'
local released = {}
INC.maxlen = maxlen

local function release(member, rec, by)
  local before = LC.act(rec, 'release', now, by)
  if not before then
    redis.call('ZREM', KEY, member)
    return
  end
  local incidentEvent = INC.track(P, rec, before, now, by)
  local entryId = LC.tell(P, KEYS[1], rec, 'triggered', atIso, by, incidentEvent, deleted, maxlen)
  LC.remember(rec, 'triggered', now, by, nil, entryId)
  -- nil: the auto-resolve deadline the alert has is kept.
  LC.save(P, rec, before, nil)
  table.insert(released, rec.id)
end

local function record(member)
  local acct, id = string.match(member, '^(.*)|([^|]*)$')
  return acct and LC.load(P, acct, id) or nil
end

if windowId == '' then
  for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEY, '-inf', now, 'LIMIT', 0, limit)) do
    local rec = record(member)
    if not rec then
      redis.call('ZREM', KEY, member)
    elseif rec.status == 'suppressed' and (rec.suppressedUntil or 0) > now and LC.windowLive(P, rec.accountId, rec.suppressedBy) then
      -- An hourly check of a long hold: its window still exists, so it is held on (and in the window's index:
      -- holds made before the index existed join it here).
      redis.call('ZADD', KEY, LC.recheckAt(rec, now), member)
      redis.call('ZADD', LC.held(P, rec.accountId, rec.suppressedBy), 0, rec.id)
    else
      release(member, rec, 'maintenance-end')
    end
  end
else
  local index = LC.held(P, acct, windowId)
  local page = redis.call('ZRANGEBYLEX', index, cursor == '' and '-' or '(' .. cursor, '+', 'LIMIT', 0, limit)
  for _, id in ipairs(page) do
    local rec = LC.load(P, acct, id)
    if rec and rec.suppressedBy == windowId and rec.status == 'suppressed' then
      if untilMs > now then
        rec.suppressedUntil = untilMs
        redis.call('HSET', LC.records(P, acct), rec.id, LC.encode(rec))
        redis.call('ZADD', KEY, LC.recheckAt(rec, now), acct .. '|' .. id)
      else
        release(acct .. '|' .. id, rec, 'maintenance-end')
      end
    else
      redis.call('ZREM', index, id)
    end
  end
  table.insert(released, 1, #page < limit and '' or page[#page])
end
return released
