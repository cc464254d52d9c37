-- Claims the due deliveries of a shard: each is leased (its due time moved to now + lease, so a
-- process killed while sending leaves it to be sent again after the lease) and returned with its
-- state. A delivery no longer pending (settled elsewhere) or gone (expired) leaves the due set.
-- KEYS: the due set. ARGV: now, leaseMs, limit, delivery key prefix.
-- Returns a flat list: id, data, attempts, giveUpAt per claimed delivery.
local due = KEYS[1]
local now, lease, limit, dprefix = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', due, '-inf', now, 'LIMIT', 0, limit)) do
  local h = redis.call('HMGET', dprefix .. id, 'status', 'data', 'attempts', 'giveUpAt')
  if h[1] ~= 'pending' then
    redis.call('ZREM', due, id)
  else
    redis.call('ZADD', due, 'XX', now + lease, id)
    redis.call('HSET', dprefix .. id, 'nextAt', now + lease)
    table.insert(out, id); table.insert(out, h[2]); table.insert(out, h[3]); table.insert(out, h[4] or '0')
  end
end
return out
