-- Incidents (included by alert-lifecycle.lua): a group of alerts of one account, decided when an alert record is
-- made, in the same script call as the alert and its Kafka offset. Keys, under the prefix P:
--   P alerts:acct:<account>:incidents             hash incident id -> JSON record (without its members)
--   P alerts:acct:<account>:incident-members:<id> zset alert id by the order it joined (at most MEMBERS)
--   P alerts:acct:<account>:incident-keys         hash group key -> id of the key's latest incident
--   P alerts:acct:<account>:incident-idx:<group>  zset incident id by lastSeenAt (ms x 1000 + a tie-breaker): all,
--                                                 open, pending, triggered, acknowledged, suppressed, resolved
--   P alerts:incident-events                      stream of incident changes (readers downstream; on a cluster one
--                                                 per account, under its hash tag)
--   P alerts:incidents-resolved                   zset "<account>|<incident id>" by when it resolved (pruned with
--                                                 resolved alerts)
--   P alerts:incident-seq                         the last incident id given
-- An alert's group comes from the account's rules (the consumer renders its key): {key, windowMs, title,
-- minAlerts}; without one, its key is its own (integration, dedup key), so each alert has an incident of its own
-- and a key that fires again after it resolved opens a new one (previousIncidentId).
-- Status, derived from the members' statuses: resolved when none is open; pending while fewer than minAlerts of
-- its alerts arrived within the window; acknowledged once acknowledged (by the API, or when no member is firing
-- and one is acknowledged: it stays so until it resolves, as PagerDuty's do); triggered while a member fires;
-- suppressed when its open members are all held by maintenance windows.
-- include: incident-timeline.lua
local INC = {}
-- Alerts one incident takes; the next alert of its key opens a continuation (previousIncidentId), counted as its overflow.
local MEMBERS = 10000
local SEVERITY_RANK = {critical = 4, high = 3, warning = 2, info = 1}
-- Entries of the incident-events stream, about (the scripts that write it set it from their own maxlen).
INC.maxlen = '10000'

local function key(P, acct, what) return P .. 'alerts:acct:' .. acct .. ':' .. what end

-- Noise figures: per account and hour (P alerts:acct:<account>:noise:<hour>, kept 8 days), fields
-- <integration>|<figure>: received (notifications, repeats included), alerts (new), incidents (opened), inhibited,
-- transient (damped: resolved before a destination's delay ended; counted by the notify role).
local NOISE_KEPT_MS = 8 * 86400000
function INC.noise(P, acct, integ, at, figure, n)
  local k = key(P, acct, 'noise:' .. tostring(math.floor(at / 3600000)))
  if redis.call('HINCRBY', k, integ .. '|' .. figure, n or 1) == (n or 1) then redis.call('PEXPIRE', k, NOISE_KEPT_MS) end
end
function INC.records(P, acct) return key(P, acct, 'incidents') end
function INC.members(P, acct, id) return key(P, acct, 'incident-members:' .. id) end
local function keysOf(P, acct) return key(P, acct, 'incident-keys') end
local function idx(P, acct, group) return key(P, acct, 'incident-idx:' .. group) end

function INC.load(P, acct, id)
  if not id then return nil end
  local j = redis.call('HGET', INC.records(P, acct), id)
  if not j then return nil end
  return cjson.decode(j)
end

local function save(P, inc, before)
  local after = {all = true, [inc.status] = true}
  if inc.status ~= 'resolved' then after.open = true end
  if before and before ~= inc.status then
    redis.call('ZREM', idx(P, inc.accountId, before), inc.id)
    if before ~= 'resolved' and inc.status == 'resolved' then redis.call('ZREM', idx(P, inc.accountId, 'open'), inc.id) end
  end
  local score = inc.lastSeenAt * 1000 + (tonumber(string.match(inc.id, '%d+$') or '0') % 1000)
  for g in pairs(after) do redis.call('ZADD', idx(P, inc.accountId, g), score, inc.id) end
  redis.call('HSET', INC.records(P, inc.accountId), inc.id, cjson.encode(inc))
  local member = inc.accountId .. '|' .. inc.id
  if inc.status == 'resolved' then
    redis.call('ZADD', P .. 'alerts:incidents-resolved', inc.resolvedAt or inc.lastSeenAt, member)
  elseif before == 'resolved' then
    redis.call('ZREM', P .. 'alerts:incidents-resolved', member)
  end
end

local function remember(inc, event, at, by, alertId)
  appendTimeline(inc, {event = event, at = at, by = by, alertId = alertId})
end

local function tell(P, inc, event, at, by, alertId)
  local fields = {'incidentId', inc.id, 'event', event, 'status', inc.status, 'severity', inc.severity, 'title', inc.title,
    'openAlerts', tostring(inc.open), 'alerts', tostring(inc.alerts), 'at', tostring(at), 'by', by or ''}
  if alertId then table.insert(fields, 'alertId'); table.insert(fields, alertId) end
  if inc.previousIncidentId then table.insert(fields, 'previousIncidentId'); table.insert(fields, inc.previousIncidentId) end
  redis.call('XADD', P .. 'alerts:incident-events', 'MAXLEN', '~', INC.maxlen, '*', unpack(fields))
end

-- The incident a new alert record joins or opens (the record gets its id): the open incident of its group key
-- while within its window, else a new one. `g`: the group the rules gave (nil for none). Returns the incident and
-- whether it is new.
function INC.assign(P, rec, at, g)
  local acct = rec.accountId
  local k, windowMs, minAlerts = nil, 0, 1
  if type(g) == 'table' and type(g.key) == 'string' and g.key ~= '' then
    k = 'g:' .. g.key
    windowMs = tonumber(g.windowMs) or 0
    minAlerts = math.max(1, tonumber(g.minAlerts) or 1)
  else
    k = 'a:' .. rec.integrationId .. ':' .. rec.dedupKey
  end
  local curId = redis.call('HGET', keysOf(P, acct), k)
  local cur = curId and INC.load(P, acct, curId) or nil
  if cur and cur.mergingInto then
    -- The key's incident is being merged: its alerts join the incident it is merged into.
    local into = INC.load(P, acct, cur.mergingInto)
    if into and into.status ~= 'resolved' then cur = into end
  end
  -- Room for one more: the alerts it holds, and those a merge into it will bring.
  local room = cur and cur.alerts + (cur.reserved or 0) < MEMBERS
  local inc
  if cur and cur.status ~= 'resolved' and (windowMs <= 0 or at - cur.lastAlertAt <= windowMs) and room then
    inc = cur
  else
    inc = {id = 'inc_' .. tostring(redis.call('INCR', P .. 'alerts:incident-seq')), accountId = acct, key = k,
      title = (type(g) == 'table' and type(g.title) == 'string' and g.title ~= '') and g.title or string.sub(rec.description or rec.dedupKey, 1, 200),
      status = minAlerts > 1 and 'pending' or 'new', fresh = true, severity = rec.severity or 'warning', firstSeenAt = at, lastSeenAt = at,
      windowMs = windowMs, minAlerts = minAlerts, open = 0, alerts = 0, firing = 0, acked = 0,
      openBySeverity = {}, arrivals = {}, timeline = {}}
    if cur then inc.previousIncidentId = cur.id
    elseif curId then inc.previousIncidentId = curId end
    -- The continuation of a full incident: every alert it takes is counted as that one's overflow.
    if cur and cur.status ~= 'resolved' and not room then inc.continues = cur.id end
    if type(g) == 'table' and type(g.rule) == 'string' then inc.rule = g.rule end
    redis.call('HSET', keysOf(P, acct), k, inc.id)
  end
  if inc.continues then
    local first = INC.load(P, acct, inc.continues)
    if first and first.status ~= 'resolved' then first.overflow = (first.overflow or 0) + 1; save(P, first, first.status) end
  end
  inc.lastAlertAt = at
  inc.alerts = inc.alerts + 1
  redis.call('ZADD', INC.members(P, acct, inc.id), inc.alerts, rec.id)
  -- The last minAlerts arrivals: enough to say whether minAlerts of them came within the window.
  if inc.status == 'pending' then
    table.insert(inc.arrivals, at)
    while #inc.arrivals > inc.minAlerts do table.remove(inc.arrivals, 1) end
  end
  rec.incidentId = inc.id
  return inc
end

local function isOpen(status) return status ~= nil and status ~= 'resolved' end

-- Counts an alert of this status and severity in (d = 1) or out of (d = -1) an incident's open alerts.
local function adjust(inc, status, severity, d)
  if not isOpen(status) then return end
  severity = severity or 'warning'
  inc.open = inc.open + d
  inc.openBySeverity[severity] = (inc.openBySeverity[severity] or 0) + d
  if status == 'firing' then inc.firing = inc.firing + d elseif status == 'acknowledged' then inc.acked = inc.acked + d end
end

-- An incident's severity and status from its counts after a change at `at` (`before`: its status before), its
-- timeline, the incident-events stream, and the record saved. `alertId`: the alert whose change it was; `joined`: a new
-- member. Returns the incident's event for destinations ('' when none).
local function settle(P, inc, before, at, by, alertId, joined, forced)
  local fresh = inc.fresh
  inc.fresh = nil
  local top, rank = nil, 0
  for s, n in pairs(inc.openBySeverity) do
    if n > 0 and (SEVERITY_RANK[s] or 0) > rank then top, rank = s, SEVERITY_RANK[s] or 0 end
  end
  if top then inc.severity = top end
  if forced then inc.acknowledgedAt = inc.acknowledgedAt or at; inc.acknowledgedBy = inc.acknowledgedBy or by end
  local status
  if inc.open <= 0 then
    status = 'resolved'
  elseif inc.acknowledgedAt or before == 'acknowledged' then
    status = 'acknowledged'
  elseif before == 'pending' then
    local n, within = #inc.arrivals, 0
    for _, t in ipairs(inc.arrivals) do
      if inc.windowMs <= 0 or at - t <= inc.windowMs then within = within + 1 end
    end
    if within < inc.minAlerts or n < inc.minAlerts then status = 'pending'
    elseif inc.firing > 0 then status = 'triggered'
    elseif inc.acked > 0 then status = 'acknowledged'
    else status = 'suppressed' end
  elseif inc.firing == 0 and inc.acked > 0 then
    status = 'acknowledged'
    inc.acknowledgedAt = at; inc.acknowledgedBy = by
  elseif inc.firing > 0 then
    status = 'triggered'
  else
    status = 'suppressed'
  end
  if status ~= 'pending' then inc.arrivals = {} end
  -- Its events: what a destination is told. One that was never told (pending, or held by windows, all along)
  -- resolves without a word; its timeline says so.
  local event, quiet = '', nil
  if status ~= before then
    if status == 'resolved' then
      inc.resolvedAt = at; inc.resolvedBy = by
      if inc.told then event = 'resolved' else quiet = 'closed' end
    elseif status == 'triggered' or (status == 'acknowledged' and inc.told) then
      event = status
      inc.told = true
    end
  end
  if joined and event == '' and not fresh then event = 'joined' end
  if fresh and event == '' then quiet = status == 'pending' and 'pending' or 'opened' end
  inc.status = status
  if at > inc.lastSeenAt then inc.lastSeenAt = at end
  if event ~= '' then
    remember(inc, event, at, by, alertId)
    tell(P, inc, event, at, by, alertId)
  elseif quiet then
    remember(inc, quiet, at, by, alertId)
    tell(P, inc, quiet, at, by, alertId)
  end
  save(P, inc, not fresh and before or nil)
  return event
end

-- Follows a change of a member alert (`rec` as it is now, `old` its snapshot before, nil for a new member) into its
-- incident. `inc`: the incident when the caller has it (a new member). `forced`: the incident's own acknowledge (the
-- API), so that it is acknowledged at its first member. Returns the incident's event ('' when its status did not
-- change), for the alert's stream entry.
function INC.track(P, rec, old, at, by, inc, forced)
  if not rec.incidentId then return '' end
  inc = inc or INC.load(P, rec.accountId, rec.incidentId)
  if not inc then return '' end
  local before = inc.status
  if old then adjust(inc, old.status, old.severity, -1) end
  adjust(inc, rec.status, rec.severity, 1)
  return settle(P, inc, before, at, by, rec.id, old == nil, forced)
end

-- The incident's own acknowledge (the API) when none of its alerts changed for it (they were all acknowledged or
-- held already): it is acknowledged all the same. Returns its event.
function INC.acknowledge(P, inc, at, by)
  if inc.status == 'resolved' or inc.status == 'acknowledged' then return '' end
  return settle(P, inc, inc.status, at, by, nil, false, true)
end

-- An incident's counts read again from its members' records (a merge stopped half-way; rare, and at most MEMBERS).
local function recount(P, acct, inc)
  inc.open, inc.firing, inc.acked, inc.openBySeverity = 0, 0, 0, {}
  for _, id in ipairs(redis.call('ZRANGE', INC.members(P, acct, inc.id), 0, -1)) do
    local ok, rec = pcall(cjson.decode, redis.call('HGET', P .. 'alerts:acct:' .. acct .. ':records', id) or 'null')
    if ok and type(rec) == 'table' and rec.incidentId == inc.id then adjust(inc, rec.status, rec.severity, 1) end
  end
end

-- Merges `from` into `to`, a page at a time (the API calls again while 'more'): each call moves up to `page` of its
-- alerts (its members in the order they joined), so no call holds Redis for 10,000 alerts. The first page marks `from`
-- mergingInto `to` and reserves room in `to` for its alerts; meanwhile, alerts of `from`'s key join `to`, `from` keeps
-- counting the moved alerts (so it cannot resolve by its alerts' moves) and another merge of either is refused. The
-- last page closes `from` (mergedInto). Returns a refusal, else nil, 'more' or 'done', and on 'done' whether `from`'s
-- destinations are to be told it resolved (told, and not already resolved by its own alerts), and the last page's ids.
function INC.merge(P, acct, to, from, at, by, page)
  if to.id == from.id then return 'same' end
  if to.mergingInto or (from.mergingInto and from.mergingInto ~= to.id) then return 'merging' end
  local fromMembers = INC.members(P, acct, from.id)
  if to.status == 'resolved' or (from.status == 'resolved' and not from.mergingInto) then
    if from.mergingInto then
      -- Stopped half-way (`to` resolved meanwhile): `from` keeps what it still holds, its counts read again.
      local before = from.status
      from.mergingInto = nil
      recount(P, acct, from)
      settle(P, from, before, at, by, nil, false, false)
      to.reserved = nil
      save(P, to, nil)
    end
    return 'resolved'
  end
  if not from.mergingInto then
    local n = redis.call('ZCARD', fromMembers)
    if to.alerts + (to.reserved or 0) + n > MEMBERS then return 'full' end
    from.mergingInto = to.id
    to.reserved = (to.reserved or 0) + n
  end
  local beforeTo, beforeFrom = to.status, from.status
  local ids = redis.call('ZRANGE', fromMembers, 0, page - 1)
  for _, id in ipairs(ids) do
    local j = redis.call('HGET', P .. 'alerts:acct:' .. acct .. ':records', id)
    local rec = j and cjson.decode(j) or nil
    if rec and rec.incidentId == from.id then
      adjust(to, rec.status, rec.severity, 1)
      rec.incidentId = to.id
      redis.call('HSET', P .. 'alerts:acct:' .. acct .. ':records', id, cjson.encode(rec))
    end
    to.alerts = to.alerts + 1
    to.reserved = math.max(0, (to.reserved or 0) - 1)
    redis.call('ZADD', INC.members(P, acct, to.id), to.alerts, id)
  end
  if #ids > 0 then redis.call('ZREM', fromMembers, unpack(ids)) end
  if redis.call('EXISTS', fromMembers) == 1 then
    save(P, from, nil)
    settle(P, to, beforeTo, at, by, nil, false, false)
    return nil, 'more'
  end
  from.mergingInto = nil
  to.reserved = nil
  local told = from.told and beforeFrom ~= 'resolved'
  from.mergedInto = to.id
  from.open, from.firing, from.acked, from.openBySeverity = 0, 0, 0, {}
  remember(to, 'merged', at, by, nil)
  to.timeline[#to.timeline].incidentId = from.id
  tell(P, to, 'merged', at, by, nil)
  remember(from, 'merged', at, by, nil)
  from.timeline[#from.timeline].incidentId = to.id
  -- The one merged away resolves quietly here: the caller tells its destinations (a page it opened is closed).
  from.told = false
  settle(P, from, beforeFrom, at, by, nil, false, false)
  settle(P, to, beforeTo, at, by, nil, false, false)
  return nil, 'done', told, ids
end

-- Takes an open alert out of its incident `from` (the API) into an incident of its own (previousIncidentId: `from`).
-- Refused ({err}) when it is not in `from`, not open, or `from`'s last open alert (resolve the incident instead).
-- Returns nil and the alert's new incident's event.
function INC.remove(P, rec, from, at, by)
  if rec.incidentId ~= from.id then return 'not_member' end
  if not isOpen(rec.status) then return 'not_open' end
  if from.open <= 1 then return 'last' end
  local before = from.status
  adjust(from, rec.status, rec.severity, -1)
  redis.call('ZREM', INC.members(P, from.accountId, from.id), rec.id)
  from.alerts = from.alerts - 1
  remember(from, 'removed', at, by, rec.id)
  settle(P, from, before, at, by, rec.id, false, false)
  local inc = INC.assign(P, rec, at, nil)
  if inc.fresh then inc.previousIncidentId = from.id end
  return nil, INC.track(P, rec, nil, at, by, inc)
end

-- Removes a resolved incident whose members are all gone (pruned), its members and its key's pointer to it.
function INC.prune(P, acct, id)
  local inc = INC.load(P, acct, id)
  if not inc or inc.status ~= 'resolved' then return false end
  for _, g in ipairs({'all', 'resolved'}) do redis.call('ZREM', idx(P, acct, g), id) end
  redis.call('HDEL', INC.records(P, acct), id)
  redis.call('DEL', INC.members(P, acct, id))
  if redis.call('HGET', keysOf(P, acct), inc.key) == id then redis.call('HDEL', keysOf(P, acct), inc.key) end
  return true
end
