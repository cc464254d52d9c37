-- Creates, replaces or deletes a metric definition of a workspace, keeping its name unique there and
-- recording the change in the workspace's metric audit log, all at once.
-- KEYS: metrics (hash id -> definition JSON), names (hash name -> id), audit (list).
-- ARGV: op (create|update|delete), id, name, definition JSON, audit entry JSON (stored as given),
-- most metrics kept.
local op, id, name = ARGV[1], ARGV[2], ARGV[3]
local current = redis.call('HGET', KEYS[1], id)
if op == 'create' then
  if current then return 'exists' end
  if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[6]) then return 'limit' end
elseif not current then
  return 'missing'
end
if op ~= 'delete' then
  local owner = redis.call('HGET', KEYS[2], name)
  if owner and owner ~= id then return 'name-taken' end
end
if current then redis.call('HDEL', KEYS[2], cjson.decode(current).name) end
if op == 'delete' then
  redis.call('HDEL', KEYS[1], id)
else
  redis.call('HSET', KEYS[1], id, ARGV[4])
  redis.call('HSET', KEYS[2], name, id)
end
redis.call('LPUSH', KEYS[3], ARGV[5])
redis.call('LTRIM', KEYS[3], 0, 9999)
return 'ok'
