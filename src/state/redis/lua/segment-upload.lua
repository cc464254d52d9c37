-- KEYS: segment, def, keys, audit. ARGV: replace (1|0), limit, now, audit, key... (distinct)
-- include: audit.lua
local entry = cjson.decode(ARGV[4])
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('EXISTS', KEYS[2]) == 0 then return {'not-active'} end
local replace = ARGV[1] == '1'
local first = 5
local added = 0
local total
if replace then
  total = #ARGV - first + 1
  added = total
else
  for i = first, #ARGV do
    if not redis.call('ZSCORE', KEYS[3], ARGV[i]) then added = added + 1 end
  end
  total = redis.call('ZCARD', KEYS[3]) + added
end
if total > tonumber(ARGV[2]) then return {'limit', total} end
if replace then redis.call('DEL', KEYS[3]) end
local batch = {}
for i = first, #ARGV do
  batch[#batch + 1] = 0
  batch[#batch + 1] = ARGV[i]
  if #batch >= 1000 or i == #ARGV then
    redis.call('ZADD', KEYS[3], unpack(batch))
    batch = {}
  end
end
redis.call('HSET', KEYS[2], 'lastUpdateTime', ARGV[3], 'status', 'ACTIVE')
audit(KEYS[4], entry, { count = replace and total or added })
return {'ok', total, added}
