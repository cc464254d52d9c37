-- KEYS: segment, segments, audit. ARGV: name, description, ttId, ttName, ws, now, audit
-- include: audit.lua
local entry = cjson.decode(ARGV[7])
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'description', ARGV[2], 'trafficTypeId', ARGV[3], 'trafficTypeName', ARGV[4], 'workspaceId', ARGV[5], 'creationTime', ARGV[6])
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[1])
audit(KEYS[3], entry)
return 1
