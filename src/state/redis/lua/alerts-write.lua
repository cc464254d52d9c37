-- Writes the alerts and rejections of one Kafka message to the alert streams, once.
-- KEYS: offsets hash, all-alerts stream, integration stream, rejections stream
-- ARGV: offset field, offset, previous offset in the batch (-1 for the first), maxlen, max age (ms),
--       alert count, rejection count, replay (1 or 0), request id, received at (ms),
--       then per entry: field count, fields...
-- Returns 1 written, 0 already written, 2 left alone (the previous message is not written).

-- How far before its receipt a replay's first copy may carry a Redis stream id (clocks of edge and Redis differ).
local REPLAY_CLOCK_SKEW_MS = 300000
-- Entries read per stream when checking a replay; a first copy further away than this is not found.
local REPLAY_SCAN_ENTRIES = 20000

local last = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '-1')
if last >= tonumber(ARGV[2]) then return 0 end
if tonumber(ARGV[3]) >= 0 and last < tonumber(ARGV[3]) then return 2 end
-- Scripts are not rolled back on an error: refuse before the first write, not half-way.
local targets = {}
if tonumber(ARGV[6]) > 0 then targets = {KEYS[2], KEYS[3]} end
if tonumber(ARGV[7]) > 0 then table.insert(targets, KEYS[4]) end
for _, key in ipairs(targets) do
  local t = redis.call('TYPE', key)['ok']
  if t ~= 'none' and t ~= 'stream' then
    return redis.error_reply('WRONGTYPE ' .. key .. ' holds a ' .. t .. ', not a stream')
  end
end
-- A replay from an edge's spool: its first copy (or an earlier replay) wrote entries carrying its
-- request id to the integration's stream or the rejections stream, after the request was received.
if ARGV[8] == '1' then
  local from = tostring(math.max(0, tonumber(ARGV[10]) - REPLAY_CLOCK_SKEW_MS))
  for _, key in ipairs({KEYS[3], KEYS[4]}) do
    if redis.call('TYPE', key)['ok'] == 'stream' then
      for _, entry in ipairs(redis.call('XRANGE', key, from, '+', 'COUNT', REPLAY_SCAN_ENTRIES)) do
        local f = entry[2]
        for j = 1, #f - 1, 2 do
          if f[j] == 'requestId' and f[j + 1] == ARGV[9] then
            redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
            return 0
          end
        end
      end
    end
  end
end
local maxlen = ARGV[4]
local now = redis.call('TIME')
local minid = tostring(math.max(0, tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) - tonumber(ARGV[5])))
local i = 11
local function add(streams, n)
  for _ = 1, n do
    local count = tonumber(ARGV[i])
    local fields = {}
    for j = 1, count do fields[j] = ARGV[i + j] end
    i = i + count + 1
    for _, key in ipairs(streams) do
      redis.call('XADD', key, 'MAXLEN', '~', maxlen, '*', unpack(fields))
    end
  end
  -- Only streams written to are trimmed (by age): a message touches no other key.
  if n > 0 then
    for _, key in ipairs(streams) do redis.call('XTRIM', key, 'MINID', '~', minid) end
  end
end
add({KEYS[2], KEYS[3]}, tonumber(ARGV[6]))
add({KEYS[4]}, tonumber(ARGV[7]))
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
