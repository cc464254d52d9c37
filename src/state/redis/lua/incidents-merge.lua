-- Merges an incident into another (the API), a page of its alerts per call (INC.merge): the alerts of `from` join
-- `to`, and the last page closes `from`. When `from` had been told, its destinations are told it resolved: an entry
-- in the alert streams for one of its last moved alerts, event `merged`, with incidentId `from` and incidentEvent `resolved`
-- (the acknowledge and resolve of an incident go where its opening went).
-- KEYS: the all-alerts stream
-- ARGV: key prefix (the account's), account id, into (incident id), from (incident id), by, now (ms), now (ISO),
--       maxlen, the account's deleted-integrations set ('' with one Redis), page (alerts per call)
-- Returns {'ok', record JSON of `into`}, {'more'}, {'not_found'}, or {refusal}: same, resolved, full, merging.
-- include: alert-lifecycle.lua

local P, acct, intoId, fromId, by, at, atIso, maxlen = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], tonumber(ARGV[6]), ARGV[7], ARGV[8]
INC.maxlen = maxlen
local into, from = INC.load(P, acct, intoId), INC.load(P, acct, fromId)
if not into or not from then return {'not_found'} end
local refused, state, told, ids = INC.merge(P, acct, into, from, at, by, tonumber(ARGV[10]))
if refused then return {refused} end
if state == 'more' then return {'more'} end
-- Told through one of the last page's alerts whose integration still exists (a deleted one's streams are gone).
for i = told and #ids or 0, 1, -1 do
  local rec = LC.load(P, acct, ids[i])
  if rec then
    rec.incidentId = fromId
    if LC.tell(P, KEYS[1], rec, 'merged', atIso, by, 'resolved', ARGV[9], maxlen) then break end
  end
end
return {'ok', redis.call('HGET', INC.records(P, acct), intoId)}
