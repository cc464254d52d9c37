-- Moves a resource's entries in a lexicographic index (a zset of "<value>\0<id>", all scored 0):
-- removes the old values' entries and adds the new ones. Included by the directory scripts.
local function reindex(key, id, old, new)
  for _, v in ipairs(old) do redis.call('ZREM', key, v .. '\0' .. id) end
  for _, v in ipairs(new) do redis.call('ZADD', key, 0, v .. '\0' .. id) end
end

-- The resource stored under `field` of the hash, decoded, checked against the version the caller
-- read ('' to create): nil and the outcome when it must not be written.
local function current(hash, field, expected)
  local json = redis.call('HGET', hash, field)
  if expected == '' then
    if json then return nil, 'conflict' end
    return nil, nil
  end
  if not json then return nil, 'missing' end
  local resource = cjson.decode(json)
  if tostring(resource.version) ~= expected then return nil, 'stale' end
  return resource, nil
end

-- A group's members changed: its version and lastModified move on (the ETag changes).
local function touch(groups, gid, now)
  local json = redis.call('HGET', groups, gid)
  if not json then return end
  local group = cjson.decode(json)
  group.version = group.version + 1
  group.lastModified = math.max(tonumber(now), group.lastModified + 1)
  redis.call('HSET', groups, gid, cjson.encode(group))
end
