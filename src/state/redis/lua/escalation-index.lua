-- With one Redis, the accounts with running escalations by their earliest due step (a zset), kept by every script that
-- changes an account's due set, so the escalation job claims from the accounts with a step due, in turn. '' on a
-- cluster (the index is in another slot): there the job polls each account's due set.
local function reindexEscalations(index, due, account)
  if index == '' then return end
  local first = redis.call('ZRANGE', due, 0, 0, 'WITHSCORES')
  if first[2] then redis.call('ZADD', index, first[2], account) else redis.call('ZREM', index, account) end
end
