-- Starts an incident's escalation once: its marker set (kept as long as deliveries are), its state stored and its
-- first step due. Called before the stream entry that opened the incident is acknowledged: a replayed entry finds the
-- marker and starts nothing twice, even after the escalation ended.
-- KEYS: the escalations' due set. ARGV: states hash key, member, state JSON, due time, marker key, marker ttl (ms).
-- Returns 1 when it started.
local due = KEYS[1]
local states, member, state, at, marker, ttl = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5], ARGV[6]
if not redis.call('SET', marker, '1', 'NX', 'PX', ttl) then return 0 end
redis.call('HSET', states, member, state)
redis.call('ZADD', due, at, member)
return 1
