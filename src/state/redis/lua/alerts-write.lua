-- Writes the alerts and rejections of consecutive Kafka messages of one partition to the alert
-- streams and the alerts' lifecycle records, each message once, in order: one call for a run of
-- messages, not one per message.
-- KEYS: offsets hash, all-alerts stream, rejections stream, then the integration streams the messages name
-- ARGV: a header, then a record per message, laid out as ARGS_LAYOUTS.alertsWrite declares (scripts.ts):
--   header: offset field, maxlen, max age (ms), offset of the message before the run (-1 for none),
--     message count, key prefix, payloads kept per integration, how long (ms);
--   record: offset, index of its integration stream in KEYS, alert count, rejection count, replay
--     (1 or 0), request id, received at (ms), its entries as one JSON array (alerts, then rejections),
--     each entry an array of its fields (one argument per message, not one per field: the arguments
--     were most of the caller's cost), account id, integration id, emit repeats (1 or 0),
--     auto-resolve after (ms, 0 for never), how many of its alerts had a dedup key that rendered
--     empty and a status nobody knows (counted), its payload sample (JSON, '' for none), pushed to
--     the integration's recent payloads when written, and the alerts the rules dropped (a JSON array
--     of field lists, '' for none), kept a day in the account's dropped-alerts stream and counted
-- An alert entry with a dedupKey and a status goes through the lifecycle (alert-lifecycle.lua): it
-- opens, repeats, acknowledges or resolves its incident's record, and its stream entries gain
-- event, alertId and count; a repeat is written to the streams only when the integration emits them.
-- Returns one result per message handled, in order: 1 written, 0 written before. A message Redis
-- refuses (its stream key holds something else) ends the run with the refusal's text in its place;
-- the messages after it are left alone, as is the whole run when the message before it is not written.

-- How far before its receipt a replay's first copy may carry a Redis stream id (clocks of edge and Redis differ).
local REPLAY_CLOCK_SKEW_MS = 300000
-- Entries read per stream when checking a replay; a first copy further away than this is not found.
local REPLAY_SCAN_ENTRIES = 20000
-- How long the record of a dropped alert is kept, and how many at most per account.
local DROPPED_KEPT_MS = 86400000
local DROPPED_MAXLEN = 100000

-- args: alertsWrite

local last = tonumber(redis.call('HGET', KEYS[1], ARGV[H.offsetField]) or '-1')
if tonumber(ARGV[H.before]) >= 0 and last < tonumber(ARGV[H.before]) then return {} end
-- Scripts are not rolled back on an error: every stream is checked before the first write.
local refusal = {}
for k = 2, #KEYS do
  local t = redis.call('TYPE', KEYS[k])['ok']
  if t ~= 'none' and t ~= 'stream' then refusal[k] = 'WRONGTYPE ' .. KEYS[k] .. ' holds a ' .. t .. ', not a stream' end
end
local maxlen = ARGV[H.maxLen]
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local minid = tostring(math.max(0, nowMs - tonumber(ARGV[H.maxAgeMs])))

-- include: alert-lifecycle.lua

local P = ARGV[H.prefix]
INC.maxlen = maxlen
local SAMPLES, SAMPLES_TTL = tonumber(ARGV[H.samples]), ARGV[H.samplesTtlMs]

-- A replay from an edge's spool: its first copy (or an earlier replay) was applied: its request id
-- is among the integration's last requests (alerts:requests:<integration>, recorded with every
-- message of an account's integration, whatever it wrote: a message of repeats writes no entry), or
-- it wrote entries carrying it to the integration's stream or the rejections stream.
local function replayed(stream, integ, requestId, receivedAt)
  if integ ~= '' and redis.call('ZSCORE', P .. 'alerts:requests:' .. integ, requestId) then return true end
  local from = tostring(math.max(0, receivedAt - REPLAY_CLOCK_SKEW_MS))
  for _, k in ipairs({stream, 3}) do
    if redis.call('TYPE', KEYS[k])['ok'] == 'stream' then
      for _, entry in ipairs(redis.call('XRANGE', KEYS[k], from, '+', 'COUNT', REPLAY_SCAN_ENTRIES)) do
        local f = entry[2]
        for j = 1, #f - 1, 2 do
          if f[j] == 'requestId' and f[j + 1] == requestId then return true end
        end
      end
    end
  end
  return false
end

-- What a message's decoded entries must be before its first write (scripts are not rolled back):
-- one per alert and rejection, each an even, non-empty list of strings.
local function wrongShape(entries, count)
  if type(entries) ~= 'table' or #entries ~= count then return 'entries do not match the message\'s counts' end
  for _, fields in ipairs(entries) do
    if type(fields) ~= 'table' or #fields == 0 or #fields % 2 ~= 0 then return 'an entry is not a list of field names and values' end
    for _, f in ipairs(fields) do
      if type(f) ~= 'string' then return 'an entry has a field that is not text' end
    end
  end
  return nil
end

local results = {}
local written = {}
local requested = {}
local i = R_FIRST
local function xadd(keys, fields)
  local id
  for _, k in ipairs(keys) do
    id = redis.call('XADD', KEYS[k], 'MAXLEN', '~', maxlen, '*', unpack(fields))
    written[k] = true
  end
  return id
end
local function add(keys, entries, from, to)
  for e = from, to do xadd(keys, entries[e]) end
end
-- Alerts received, counted per account, integration and hour, and added to the noise figures once per call (one
-- HINCRBY per notification was a tenth of a repeat's cost).
local receipts, receiptsOrder = {}, {}
local function received(acct, integ, at)
  local k = acct .. '|' .. integ .. '|' .. tostring(math.floor(at / 3600000))
  if not receipts[k] then
    receipts[k] = {acct, integ, at, 0}
    table.insert(receiptsOrder, k)
  end
  receipts[k][4] = receipts[k][4] + 1
end
-- A firing alert's stream entry: its notification's fields but those the script takes off (its links and digest; the
-- window's when no window holds it: one that no longer exists holds nothing), then the lifecycle's.
local function told(fields, held, event, id, count)
  local all = {}
  for j = 1, #fields - 1, 2 do
    local name = fields[j]
    if name ~= 'incidentGroup' and name ~= 'inhibit' and name ~= 'digest' and (held or (name ~= 'suppressedBy' and name ~= 'suppressedUntil')) then
      table.insert(all, name); table.insert(all, fields[j + 1])
    end
  end
  for _, v in ipairs({'event', event, 'alertId', id, 'count', tostring(count)}) do table.insert(all, v) end
  return all
end
-- An alert's entry through the lifecycle of its incident (an entry without the lifecycle fields is written as it is).
local function notify(keys, fields, at, acct, integ, emitRepeats, autoMs)
  local f = {}
  for j = 1, #fields - 1, 2 do f[fields[j]] = fields[j + 1] end
  if acct == '' or not f.dedupKey or not f.status then return xadd(keys, fields) end
  received(acct, integ, at)
  -- The latest record of its key, read once for both paths.
  local curId = redis.call('HGET', LC.incidents(P, integ), f.dedupKey)
  local curJson = curId and redis.call('HGET', LC.records(P, acct), curId) or nil
  -- A repeat that changes nothing but the count: its entry only when the integration emits repeats.
  local count, incidentId = LC.repeated(P, acct, integ, f, at, autoMs, curId, curJson)
  if count then
    if emitRepeats then
      local all = told(fields, false, 'repeated', curId, count)
      LC.incidentFields(all, {incidentId = incidentId}, '')
      xadd(keys, all)
    end
    return
  end
  LC.flush()
  local rec, old, event, emit, held = LC.notify(P, acct, integ, f, at, emitRepeats, curId, curJson)
  if not rec then return end
  -- Its incident: a new record joins or opens one (the group the rules gave, else its own); a change that is more
  -- than a repeat is followed into it.
  local incidentEvent = ''
  if old == nil then
    -- Inhibited by an active source of one of its pairs: stored and shown, not told.
    if f.status == 'firing' and f.inhibit and LC.inhibitNew(P, rec, f.inhibit) then event = 'inhibited' end
    local okg, group = pcall(cjson.decode, f.incidentGroup or 'null')
    local inc = INC.assign(P, rec, at, okg and group or nil)
    INC.noise(P, acct, integ, at, 'alerts')
    if inc.fresh then INC.noise(P, acct, integ, at, 'incidents') end
    if event == 'inhibited' then INC.noise(P, acct, integ, at, 'inhibited') end
    incidentEvent = INC.track(P, rec, nil, at, 'source', inc)
  elseif event ~= 'repeated' or old.severity ~= rec.severity then
    incidentEvent = INC.track(P, rec, old, at, 'source')
  end
  local entryId
  if emit and f.status ~= 'firing' then
    -- An acknowledge or resolve: the incident's fields (the notification may carry none).
    entryId = xadd(keys, LC.entry(rec, event, f.receivedAt or '', 'source', f.requestId, incidentEvent))
  elseif emit then
    local all = told(fields, held, event, rec.id, rec.count)
    if rec.inhibitedBy and event == 'inhibited' then table.insert(all, 'inhibitedBy'); table.insert(all, rec.inhibitedBy) end
    if rec.previousAlertId and (event == 'reopened' or (event == 'suppressed' and rec.count == 1)) then
      table.insert(all, 'previousAlertId'); table.insert(all, rec.previousAlertId)
    end
    LC.incidentFields(all, rec, incidentEvent)
    entryId = xadd(keys, all)
  end
  -- The history holds what changed the alert; repeats are its count (and, with emitRepeats, stream entries).
  if event ~= 'repeated' then LC.remember(rec, event, at, 'source', f.requestId, entryId) end
  LC.save(P, rec, old, autoMs)
end
for m = 1, tonumber(ARGV[H.messages]) do
  local offset = tonumber(ARGV[i + R.offset])
  local stream = tonumber(ARGV[i + R.stream])
  local alerts = tonumber(ARGV[i + R.alerts])
  local rejections = tonumber(ARGV[i + R.rejections])
  local replay = ARGV[i + R.replay] == '1'
  local requestId = ARGV[i + R.requestId]
  local receivedAt = tonumber(ARGV[i + R.receivedAtMs])
  local entries = ARGV[i + R.entries]
  local acct, integ = ARGV[i + R.accountId], ARGV[i + R.integrationId]
  local emitRepeats, autoMs = ARGV[i + R.emitRepeats] == '1', tonumber(ARGV[i + R.autoResolveAfterMs])
  local fallbacks, unknowns = tonumber(ARGV[i + R.dedupFallbacks]), tonumber(ARGV[i + R.unknownStatuses])
  local sample = ARGV[i + R.sample]
  local dropped = ARGV[i + R.dropped]
  i = i + R_SIZE
  if last >= offset then
    results[m] = 0
  else
    local refused = (alerts > 0 and (refusal[2] or refusal[stream])) or (rejections > 0 and refusal[3]) or nil
    if refused then
      results[m] = refused
      break
    end
    if replay and replayed(stream, integ, requestId, receivedAt) then
      results[m] = 0
    else
      local ok, decoded = pcall(cjson.decode, entries)
      local problem = not ok and ('entries are not valid JSON: ' .. tostring(decoded)) or wrongShape(decoded, alerts + rejections)
      local droppedList = {}
      if not problem and dropped ~= '' then
        local okd, list = pcall(cjson.decode, dropped)
        if not okd then problem = 'dropped alerts are not valid JSON'
        elseif type(list) ~= 'table' then problem = 'dropped alerts are not a list'
        else
          problem = wrongShape(list, #list)
          if not problem then droppedList = list end
        end
      end
      if problem then
        results[m] = problem
        break
      end
      for e = 1, alerts do notify({2, stream}, decoded[e], receivedAt, acct, integ, emitRepeats, autoMs) end
      add({3}, decoded, alerts + 1, alerts + rejections)
      if acct ~= '' and requestId ~= '' then
        redis.call('ZADD', P .. 'alerts:requests:' .. integ, receivedAt, requestId)
        requested[integ] = true
      end
      if #droppedList > 0 and acct ~= '' then
        local key = LC.records(P, acct):gsub(':records$', ':dropped')
        for _, fields in ipairs(droppedList) do redis.call('XADD', key, 'MAXLEN', '~', DROPPED_MAXLEN, '*', unpack(fields)) end
        redis.call('XTRIM', key, 'MINID', '~', tostring(math.max(0, nowMs - DROPPED_KEPT_MS)))
        redis.call('HINCRBY', LC.stats(P, integ), 'dropped', #droppedList)
      end
      if fallbacks > 0 then redis.call('HINCRBY', LC.stats(P, integ), 'dedupFallback', fallbacks) end
      if unknowns > 0 then redis.call('HINCRBY', LC.stats(P, integ), 'statusUnknown', unknowns) end
      local samples = P .. 'alerts:payloads:' .. integ
      -- An auxiliary write: a key of another type is left alone rather than failing the message half-way.
      if sample ~= '' and integ ~= '' and (redis.call('TYPE', samples)['ok'] == 'list' or redis.call('TYPE', samples)['ok'] == 'none') then
        redis.call('LPUSH', samples, sample)
        redis.call('LTRIM', samples, 0, SAMPLES - 1)
        redis.call('PEXPIRE', samples, SAMPLES_TTL)
      end
      results[m] = 1
    end
    redis.call('HSET', KEYS[1], ARGV[H.offsetField], offset)
    last = offset
  end
end
LC.flush()
for _, k in ipairs(receiptsOrder) do
  local r = receipts[k]
  INC.noise(P, r[1], r[2], r[3], 'received', r[4])
end
-- Only streams written to are trimmed (by age), once per call; the request ids kept for replays as far as a replay's stream scan reaches.
for k in pairs(written) do redis.call('XTRIM', KEYS[k], 'MINID', '~', minid) end
for integ in pairs(requested) do redis.call('ZREMRANGEBYRANK', P .. 'alerts:requests:' .. integ, 0, -REPLAY_SCAN_ENTRIES - 1) end
-- The offset recorded again, even when every message was written before: a call is then always a
-- write of this connection, so a WAIT after it waits for the replicas to have what it found (a
-- consumer that takes over a partition must not commit writes its predecessor could not replicate).
if last >= 0 then redis.call('HSET', KEYS[1], ARGV[H.offsetField], last) end
return results
