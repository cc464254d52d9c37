-- An entry added to an incident's timeline (its last TIMELINE kept), included by incidents.lua, escalation-start.lua
-- and escalation-fire.lua. `inc` is the incident as decoded; the caller writes it back.
local TIMELINE = 100
local function appendTimeline(inc, entry)
  local t = inc.timeline
  if type(t) ~= 'table' or #t == 0 then t = {} end
  table.insert(t, entry)
  while #t > TIMELINE do table.remove(t, 1) end
  inc.timeline = t
end
