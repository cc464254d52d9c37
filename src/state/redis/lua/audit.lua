-- Appends an audit entry (decoded by the script before its first write, so a bad entry cannot stop
-- it half-way) to a segment's audit list, keeping it capped at AUDIT_MAX_ENTRIES (segments.ts); `extra`
-- sets fields. Included by the segment scripts.
local function audit(key, entry, extra)
  if extra then for k, v in pairs(extra) do entry[k] = v end end
  redis.call('LPUSH', key, cjson.encode(entry))
  redis.call('LTRIM', key, 0, 9999)
end
