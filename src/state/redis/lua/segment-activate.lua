-- KEYS: segment, def, defs, segment-envs, audit. ARGV: name, ws, envId, envName, now, audit
-- include: audit.lua
local entry = cjson.decode(ARGV[6])
if redis.call('EXISTS', KEYS[1]) == 0 then return 'no-segment' end
if redis.call('EXISTS', KEYS[2]) == 1 then return 'active' end
redis.call('HSET', KEYS[2], 'name', ARGV[1], 'workspaceId', ARGV[2], 'environmentId', ARGV[3], 'environmentName', ARGV[4], 'status', 'ACTIVE', 'creationTime', ARGV[5], 'lastUpdateTime', ARGV[5])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[1])
redis.call('SADD', KEYS[4], ARGV[3])
audit(KEYS[5], entry)
return 'ok'
