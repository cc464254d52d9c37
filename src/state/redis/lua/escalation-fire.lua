-- Fires one claimed escalation step, once: if the escalation is still at that step (its seq) and its incident still
-- triggered (nobody acknowledged, nothing resolved or suppressed it), the step's deliveries are created (each once, by
-- id, in the notify role's due set), the step goes on the incident's timeline, and the escalation moves to its next
-- step (or ends). Otherwise it ends, or (another process fired it) nothing changes.
-- KEYS: the account's escalations' due set, the states hash
-- ARGV: member, expected seq, the account's incidents hash, incident id, next state JSON ('' : the escalation ends),
--   next due, timeline entry JSON, now, deliveries' ttl, notify due set, delivery key prefix, destination log key
--   prefix, index key ('' on a cluster), account, then per delivery: id, data JSON, due time, giveUpAt, destination id
-- include: notify-deliveries.lua
-- include: escalation-index.lua
-- include: incident-timeline.lua
-- Returns 'fired', 'stopped' (with the incident's status), 'paused' (the incident is suppressed: looked at again
-- later), or 'stale'.
local due, states = KEYS[1], KEYS[2]
local member, seq, incidents, incidentId = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4]
local nextState, nextDue, entry, now, ttl = ARGV[5], tonumber(ARGV[6]), ARGV[7], tonumber(ARGV[8]), ARGV[9]
local ndue, dprefix, destLog, index, account = ARGV[10], ARGV[11], ARGV[12], ARGV[13], ARGV[14]
local PAUSE_MS = 10000
local state = redis.call('HGET', states, member)
if not state or cjson.decode(state).seq ~= seq then return {'stale'} end
local json = redis.call('HGET', incidents, incidentId)
local inc = json and cjson.decode(json) or nil
-- Held by a maintenance window or an inhibition: paused, looked at again in PAUSE_MS (it may trigger again).
if inc and inc.status == 'suppressed' then
  redis.call('ZADD', due, now + PAUSE_MS, member)
  reindexEscalations(index, due, account)
  return {'paused'}
end
if not inc or inc.status ~= 'triggered' then
  redis.call('HDEL', states, member)
  redis.call('ZREM', due, member)
  reindexEscalations(index, due, account)
  return {'stopped', inc and inc.status or 'gone'}
end
for i = 15, #ARGV - 4, 5 do
  createDelivery(ndue, dprefix, destLog, now, ttl, ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2]), ARGV[i + 3], ARGV[i + 4])
end
appendTimeline(inc, cjson.decode(entry))
redis.call('HSET', incidents, incidentId, cjson.encode(inc))
if nextState == '' then
  redis.call('HDEL', states, member)
  redis.call('ZREM', due, member)
else
  redis.call('HSET', states, member, nextState)
  redis.call('ZADD', due, nextDue, member)
end
reindexEscalations(index, due, account)
return {'fired'}
