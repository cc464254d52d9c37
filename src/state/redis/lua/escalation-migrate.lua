-- One Redis: moves up to 1000 running escalations from the due set of every account (the layout before each account
-- had its own) to their accounts' due sets, indexed. Run at the escalation job's start until it moves none.
-- KEYS: the former shared due set. ARGV: the alert prefix, index key.
-- include: escalation-index.lua
-- Returns how many it moved.
local legacy, prefix, index = KEYS[1], ARGV[1], ARGV[2]
local flat = redis.call('ZRANGE', legacy, 0, 999, 'WITHSCORES')
for i = 1, #flat, 2 do
  local member, score = flat[i], flat[i + 1]
  local account = string.match(member, '^(.-)\n') or ''
  local due = prefix .. 'esc:due:' .. account
  redis.call('ZADD', due, score, member)
  reindexEscalations(index, due, account)
  redis.call('ZREM', legacy, member)
end
return #flat / 2
