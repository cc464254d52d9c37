-- KEYS: the erasure queue (a sorted set: member <environment>/<job id>, score the time it is due, or the end of its
-- lease while a process runs it). ARGV: now, the end of the lease. Takes the first job due: its score becomes the end
-- of the lease, so no other process takes it until then; returns its member, or false if none is due.
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1)
if #due == 0 then return false end
redis.call('ZADD', KEYS[1], 'XX', ARGV[2], due[1])
return due[1]
