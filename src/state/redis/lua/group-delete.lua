-- Deletes the group read at a version, with its index entries and its memberships.
-- KEYS: group-names, groups, groups-order, group-external, group-members (of this group).
-- ARGV: id, name key, expected version, old externalIds (JSON list), user-groups key prefix (+ user id).
-- include: index.lua
local _, refused = current(KEYS[2], ARGV[1], ARGV[3])
if refused then return refused end
if redis.call('HGET', KEYS[1], ARGV[2]) == ARGV[1] then redis.call('HDEL', KEYS[1], ARGV[2]) end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
reindex(KEYS[4], ARGV[1], cjson.decode(ARGV[4]), {})
for _, uid in ipairs(redis.call('SMEMBERS', KEYS[5])) do redis.call('SREM', ARGV[5] .. uid, ARGV[1]) end
redis.call('DEL', KEYS[5])
return 'ok'
