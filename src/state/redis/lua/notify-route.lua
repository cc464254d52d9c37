-- Creates the deliveries of one alert stream entry (one per destination, each once: a delivery id is
-- made from the entry and the destination, so a replay after a crash creates nothing twice), then
-- acknowledges the entry in the notify consumer group, in one step: an entry is acknowledged only
-- with its deliveries stored.
-- KEYS: the due set of the shard, the stream ('' key name allowed when entryId is '': no acknowledge)
-- ARGV: group, entryId ('' for none), now, ttlMs, delivery key prefix, alert log key ('' for none),
--   routes key ('' for none), routes JSON, destination log key prefix, then per delivery: id, data JSON, due time,
--   giveUpAt, destination id (its destination's log keeps its last DEST_LOG deliveries)
local due, stream = KEYS[1], KEYS[2]
local group, entryId, now, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local dprefix, alertLog, routesKey, routes, destLog = ARGV[5], ARGV[6], ARGV[7], ARGV[8], ARGV[9]
local DEST_LOG = 200
local created = 0
for i = 10, #ARGV - 4, 5 do
  local id, data, at, giveUp, dest = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2]), ARGV[i + 3], ARGV[i + 4]
  local key = dprefix .. id
  if redis.call('EXISTS', key) == 0 then
    redis.call('HSET', key, 'data', data, 'status', 'pending', 'attempts', 0, 'nextAt', at, 'createdAt', now,
      'giveUpAt', giveUp, 'updatedAt', now)
    redis.call('PEXPIRE', key, ttl)
    redis.call('ZADD', due, at, id)
    if alertLog ~= '' then redis.call('ZADD', alertLog, at, id) end
    local dlog = destLog .. dest
    redis.call('ZADD', dlog, at, id)
    redis.call('ZREMRANGEBYRANK', dlog, 0, -(DEST_LOG + 1))
    redis.call('PEXPIRE', dlog, ttl)
    created = created + 1
  end
end
if alertLog ~= '' and created > 0 then redis.call('PEXPIRE', alertLog, ttl) end
if routesKey ~= '' then redis.call('SET', routesKey, routes, 'PX', ttl) end
if entryId ~= '' then redis.call('XACK', stream, group, entryId) end
return created
