-- Merges an incident into another (the API): the alerts of `from` join `to` (INC.merge), and `from` is closed.
-- KEYS: the incidents hash of the account (named, so a Redis Cluster runs the script on its node)
-- ARGV: key prefix (the account's), account id, into (incident id), from (incident id), by, now (ms), maxlen
-- Returns {'ok', record JSON of `into`}, {'not_found'}, {'same'}, {'resolved'} or {'full'}.
-- include: alert-lifecycle.lua

local P, acct, intoId, fromId, by, at = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], tonumber(ARGV[6])
INC.maxlen = ARGV[7]
local into, from = INC.load(P, acct, intoId), INC.load(P, acct, fromId)
if not into or not from then return {'not_found'} end
local refused = INC.merge(P, acct, into, from, at, by)
if refused then return {refused} end
return {'ok', redis.call('HGET', KEYS[1], intoId)}
