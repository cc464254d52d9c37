-- Records what became of one claimed delivery. outcome: postpone (not tried: a limit, an open breaker;
-- due again at nextAt), retry (tried; due again at nextAt), delivered, dead (given up: kept in the
-- account's dead letter), cancelled (a reminder of an alert no longer firing), requeue (a dead one
-- sent again from now on, its give-up time renewed). A delivery settled already (another process
-- sent it after its lease ran out) keeps its state: the first outcome counts.
-- A try (delivered, failed and retried, or given up) is counted in the hour's volume of its destination.
-- KEYS: the due set, the account's dead letter set, the account's volume hash of this hour.
-- ARGV: delivery key, id, outcome, nextAt, now, ttlMs, attempt JSON ('' for none), status, error, log size, giveUpAt,
--       destination id ('' not to count), how long an hour's volume is kept (ms)
local due, dead, volume = KEYS[1], KEYS[2], KEYS[3]
local key, id, outcome, nextAt, now, ttl = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local attempt, status, err, logSize = ARGV[7], ARGV[8], ARGV[9], tonumber(ARGV[10])
local current = redis.call('HGET', key, 'status')
if outcome == 'requeue' then
  if current ~= 'dead' then return 0 end
  redis.call('HSET', key, 'status', 'pending', 'nextAt', nextAt, 'giveUpAt', ARGV[11], 'updatedAt', now)
  redis.call('ZADD', due, nextAt, id)
  redis.call('ZREM', dead, id)
  redis.call('PEXPIRE', key, ttl)
  return 1
end
if current ~= 'pending' then return 0 end
if outcome == 'postpone' then
  redis.call('ZADD', due, 'XX', nextAt, id)
  redis.call('HSET', key, 'nextAt', nextAt)
  return 1
end
if attempt ~= '' then
  redis.call('HINCRBY', key, 'attempts', 1)
  local log = cjson.decode(redis.call('HGET', key, 'log') or '[]')
  table.insert(log, cjson.decode(attempt))
  while #log > logSize do table.remove(log, 1) end
  redis.call('HSET', key, 'log', cjson.encode(log), 'lastStatus', status, 'lastError', err)
end
redis.call('HSET', key, 'updatedAt', now)
if ARGV[12] ~= '' and (outcome == 'delivered' or outcome == 'dead' or (outcome == 'retry' and attempt ~= '')) then
  redis.call('HINCRBY', volume, ARGV[12] .. ':' .. (outcome == 'retry' and 'failed' or outcome), 1)
  redis.call('PEXPIRE', volume, ARGV[13])
end
if outcome == 'retry' then
  redis.call('HSET', key, 'nextAt', nextAt)
  redis.call('ZADD', due, nextAt, id)
else
  redis.call('ZREM', due, id)
  redis.call('HSET', key, 'status', outcome)
  if outcome == 'delivered' then redis.call('HSET', key, 'deliveredAt', now) end
  if outcome == 'dead' then redis.call('ZADD', dead, now, id) end
end
redis.call('PEXPIRE', key, ttl)
return 1
