-- Creates or replaces a group with its members, at once: its displayName stays unique, its
-- externalId index follows, every member must be a user of the account, and each member's list of
-- groups follows the change. A write based on a stale read is refused.
-- KEYS: group-names, groups, groups-order, group-external, group-members (of this group), users.
-- ARGV: id, name key, JSON, created, expected version ('' to create), old name key,
--       old externalIds (JSON list), new externalIds (JSON list), user-groups key prefix
--       (+ user id), members (JSON list of user ids).
-- Returns ok, conflict, missing, stale, or no-member:<id>.
-- include: index.lua
local _, refused = current(KEYS[2], ARGV[1], ARGV[5])
if refused then return refused end
local owner = redis.call('HGET', KEYS[1], ARGV[2])
if owner and owner ~= ARGV[1] then return 'conflict' end
local members = cjson.decode(ARGV[10])
local wanted = {}
for _, uid in ipairs(members) do
  if redis.call('HEXISTS', KEYS[6], uid) == 0 then return 'no-member:' .. uid end
  wanted[uid] = true
end
if ARGV[6] ~= '' and ARGV[6] ~= ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[6]) end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[3], 'NX', ARGV[4], ARGV[1])
reindex(KEYS[4], ARGV[1], cjson.decode(ARGV[7]), cjson.decode(ARGV[8]))
for _, uid in ipairs(redis.call('SMEMBERS', KEYS[5])) do
  if wanted[uid] then
    wanted[uid] = nil
  else
    redis.call('SREM', KEYS[5], uid)
    redis.call('SREM', ARGV[9] .. uid, ARGV[1])
  end
end
for uid in pairs(wanted) do
  redis.call('SADD', KEYS[5], uid)
  redis.call('SADD', ARGV[9] .. uid, ARGV[1])
end
return 'ok'
