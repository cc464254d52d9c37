-- Alert lifecycle (included by alerts-write, alerts-act and alerts-auto-resolve): one record per
-- incident, found by (integration, dedup key). Keys, under the prefix P (state/redis/alerts.ts; on a
-- Redis Cluster the account's prefix with its hash tag, state/redis/keys.ts):
--   P alerts:acct:<account>:records          hash alert id -> JSON record (its head first: LC.encode)
--   P alerts:acct:<account>:idx:<group>      zset alert id by lastSeenAt (ms x 1000 + a tie-breaker): all, firing, acknowledged,
--                                            resolved, open, open:<field>:<value> (field: integrationId,
--                                            severity, service, environment, team)
--   P alerts:incidents:<integration>         hash dedup key -> id of its latest incident
--   P alerts:stats:<integration>             hash ignored, dedupFallback, statusUnknown counts
-- (not under alerts:integration:*, the streams downstream readers may read)
--   P alerts:auto-resolve                    zset "<account>|<alert id>" by when it resolves by itself
--   P alerts:resolved                        zset "<account>|<alert id>" by when it was resolved (pruned
--                                            after the retention, alerts-prune.lua)
--   P alerts:requests:<integration>          zset of its last requests' ids (replays of the edge spool)
--   P alerts:suppressed                      zset "<account>|<alert id>" of suppressed alerts by when their
--                                            cover ends, or within the hour to check their window still exists
--                                            (alerts-release.lua releases them)
--   P alerts:acct:<account>:windows          set of the ids of the account's maintenance windows (written with
--                                            them, state/redis/rules-and-windows.ts): a hold names a window there
--   P alerts:acct:<account>:held:<window>    zset (all scores 0, read in pages by id) of the alerts the window holds:
--                                            what a change of that window releases (alerts-release.lua)
--   P alerts:acct:<account>:dropped          stream of the alerts rules dropped (request id, rule), a day of them
--   P alerts:seq                             the last alert id given
-- include: incidents.lua
local LC = {}
local HISTORY = 50
local FILTERS = {'integrationId', 'severity', 'service', 'environment', 'team'}
local FIELDS = {'severity', 'description', 'source', 'service', 'environment', 'team', 'correlationId', 'timestamp'}

function LC.records(P, acct) return P .. 'alerts:acct:' .. acct .. ':records' end
local function idx(P, acct, group) return P .. 'alerts:acct:' .. acct .. ':idx:' .. group end
function LC.stats(P, integ) return P .. 'alerts:stats:' .. integ end
function LC.incidents(P, integ) return P .. 'alerts:incidents:' .. integ end
local incidents = LC.incidents
local AUTO = 'alerts:auto-resolve'
local SUPPRESSED = 'alerts:suppressed'
-- A held alert whose window was deleted (by a change the release missed) is found within this long.
local RECHECK_MS = 3600000

-- Whether a maintenance window of the account still exists: a consumer may shape an alert with windows it read
-- before one was deleted.
function LC.windowLive(P, acct, id)
  return redis.call('SISMEMBER', P .. 'alerts:acct:' .. acct .. ':windows', id) == 1
end
function LC.recheckAt(rec, now)
  return math.min(rec.suppressedUntil or now, now + RECHECK_MS)
end
function LC.held(P, acct, window) return P .. 'alerts:acct:' .. acct .. ':held:' .. window end

-- Milliseconds of an ISO 8601 UTC time as Date.toISOString writes it (nil for anything else).
function LC.isoMs(s)
  local y, mo, d, h, mi, se, ms = string.match(s or '', '^(%d%d%d%d)-(%d%d)-(%d%d)T(%d%d):(%d%d):(%d%d)%.?(%d*)Z$')
  if not y then return nil end
  y, mo, d = tonumber(y), tonumber(mo), tonumber(d)
  if mo <= 2 then y = y - 1 end
  local era = math.floor(y / 400)
  local yoe = y - era * 400
  local doy = math.floor((153 * ((mo + 9) % 12) + 2) / 5) + d - 1
  local days = era * 146097 + yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + doy - 719468
  return ((days * 24 + tonumber(h)) * 60 + tonumber(mi)) * 60000 + tonumber(se) * 1000 + (tonumber(ms) or 0)
end

-- Whether the integration still exists (an alert of a deleted one gets no more stream entries): its
-- record with one Redis; on a Redis Cluster, where records live in another slot, it is not in the
-- account's set of deleted integrations (`deleted`, the set's key; '' with one Redis).
function LC.integrationExists(P, integ, deleted)
  if deleted ~= '' then return redis.call('SISMEMBER', deleted, integ) == 0 end
  return redis.call('EXISTS', P .. 'integration:' .. integ) == 1
end

-- A record's head: the fields a repeat changes (its count, when it was last seen and by which request) and those that
-- say whether a notification is such a repeat (its status, its content's digest, its incident), first in its JSON and
-- in this form, so that LC.repeated counts a repeat without decoding and encoding the whole record (that was most of
-- a repeat's cost). The rest of the JSON is the record's other fields: readers see one JSON object either way.
local HEAD = '{"count":%d,"lastSeenAt":%d,"status":"%s","digest":"%s","incidentId":"%s","lastRequestId":"%s"'
local HEAD_READ = '^{"count":(%d+),"lastSeenAt":(%d+),"status":"(%a+)","digest":"([%w_%-]+)","incidentId":"([%w_%-]+)","lastRequestId":"[^"\\%c]*",()'
local function whole(n) return type(n) == 'number' and n >= 0 and n == math.floor(n) end
local function plain(v, pattern) return type(v) == 'string' and string.match(v, pattern) ~= nil end

-- A record's JSON: with its head when its fields fit the head's form (a record of a notification without a digest, of
-- a release before it, has none and is written as it is).
function LC.encode(rec)
  local c, s, st, d, inc, r = rec.count, rec.lastSeenAt, rec.status, rec.digest, rec.incidentId, rec.lastRequestId
  if not (whole(c) and whole(s) and plain(st, '^%a+$') and plain(d, '^[%w_%-]+$') and plain(inc, '^[%w_%-]+$')
    and plain(r, '^[^"\\%c]*$')) then
    return cjson.encode(rec)
  end
  rec.count, rec.lastSeenAt, rec.status, rec.digest, rec.incidentId, rec.lastRequestId = nil, nil, nil, nil, nil, nil
  local body = cjson.encode(rec)
  rec.count, rec.lastSeenAt, rec.status, rec.digest, rec.incidentId, rec.lastRequestId = c, s, st, d, inc, r
  return string.format(HEAD, c, s, st, d, inc, r) .. (body == '{}' and '}' or ',' .. string.sub(body, 2))
end

function LC.load(P, acct, id)
  local j = redis.call('HGET', LC.records(P, acct), id)
  if not j then return nil end
  return cjson.decode(j)
end

-- The index groups a record is in.
local function groups(rec)
  local g = {['all'] = true, [rec.status] = true}
  if rec.status ~= 'resolved' then
    g['open'] = true
    for _, f in ipairs(FILTERS) do
      local v = rec[f]
      if type(v) == 'string' and v ~= '' then g['open:' .. f .. ':' .. v] = true end
    end
  end
  return g
end

-- What the index groups of a record depend on, before it changes (records are changed in place:
-- copying a whole record per notification was most of a repeat's cost).
function LC.snapshot(rec)
  local s = {status = rec.status, suppressedBy = rec.suppressedBy, inhibitedBy = rec.inhibitedBy}
  for _, f in ipairs(FILTERS) do s[f] = rec[f] end
  return s
end

-- A record's score in its index groups: ordered by last notification; alerts of one notification (a group) share its
-- millisecond, so the id's last three digits break the tie and a list cursor (score, id) never meets long runs of
-- equals.
local function score(lastSeenAt, id) return lastSeenAt * 1000 + (tonumber(string.match(id, '%d+$') or '0') % 1000) end

-- Writes a record and moves it between index groups (`old`: its snapshot before the change, or nil
-- for a new one); the auto-resolve deadline follows its status (left as it is when autoMs is nil), and
-- a suppressed alert is due for release when its window ends.
function LC.save(P, rec, old, autoMs)
  local before = old and groups(old) or {}
  local after = groups(rec)
  for g in pairs(before) do
    if not after[g] then redis.call('ZREM', idx(P, rec.accountId, g), rec.id) end
  end
  local order = score(rec.lastSeenAt, rec.id)
  for g in pairs(after) do redis.call('ZADD', idx(P, rec.accountId, g), order, rec.id) end
  redis.call('HSET', LC.records(P, rec.accountId), rec.id, LC.encode(rec))
  local member = rec.accountId .. '|' .. rec.id
  local firing = rec.status == 'firing' or rec.status == 'suppressed' or rec.status == 'inhibited'
  if firing and autoMs and autoMs > 0 then
    redis.call('ZADD', P .. AUTO, rec.lastSeenAt + autoMs, member)
  elseif autoMs or not firing then
    redis.call('ZREM', P .. AUTO, member)
  end
  if rec.status == 'suppressed' then
    redis.call('ZADD', P .. SUPPRESSED, LC.recheckAt(rec, rec.lastSeenAt or 0), member)
  else
    redis.call('ZREM', P .. SUPPRESSED, member)
  end
  -- The window holding it, in that window's index.
  local heldBefore = old and old.status == 'suppressed' and old.suppressedBy or nil
  local heldNow = rec.status == 'suppressed' and rec.suppressedBy or nil
  if heldBefore and heldBefore ~= heldNow then redis.call('ZREM', LC.held(P, rec.accountId, heldBefore), rec.id) end
  if heldNow then redis.call('ZADD', LC.held(P, rec.accountId, heldNow), 0, rec.id) end
  if rec.status == 'resolved' then redis.call('ZADD', P .. 'alerts:resolved', rec.resolvedAt or rec.lastSeenAt, member) end
  LC.inhibitFollow(P, rec)
end

function LC.remember(rec, event, at, by, requestId, entryId)
  local h = rec.history or {}
  table.insert(h, {event = event, at = at, by = by, requestId = requestId, entryId = entryId})
  while #h > HISTORY do table.remove(h, 1) end
  rec.history = h
end

-- The stream entry of a change told by the record rather than by a notification's own fields (an
-- acknowledge or resolve by the sender, the API or the auto-resolve job): the record's fields, then
-- the lifecycle fields, and its incident's (incidentEvent: what the change did to the incident, INC.track).
function LC.entry(rec, event, atIso, by, requestId, incidentEvent)
  local e = {}
  for _, f in ipairs(FIELDS) do
    if type(rec[f]) == 'string' and rec[f] ~= '' then
      table.insert(e, f); table.insert(e, rec[f])
    end
  end
  local custom = rec.customFields
  if type(custom) ~= 'table' or next(custom) == nil then custom = {} end
  for _, v in ipairs({'customFields', next(custom) == nil and '{}' or cjson.encode(custom), 'dedupKey', rec.dedupKey, 'status', rec.status,
    'receivedAt', atIso, 'integrationId', rec.integrationId, 'requestId', requestId or '', 'event', event, 'alertId', rec.id,
    'count', tostring(rec.count), 'by', by}) do
    table.insert(e, v)
  end
  LC.incidentFields(e, rec, incidentEvent)
  return e
end

-- Writes a change told by the record (LC.entry) to the all-alerts stream `all` and its integration's; nothing for
-- an alert of a deleted integration (`deleted`: as LC.integrationExists takes it). The entry's id, or nil.
function LC.tell(P, all, rec, event, atIso, by, incidentEvent, deleted, maxlen)
  if not LC.integrationExists(P, rec.integrationId, deleted) then return nil end
  local entry = LC.entry(rec, event, atIso, by, nil, incidentEvent)
  local id = redis.call('XADD', all, 'MAXLEN', '~', maxlen, '*', unpack(entry))
  redis.call('XADD', P .. 'alerts:integration:' .. rec.integrationId, 'MAXLEN', '~', maxlen, '*', unpack(entry))
  return id
end

-- Appends an alert's incident and what the change did to it to a stream entry's fields.
function LC.incidentFields(e, rec, incidentEvent)
  if not rec.incidentId then return end
  table.insert(e, 'incidentId'); table.insert(e, rec.incidentId)
  table.insert(e, 'incidentEvent'); table.insert(e, incidentEvent or '')
end

-- The index moves of repeats, written together (one ZADD per index for a call's repeats, not one per repeat and index:
-- those were a third of a repeat's cost). LC.flush writes them; the caller flushes before anything else reads or
-- changes a record's indexes (the whole path), and before it returns.
local pending, pendingOrder = {}, {}
local function later(key, score, member)
  local p = pending[key]
  if not p then
    p = {}
    pending[key] = p
    table.insert(pendingOrder, key)
  end
  table.insert(p, score); table.insert(p, member)
end
function LC.flush()
  for _, key in ipairs(pendingOrder) do
    local p = pending[key]
    -- In the order they came (a member given twice takes its last score), a bounded number of arguments per call.
    for from = 1, #p, 1000 do redis.call('ZADD', key, unpack(p, from, math.min(from + 999, #p))) end
  end
  pending, pendingOrder = {}, {}
end

-- A firing notification of an open incident that says what its record says (the same digest), with no window holding
-- it: a repeat that changes the record's count and times only, and nothing else the record is in (its index groups,
-- but for their order; its incident; its pairs). Counted in the record's head without decoding it, with what LC.save
-- would write: returns the record's count and its incident's id; nil leaves the notification to LC.notify. `id` and
-- `j`: the latest record of the notification's key and its JSON (LC.incidents), if any.
function LC.repeated(P, acct, integ, f, at, autoMs, id, j)
  if not j or f.status ~= 'firing' or not f.digest or f.suppressedBy or f.overBudget or not plain(f.requestId, '^[^"\\%c]*$') then
    return nil
  end
  local c, s, st, d, inc, rest = string.match(j, HEAD_READ)
  if d ~= f.digest or (st ~= 'firing' and st ~= 'acknowledged') then return nil end
  c, s = tonumber(c) + 1, math.max(tonumber(s), at)
  redis.call('HSET', LC.records(P, acct), id, string.format(HEAD, c, s, st, d, inc, f.requestId) .. ',' .. string.sub(j, rest))
  -- Its index groups (LC.save's: the filters' values are the notification's, as the digests are equal), in their order.
  local order = score(s, id)
  for g in pairs(groups(setmetatable({status = st, integrationId = integ}, {__index = f}))) do later(idx(P, acct, g), order, id) end
  local member = acct .. '|' .. id
  if st == 'firing' and autoMs > 0 then
    later(P .. AUTO, s + autoMs, member)
  else
    redis.call('ZREM', P .. AUTO, member)
  end
  return c, inc
end

-- Applies a notification (the alert's entry fields as a map, `at` its receive time in ms). Returns
-- the record, the one before it (or nil), the lifecycle event, and whether a stream entry is due;
-- nil when the notification is ignored (an acknowledge or resolve of no open incident: counted). `curId` and `curJson`:
-- the latest record of the notification's key and its JSON (LC.incidents), if any.
function LC.notify(P, acct, integ, f, at, emitRepeats, curId, curJson)
  -- The window the alert arrived in, if it still exists.
  local held = f.status == 'firing' and f.suppressedBy and LC.windowLive(P, acct, f.suppressedBy) and f.suppressedBy or nil
  local old = curJson and cjson.decode(curJson) or nil
  local open = old ~= nil and old.status ~= 'resolved'
  if f.status ~= 'firing' and not open then
    redis.call('HINCRBY', LC.stats(P, integ), 'ignored', 1)
    return nil
  end
  local rec, event
  if open then
    rec = old
    old = LC.snapshot(rec)
    rec.count = rec.count + 1
    event = 'repeated'
    if f.status == 'acknowledged' and (rec.status == 'firing' or rec.status == 'suppressed' or rec.status == 'inhibited') then
      rec.status = 'acknowledged'; rec.acknowledgedAt = at; rec.acknowledgedBy = 'source'; event = 'acknowledged'
    elseif f.status == 'resolved' then
      rec.status = 'resolved'; rec.resolvedAt = at; rec.resolvedBy = 'source'; event = 'resolved'
    elseif f.status == 'firing' and rec.status == 'suppressed' then
      if held then
        -- Still in a window (maybe another one, or a later occurrence): quiet until it ends.
        rec.suppressedBy = held; rec.suppressedUntil = LC.isoMs(f.suppressedUntil) or rec.suppressedUntil
      else
        -- Firing outside any window: told now, as a new incident would be.
        rec.status = 'firing'; rec.suppressedUntil = nil; event = 'triggered'
      end
    end
  else
    -- A new incident: the first of its key, or a firing after the last one was resolved.
    local id = 'al_' .. tostring(redis.call('INCR', P .. 'alerts:seq'))
    rec = {id = id, accountId = acct, integrationId = integ, dedupKey = f.dedupKey, status = 'firing', count = 1, firstSeenAt = at, history = {}}
    event = old and 'reopened' or 'triggered'
    if old then rec.previousAlertId = old.id end
    if held then
      -- Arrived in a maintenance window: stored and shown, not told, until the window ends.
      rec.status = 'suppressed'; rec.suppressedBy = held; rec.suppressedUntil = LC.isoMs(f.suppressedUntil) or at
      event = 'suppressed'
      redis.call('HINCRBY', LC.stats(P, integ), 'suppressed', 1)
    end
    redis.call('HSET', incidents(P, integ), f.dedupKey, id)
    old = nil
  end
  -- What an incident says is what its firing notifications say: an acknowledge or resolve (PagerDuty's
  -- and Opsgenie's carry no details) changes its status only.
  if f.status == 'firing' then
    for _, k in ipairs(FIELDS) do rec[k] = f[k] end
    local ok, custom = pcall(cjson.decode, f.customFields or '{}')
    rec.customFields = (ok and type(custom) == 'table') and custom or {}
    -- What the alert rules did (tags they added, the rule set's version and the rules that changed it).
    for _, k in ipairs({'tags', 'rulesApplied'}) do
      local okk, list = pcall(cjson.decode, f[k] or 'null')
      rec[k] = (okk and type(list) == 'table' and #list > 0) and list or nil
    end
    rec.rulesVersion = tonumber(f.rulesVersion or '')
    rec.digest = f.digest
    -- Why the rules and windows were not applied (they went over the payload's budget), if so.
    rec.overBudget = f.overBudget
    if f.overBudget then redis.call('HINCRBY', LC.stats(P, integ), 'overBudget', 1) end
  end
  if at > (rec.lastSeenAt or 0) then rec.lastSeenAt = at end
  rec.lastRequestId = f.requestId
  -- A repeat of a held alert is not told even to readers of repeats: it was never told.
  return rec, old, event, event ~= 'repeated' or (emitRepeats and rec.status ~= 'suppressed' and rec.status ~= 'inhibited'), held
end

-- An acknowledge or resolve from outside the notifications (the API, the auto-resolve job): changes
-- the record and returns its snapshot before the change, or nil and why not.
function LC.act(rec, action, at, by)
  if rec.status == 'resolved' then return nil, 'resolved' end
  if action == 'release' then
    if rec.status ~= 'suppressed' then return nil, rec.status end
    local before = LC.snapshot(rec)
    rec.status = 'firing'; rec.suppressedUntil = nil
    return before, nil
  end
  if action == 'acknowledge' and rec.status == 'acknowledged' then return nil, 'acknowledged' end
  local before = LC.snapshot(rec)
  if action == 'acknowledge' then
    rec.status = 'acknowledged'; rec.acknowledgedAt = at; rec.acknowledgedBy = by
  else
    rec.status = 'resolved'; rec.resolvedAt = at; rec.resolvedBy = by
  end
  return before, nil
end

-- Removes a resolved record, its index entries, and its key's pointer to it.
function LC.prune(P, rec)
  for g in pairs(groups(rec)) do redis.call('ZREM', idx(P, rec.accountId, g), rec.id) end
  redis.call('HDEL', LC.records(P, rec.accountId), rec.id)
  if redis.call('HGET', incidents(P, rec.integrationId), rec.dedupKey) == rec.id then redis.call('HDEL', incidents(P, rec.integrationId), rec.dedupKey) end
end

-- include: inhibition.lua
