-- KEYS: segment, segments, segment-envs, audit. ARGV: the workspace's key prefix, name, allowed
-- environment ids... (none: all). The per-environment keys are derived from the members of
-- segment-envs (on a Redis Cluster they share the workspace's hash tag, state/redis/keys.ts). The
-- audit log goes with the segment; the service log keeps the deletion.
if redis.call('EXISTS', KEYS[1]) == 0 then return 'missing' end
local envs = redis.call('SMEMBERS', KEYS[3])
if #ARGV > 2 then
  local allowed = {}
  for i = 3, #ARGV do allowed[ARGV[i]] = true end
  for _, env in ipairs(envs) do if not allowed[env] then return 'forbidden' end end
end
for _, env in ipairs(envs) do
  redis.call('DEL', ARGV[1] .. 'segment-def:' .. env .. ':' .. ARGV[2], ARGV[1] .. 'segment-keys:' .. env .. ':' .. ARGV[2])
  redis.call('ZREM', ARGV[1] .. 'segment-defs:' .. env, ARGV[2])
end
redis.call('DEL', KEYS[1], KEYS[3], KEYS[4])
redis.call('ZREM', KEYS[2], ARGV[2])
return 'ok'
