-- KEYS: a string key. ARGV: expected value, new value. Sets the new value only if the key still holds
-- the expected one; 1 if it did.
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2]) return 1 end return 0
