-- Creates the deliveries of one alert stream entry (one per destination, each once: a delivery id is
-- made from the entry and the destination, so a replay after a crash creates nothing twice), then
-- acknowledges the entry in the notify consumer group, in one step: an entry is acknowledged only
-- with its deliveries stored.
-- KEYS: the due set of the shard, the stream ('' key name allowed when entryId is '': no acknowledge)
-- ARGV: group, entryId ('' for none), now, ttlMs, delivery key prefix, alert log key ('' for none),
--   routes key ('' for none), routes JSON, destination log key prefix, then per delivery: id, data JSON, due time,
--   giveUpAt, destination id (its destination's log keeps its last DEST_LOG deliveries)
-- include: notify-deliveries.lua
local due, stream = KEYS[1], KEYS[2]
local group, entryId, now, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local dprefix, alertLog, routesKey, routes, destLog = ARGV[5], ARGV[6], ARGV[7], ARGV[8], ARGV[9]
local created = 0
for i = 10, #ARGV - 4, 5 do
  local id, at = ARGV[i], tonumber(ARGV[i + 2])
  if createDelivery(due, dprefix, destLog, now, ttl, id, ARGV[i + 1], at, ARGV[i + 3], ARGV[i + 4]) then
    if alertLog ~= '' then redis.call('ZADD', alertLog, at, id) end
    created = created + 1
  end
end
if alertLog ~= '' and created > 0 then redis.call('PEXPIRE', alertLog, ttl) end
if routesKey ~= '' then redis.call('SET', routesKey, routes, 'PX', ttl) end
if entryId ~= '' then redis.call('XACK', stream, group, entryId) end
return created
