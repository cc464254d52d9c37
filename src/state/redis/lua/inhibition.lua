-- Inhibition (included at the end of alert-lifecycle.lua), as Alertmanager's inhibit_rules: while a source alert is
-- open and not itself held (firing or acknowledged), the target alerts of the same rule with equal values are stored
-- `inhibited` (shown, not told); a target still open when its last source goes is released (firing again, told).
-- An alert never inhibits itself, and an inhibited alert inhibits nothing (so a cycle, a inhibits b inhibits a,
-- leaves the first of them told). The consumer renders each alert's pairs (rule id, equal values) as a source and as
-- a target; the record keeps them. Keys, under the prefix P:
--   P alerts:acct:<account>:inhibit-src:<rule>\n<values>  zset of the pair's active sources by first seen
--   P alerts:acct:<account>:inhibit-tgt:<rule>\n<values>  set of the pair's open targets
local INHIBIT_MAX_PAIRS = 50

local function pairKey(P, acct, kind, pair) return P .. 'alerts:acct:' .. acct .. ':inhibit-' .. kind .. ':' .. pair[1] .. '\n' .. pair[2] end

-- A list of pairs as the consumer sent it, or nil: at most INHIBIT_MAX_PAIRS of {string, string}.
local function pairsOf(list)
  if type(list) ~= 'table' then return nil end
  local out = {}
  for _, p in ipairs(list) do
    if #out < INHIBIT_MAX_PAIRS and type(p) == 'table' and type(p[1]) == 'string' and type(p[2]) == 'string' then table.insert(out, {p[1], p[2]}) end
  end
  return #out > 0 and out or nil
end

-- Milliseconds since the epoch as Date.toISOString writes them.
function LC.iso(ms)
  local days = math.floor(ms / 86400000)
  local rest = ms - days * 86400000
  local z = days + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  local d = doy - math.floor((153 * mp + 2) / 5) + 1
  local m = mp < 10 and mp + 3 or mp - 9
  local y = yoe + era * 400 + (m <= 2 and 1 or 0)
  return string.format('%04d-%02d-%02dT%02d:%02d:%02d.%03dZ', y, m, d, math.floor(rest / 3600000),
    math.floor(rest / 60000) % 60, math.floor(rest / 1000) % 60, rest % 1000)
end

local function clockMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- The first active source of any of the target's pairs but itself, or nil.
local function inhibitor(P, rec)
  for _, pair in ipairs(rec.inhibitTargets or {}) do
    for _, id in ipairs(redis.call('ZRANGE', pairKey(P, rec.accountId, 'src', pair), 0, 1)) do
      if id ~= rec.id then return id end
    end
  end
  return nil
end

-- A new record's pairs (the `inhibit` field of its first firing notification): it joins its targets' sets, and is
-- inhibited when a source of one of them is active. Returns whether it was.
function LC.inhibitNew(P, rec, json)
  local ok, spec = pcall(cjson.decode, json or 'null')
  if not ok or type(spec) ~= 'table' then return false end
  rec.inhibitSources = pairsOf(spec.sources)
  rec.inhibitTargets = pairsOf(spec.targets)
  for _, pair in ipairs(rec.inhibitTargets or {}) do redis.call('SADD', pairKey(P, rec.accountId, 'tgt', pair), rec.id) end
  if rec.status ~= 'firing' then return false end
  local by = inhibitor(P, rec)
  if not by then return false end
  rec.status = 'inhibited'; rec.inhibitedBy = by
  return true
end

-- Writes a change of a record that is not a notification's (inhibited by a source that became active, or released
-- when the last went): its entry in the streams, its incident, its history.
local function change(P, rec, old, event, by)
  local at = clockMs()
  local incidentEvent = INC.track(P, rec, old, at, by)
  local entry = LC.entry(rec, event, LC.iso(at), by, nil, incidentEvent)
  local entryId = redis.call('XADD', P .. 'alerts:all', 'MAXLEN', '~', INC.maxlen, '*', unpack(entry))
  local stream = P .. 'alerts:integration:' .. rec.integrationId
  -- A deleted integration's stream is gone: not made again.
  if redis.call('EXISTS', stream) == 1 then redis.call('XADD', stream, 'MAXLEN', '~', INC.maxlen, '*', unpack(entry)) end
  LC.remember(rec, event, at, by, nil, entryId)
  LC.save(P, rec, old, nil)
end

-- Targets one script call may change for sources that became active or went: the rest wait in the account's pending
-- scans (P alerts:acct:<account>:inhibit-pending, a zset of {account, kind, source, rule, values} by when they were
-- left, with their SSCAN cursors in ...:inhibit-cursors), continued by the alerts role's sweep
-- (alerts-inhibit-continue.lua) an account at a time in turn (P alerts:inhibit-accounts), so that a source of 10,000
-- targets does not hold Redis for a second, and one account's scans do not hold up another's.
local INHIBIT_BUDGET = 200
local inhibitBudget = INHIBIT_BUDGET

local function pendingKeys(P, acct)
  local base = P .. 'alerts:acct:' .. acct .. ':inhibit-'
  return base .. 'pending', base .. 'cursors'
end

-- A scan step of a pair's targets for a source: 'on' inhibits the firing ones, 'off' releases (or hands to another
-- source) those it inhibited. From `cursor`, within the call's budget (which must be left); the next cursor ('0':
-- done).
local function scanTargets(P, acct, kind, sourceId, pair, cursor)
  local r = redis.call('SSCAN', pairKey(P, acct, 'tgt', pair), cursor, 'COUNT', inhibitBudget)
  for _, id in ipairs(r[2]) do
    inhibitBudget = inhibitBudget - 1
    local t = id ~= sourceId and LC.load(P, acct, id) or nil
    if t and kind == 'on' and t.status == 'firing' then
      local old = LC.snapshot(t)
      t.status = 'inhibited'; t.inhibitedBy = sourceId
      INC.noise(P, acct, t.integrationId, clockMs(), 'inhibited')
      change(P, t, old, 'inhibited', 'inhibition')
    elseif t and kind == 'off' and t.status == 'inhibited' and t.inhibitedBy == sourceId then
      local other = inhibitor(P, t)
      if other then
        t.inhibitedBy = other
        redis.call('HSET', LC.records(P, acct), t.id, LC.encode(t))
      else
        local old = LC.snapshot(t)
        t.status = 'firing'; t.inhibitedBy = nil
        change(P, t, old, 'triggered', 'inhibition-end')
      end
    end
  end
  return r[1]
end

-- Scans a pair's targets for a source as far as the call's budget goes (not at all when it is spent); the rest is
-- left pending, from its cursor ('0': from the start).
local function scanOrLeave(P, acct, kind, sourceId, pair)
  local cursor = inhibitBudget > 0 and scanTargets(P, acct, kind, sourceId, pair, '0') or nil
  if cursor == '0' then return end
  local member = cjson.encode({acct, kind, sourceId, pair[1], pair[2]})
  local pending, cursors = pendingKeys(P, acct)
  redis.call('ZADD', pending, 'NX', clockMs(), member)
  redis.call('HSET', cursors, member, cursor or '0')
  redis.call('ZADD', P .. 'alerts:inhibit-accounts', 'NX', clockMs(), acct)
end

-- Continues the pending scans of the account whose turn it is (the oldest first), within one call's budget; the
-- account goes to the back of the line while it has more. Returns how many accounts have scans pending.
function LC.inhibitContinue(P)
  local accounts = P .. 'alerts:inhibit-accounts'
  local acct = redis.call('ZRANGE', accounts, 0, 0)[1]
  if not acct then return 0 end
  local pending, cursors = pendingKeys(P, acct)
  for _, member in ipairs(redis.call('ZRANGE', pending, 0, 9)) do
    if inhibitBudget <= 0 then break end
    local ok, w = pcall(cjson.decode, member)
    local next = '0'
    if ok and type(w) == 'table' and #w == 5 then
      local pair = {w[4], w[5]}
      -- A source that went meanwhile inhibits nothing more (its own 'off' scan releases what it did inhibit); one
      -- active again releases nothing (its new 'on' scan inhibits).
      local active = redis.call('ZSCORE', pairKey(P, w[1], 'src', pair), w[3]) ~= false
      if (w[2] == 'on') == active then next = scanTargets(P, w[1], w[2], w[3], pair, redis.call('HGET', cursors, member) or '0') end
    end
    if next == '0' then
      redis.call('ZREM', pending, member); redis.call('HDEL', cursors, member)
    else
      redis.call('HSET', cursors, member, next)
    end
  end
  if redis.call('EXISTS', pending) == 1 then redis.call('ZADD', accounts, clockMs(), acct)
  else redis.call('ZREM', accounts, acct) end
  return redis.call('ZCARD', accounts)
end

-- Follows a saved record into the pairs it is in (called by LC.save): as a source that became active, it inhibits
-- the firing targets of its pairs; one no longer active releases those it inhibited (or hands them to another
-- source); a resolved target leaves its pairs. Past the call's budget, the scans are left pending (above).
function LC.inhibitFollow(P, rec)
  local acct = rec.accountId
  if rec.inhibitSources then
    local active = rec.status == 'firing' or rec.status == 'acknowledged'
    for _, pair in ipairs(rec.inhibitSources) do
      local key = pairKey(P, acct, 'src', pair)
      if active and redis.call('ZADD', key, 'NX', rec.firstSeenAt or 0, rec.id) == 1 then
        scanOrLeave(P, acct, 'on', rec.id, pair)
      elseif not active and redis.call('ZREM', key, rec.id) == 1 then
        scanOrLeave(P, acct, 'off', rec.id, pair)
      end
    end
  end
  if rec.status == 'resolved' and rec.inhibitTargets then
    for _, pair in ipairs(rec.inhibitTargets) do redis.call('SREM', pairKey(P, acct, 'tgt', pair), rec.id) end
  end
end
