-- KEYS: user-names, users, users-order. ARGV: id, new name key, JSON, created, expected version
-- ('' to create), old name key. Keeps userName unique and refuses a write based on a stale read.
local current = redis.call('HGET', KEYS[2], ARGV[1])
if ARGV[5] == '' then
  if current then return 'conflict' end
else
  if not current then return 'missing' end
  if tostring(cjson.decode(current).version) ~= ARGV[5] then return 'stale' end
end
local owner = redis.call('HGET', KEYS[1], ARGV[2])
if owner and owner ~= ARGV[1] then return 'conflict' end
if ARGV[6] ~= '' and ARGV[6] ~= ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[6]) end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[3], 'NX', ARGV[4], ARGV[1])
return 'ok'
