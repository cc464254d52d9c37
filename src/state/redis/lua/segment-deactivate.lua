-- KEYS: def, keys, defs, segment-envs, audit. ARGV: name, envId, audit
-- include: audit.lua
local entry = cjson.decode(ARGV[3])
if redis.call('EXISTS', KEYS[1]) == 0 then return {'not-active'} end
local n = redis.call('ZCARD', KEYS[2])
if n > 0 then return {'has-keys', n} end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('SREM', KEYS[4], ARGV[2])
audit(KEYS[5], entry)
return {'ok'}
