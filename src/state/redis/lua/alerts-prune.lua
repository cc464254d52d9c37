-- Removes alerts resolved before ARGV[2] (ms), at most ARGV[3] of them: their records, index entries
-- and their keys' pointers to them (the retention of resolved alerts; streams are trimmed apart).
-- KEYS: the resolved alerts (P alerts:resolved; named, so a Redis Cluster runs the script on its node)
-- ARGV: key prefix (the account's on a Redis Cluster), resolved before (ms), limit
-- Returns how many were removed.
-- include: alert-lifecycle.lua

local P, before, limit = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', before, 'LIMIT', 0, limit)
local removed = 0
for _, member in ipairs(due) do
  local acct, id = string.match(member, '^(.*)|([^|]*)$')
  local rec = acct and LC.load(P, acct, id) or nil
  -- A record reopened since is no longer resolved (its new incident has another id; this one stays resolved).
  if rec and rec.status == 'resolved' then
    LC.prune(P, rec)
    removed = removed + 1
  end
  redis.call('ZREM', KEYS[1], member)
end
-- Incidents resolved as long ago (their members are pruned above, or will be by their own resolve time).
for _, member in ipairs(redis.call('ZRANGEBYSCORE', P .. 'alerts:incidents-resolved', '-inf', before, 'LIMIT', 0, limit)) do
  local acct, id = string.match(member, '^(.*)|([^|]*)$')
  if acct then INC.prune(P, acct, id) end
  redis.call('ZREM', P .. 'alerts:incidents-resolved', member)
end
return removed
