-- Deletes the user read at a version, with its index entries, and takes it out of its groups.
-- KEYS: user-names, users, users-order, user-external, user-emails, user-groups (of this user), groups.
-- ARGV: id, name key, expected version, old index {external, emails} (JSON), group-members key
--       prefix (+ group id), now.
-- include: index.lua
local _, refused = current(KEYS[2], ARGV[1], ARGV[3])
if refused then return refused end
local old = cjson.decode(ARGV[4])
if redis.call('HGET', KEYS[1], ARGV[2]) == ARGV[1] then redis.call('HDEL', KEYS[1], ARGV[2]) end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
reindex(KEYS[4], ARGV[1], old.external, {})
reindex(KEYS[5], ARGV[1], old.emails, {})
for _, gid in ipairs(redis.call('SMEMBERS', KEYS[6])) do
  redis.call('SREM', ARGV[5] .. gid, ARGV[1])
  touch(KEYS[7], gid, ARGV[6])
end
redis.call('DEL', KEYS[6])
return 'ok'
