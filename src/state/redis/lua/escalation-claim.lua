-- Claims due escalation steps of an account: each is leased (its due time moved to now + lease, so a process killed
-- while firing it leaves it to fire after the lease) and returned with its state. One with no state (ended) leaves the
-- due set.
-- KEYS: the account's escalations' due set. ARGV: now, leaseMs, limit, states hash key, index key ('' on a cluster),
-- account.
-- include: escalation-index.lua
-- Returns a flat list: member, state JSON per claimed step.
local due = KEYS[1]
local now, lease, limit, states = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local index, account = ARGV[5], ARGV[6]
local out = {}
for _, member in ipairs(redis.call('ZRANGEBYSCORE', due, '-inf', now, 'LIMIT', 0, limit)) do
  local state = redis.call('HGET', states, member)
  if not state then
    redis.call('ZREM', due, member)
  else
    redis.call('ZADD', due, 'XX', now + lease, member)
    table.insert(out, member); table.insert(out, state)
  end
end
reindexEscalations(index, due, account)
return out
