-- KEYS: segment, def, keys, staging, audit. ARGV: limit, now, audit
-- Replaces the keys with a staged set in one step (a key file larger than one update).
-- include: audit.lua
local entry = cjson.decode(ARGV[3])
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('EXISTS', KEYS[2]) == 0 then return {'not-active'} end
local total = redis.call('ZCARD', KEYS[4])
if total > tonumber(ARGV[1]) then return {'limit', total} end
if total == 0 then redis.call('DEL', KEYS[3]) else redis.call('RENAME', KEYS[4], KEYS[3]) end
redis.call('HSET', KEYS[2], 'lastUpdateTime', ARGV[2], 'status', 'ACTIVE')
audit(KEYS[5], entry, { count = total })
return {'ok', total, total}
