-- Acknowledges or resolves an incident from the API: each of its open alerts is acknowledged or resolved as the
-- alerts API would (an entry in the alert streams), a page of members per call, and the incident follows its
-- alerts (INC.track: acknowledged at the first when acknowledging, resolved with the last).
-- KEYS: all-alerts stream (each alert's integration stream is named from its record)
-- ARGV: key prefix (the account's), account id, incident id, action (acknowledge or resolve), by, now (ms),
--       now (ISO), maxlen, the account's deleted-integrations set ('' with one Redis), members per call, cursor
--       (the order of the last member done, 0 for the first call)
-- Returns {'ok', record JSON, next cursor ('' when done)}, {'not_found'}, or {'unchanged', record JSON, status}
-- when the incident is already acknowledged (for acknowledge) or resolved.
-- include: alert-lifecycle.lua

local P, acct, id, action, by, at, atIso, maxlen = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], tonumber(ARGV[6]), ARGV[7], ARGV[8]
local deleted, limit, cursor = ARGV[9], tonumber(ARGV[10]), tonumber(ARGV[11])
INC.maxlen = maxlen
local inc = INC.load(P, acct, id)
if not inc then return {'not_found'} end
if cursor == 0 and (inc.status == 'resolved' or (action == 'acknowledge' and inc.status == 'acknowledged')) then
  return {'unchanged', cjson.encode(inc), inc.status}
end
local event = action == 'acknowledge' and 'acknowledged' or 'resolved'
local page = redis.call('ZRANGEBYSCORE', INC.members(P, acct, id), '(' .. cursor, '+inf', 'WITHSCORES', 'LIMIT', 0, limit)
local last = cursor
for j = 1, #page - 1, 2 do
  last = tonumber(page[j + 1])
  local rec = LC.load(P, acct, page[j])
  local before = rec and rec.incidentId == id and LC.act(rec, action, at, by) or nil
  if before then
    local incidentEvent = INC.track(P, rec, before, at, by, nil, action == 'acknowledge')
    local entryId = LC.tell(P, KEYS[1], rec, event, atIso, by, incidentEvent, deleted, maxlen)
    LC.remember(rec, event, at, by, nil, entryId)
    LC.save(P, rec, before, 0)
  end
end
local done = #page < limit * 2
if done and action == 'acknowledge' then
  local after = INC.load(P, acct, id)
  if after then INC.acknowledge(P, after, at, by) end
end
return {'ok', redis.call('HGET', INC.records(P, acct), id), done and '' or tostring(last)}
