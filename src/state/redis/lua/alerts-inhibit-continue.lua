-- Continues the inhibition scans left pending by sources with more targets than one call changes
-- (LC.inhibitContinue, lua/inhibition.lua): a page per call, the oldest first.
-- KEYS: the all-alerts stream (named, so a Redis Cluster runs the script on the account's node)
-- ARGV: key prefix (the account's on a Redis Cluster), maxlen
-- Returns how many scans are still pending.
-- include: alert-lifecycle.lua

INC.maxlen = ARGV[2]
return LC.inhibitContinue(ARGV[1])
