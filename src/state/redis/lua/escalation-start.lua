-- Starts an incident's escalation once: its marker set (kept as long as deliveries are), its state stored and its
-- first step due. Called before the stream entry that opened the incident is acknowledged: a replayed entry finds the
-- marker and starts nothing twice, even after the escalation ended. An account with `cap` escalations running starts
-- no more: the incident's timeline says so (the entry given), and the marker is set as well, so that a replayed entry
-- says it once and the incident is not escalated later.
-- KEYS: the account's escalations' due set. ARGV: states hash key, member, state JSON, due time, marker key, marker
-- ttl (ms), index key ('' on a cluster), account, cap, the account's incidents hash, incident id, refusal entry JSON.
-- include: escalation-index.lua
-- include: incident-timeline.lua
-- Returns 1 when it started, 0 when it had started before, 2 when the account was at its cap.
local due = KEYS[1]
local states, member, state, at, marker, ttl = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5], ARGV[6]
local index, account, cap, incidents, incidentId, refusal = ARGV[7], ARGV[8], tonumber(ARGV[9]), ARGV[10], ARGV[11],
  ARGV[12]
if not redis.call('SET', marker, '1', 'NX', 'PX', ttl) then return 0 end
if redis.call('ZCARD', due) >= cap then
  local json = redis.call('HGET', incidents, incidentId)
  if json then
    local inc = cjson.decode(json)
    appendTimeline(inc, cjson.decode(refusal))
    redis.call('HSET', incidents, incidentId, cjson.encode(inc))
  end
  return 2
end
redis.call('HSET', states, member, state)
redis.call('ZADD', due, at, member)
reindexEscalations(index, due, account)
return 1
