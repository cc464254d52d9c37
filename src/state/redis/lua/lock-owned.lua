-- KEYS: a lock key. ARGV: owner, action (renew or release), expiry in ms (renew). Renews or releases the lock only
-- if the owner still holds it; 1 if it did.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == 'release' then redis.call('DEL', KEYS[1]) else redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1
