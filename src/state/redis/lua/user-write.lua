-- Creates or replaces a user: its name stays unique, its indexes follow its values, and a write
-- based on a stale read is refused.
-- KEYS: user-names, users, users-order, user-external, user-emails.
-- ARGV: id, name key, JSON, created, expected version ('' to create), old name key,
--       old index {external, emails} (JSON), new index (JSON).
-- Returns ok, conflict (name taken, or id exists), missing or stale.
-- include: index.lua
local _, refused = current(KEYS[2], ARGV[1], ARGV[5])
if refused then return refused end
local owner = redis.call('HGET', KEYS[1], ARGV[2])
if owner and owner ~= ARGV[1] then return 'conflict' end
local old = cjson.decode(ARGV[7])
local new = cjson.decode(ARGV[8])
if ARGV[6] ~= '' and ARGV[6] ~= ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[6]) end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[3], 'NX', ARGV[4], ARGV[1])
reindex(KEYS[4], ARGV[1], old.external, new.external)
reindex(KEYS[5], ARGV[1], old.emails, new.emails)
return 'ok'
