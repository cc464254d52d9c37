-- KEYS: identities hash. ARGV: key, JSON values. Merges into an existing identity; false if none.
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return false end
local values = cjson.decode(current)
for k, v in pairs(cjson.decode(ARGV[2])) do values[k] = v end
local merged = cjson.encode(values)
if merged == '[]' then merged = '{}' end
redis.call('HSET', KEYS[1], ARGV[1], merged)
return merged
