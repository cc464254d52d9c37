-- Resolves the firing alerts whose integration's silence has passed (alerts:auto-resolve), at most
-- ARGV[3] of them, and writes each change to the alert streams. One call is atomic, so processes
-- running it at the same time resolve each alert once.
-- KEYS: the all-alerts stream
-- ARGV: key prefix (the account's on a Redis Cluster), now (ms), limit, now (ISO), maxlen, the deleted-integrations set ('' with one Redis)
-- Returns the ids of the alerts resolved.
-- include: alert-lifecycle.lua

local P, now, limit, atIso, maxlen = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], ARGV[5]
local due = redis.call('ZRANGEBYSCORE', P .. 'alerts:auto-resolve', '-inf', now, 'LIMIT', 0, limit)
local resolved = {}
INC.maxlen = maxlen
for _, member in ipairs(due) do
  local acct, id = string.match(member, '^(.*)|([^|]*)$')
  local rec = acct and LC.load(P, acct, id) or nil
  -- An alert of a deleted integration is left as it is (no stream of it is made again).
  if rec and (rec.status == 'firing' or rec.status == 'suppressed' or rec.status == 'inhibited') and LC.integrationExists(P, rec.integrationId, ARGV[6]) then
    local before = LC.act(rec, 'resolve', now, 'auto-resolve')
    local incidentEvent = INC.track(P, rec, before, now, 'auto-resolve')
    local entryId = LC.tell(P, KEYS[1], rec, 'resolved', atIso, 'auto-resolve', incidentEvent, ARGV[6], maxlen)
    LC.remember(rec, 'resolved', now, 'auto-resolve', nil, entryId)
    LC.save(P, rec, before, 0)
    table.insert(resolved, id)
  end
  redis.call('ZREM', P .. 'alerts:auto-resolve', member)
end
return resolved
