-- KEYS: segment, def, keys, audit. ARGV: now, audit, key...
-- include: audit.lua
local entry = cjson.decode(ARGV[2])
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('EXISTS', KEYS[2]) == 0 then return {'not-active'} end
local removed = 0
local batch = {}
for i = 3, #ARGV do
  batch[#batch + 1] = ARGV[i]
  if #batch >= 500 or i == #ARGV then
    removed = removed + redis.call('ZREM', KEYS[3], unpack(batch))
    batch = {}
  end
end
redis.call('HSET', KEYS[2], 'lastUpdateTime', ARGV[1])
audit(KEYS[4], entry, { count = removed })
return {'ok', removed, redis.call('ZCARD', KEYS[3])}
