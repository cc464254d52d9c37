-- KEYS: user-names, users, users-order. ARGV: id, name key, expected version. Deletes the user read
-- at that version; its name key only while it still points at this user.
local current = redis.call('HGET', KEYS[2], ARGV[1])
if not current then return 'missing' end
if tostring(cjson.decode(current).version) ~= ARGV[3] then return 'stale' end
if redis.call('HGET', KEYS[1], ARGV[2]) == ARGV[1] then redis.call('HDEL', KEYS[1], ARGV[2]) end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 'ok'
