-- Acknowledges or resolves one alert from the API, and writes the change to the alert streams.
-- KEYS: all-alerts stream (the alert's integration stream is named from the record)
-- ARGV: key prefix (the account's), account id, alert id, action (acknowledge or resolve), by, now (ms), now (ISO), maxlen,
--       the account's deleted-integrations set ('' with one Redis)
-- Returns {'ok', record JSON}, {'not_found'}, or {'unchanged', record JSON, status} when the alert
-- is already acknowledged (for acknowledge) or resolved.
-- include: alert-lifecycle.lua

local P, acct, id, action, by, at, atIso, maxlen = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], tonumber(ARGV[6]), ARGV[7], ARGV[8]
local rec = LC.load(P, acct, id)
if not rec then return {'not_found'} end
local before, unchanged = LC.act(rec, action, at, by)
if not before then return {'unchanged', cjson.encode(rec), unchanged} end
local event = action == 'acknowledge' and 'acknowledged' or 'resolved'
INC.maxlen = maxlen
local entryId = LC.tell(P, KEYS[1], rec, event, atIso, by, INC.track(P, rec, before, at, by), ARGV[9], maxlen)
LC.remember(rec, event, at, by, nil, entryId)
LC.save(P, rec, before, 0)
return {'ok', cjson.encode(rec)}
