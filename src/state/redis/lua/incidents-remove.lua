-- Takes an alert out of its incident (the API) into an incident of its own (INC.remove); when that incident is told
-- (it fires), the alert's change is an entry in the alert streams, `triggered`, as a maintenance window's release is.
-- KEYS: the all-alerts stream
-- ARGV: key prefix (the account's), account id, incident id, alert id, by, now (ms), now (ISO), maxlen, the account's
--       deleted-integrations set ('' with one Redis)
-- Returns {'ok', the alert's record JSON}, {'not_found'}, or {refusal}: not_member, not_open, last.
-- include: alert-lifecycle.lua

local P, acct, incId, alertId, by, at, atIso, maxlen = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], tonumber(ARGV[6]), ARGV[7], ARGV[8]
INC.maxlen = maxlen
local from, rec = INC.load(P, acct, incId), LC.load(P, acct, alertId)
if not from or not rec then return {'not_found'} end
local refused, incidentEvent = INC.remove(P, rec, from, at, by)
if refused then return {refused} end
local entryId
if incidentEvent == 'triggered' then entryId = LC.tell(P, KEYS[1], rec, 'triggered', atIso, by, incidentEvent, ARGV[9], maxlen) end
LC.remember(rec, 'regrouped', at, by, nil, entryId)
LC.save(P, rec, LC.snapshot(rec), nil)
return {'ok', redis.call('HGET', LC.records(P, acct), alertId)}
