-- One notification delivery created, once (included by notify-route.lua and escalation-fire.lua): its hash (pending,
-- due at `at`, kept `ttl`), its place in the shard's due set and in its destination's log (the last DEST_LOG). A
-- delivery whose id exists already is left as it is (a replay creates nothing twice). Returns whether it was created.
local DEST_LOG = 200
local function createDelivery(due, dprefix, destLog, now, ttl, id, data, at, giveUp, dest)
  local key = dprefix .. id
  if redis.call('EXISTS', key) == 1 then return false end
  redis.call('HSET', key, 'data', data, 'status', 'pending', 'attempts', 0, 'nextAt', at, 'createdAt', now,
    'giveUpAt', giveUp, 'updatedAt', now)
  redis.call('PEXPIRE', key, ttl)
  redis.call('ZADD', due, at, id)
  local dlog = destLog .. dest
  redis.call('ZADD', dlog, at, id)
  redis.call('ZREMRANGEBYRANK', dlog, 0, -(DEST_LOG + 1))
  redis.call('PEXPIRE', dlog, ttl)
  return true
end
