-- wrk script: one abusive client's flood of expensive requests (Tests/Load/fair).
-- Every request claims the same client (X-Forwarded-For, believed from a trusted proxy). Half ask
-- for sprite sheets whose spellings vary (d<a>-<b> with a random hash, as in the flood that made
-- honest routes wait: each would be drawn before its name could be checked), signed with a forged
-- signature when SIGNED is set, or replay valid signed URLs from the file REPLAY names; half post
-- a route of 500 km. Counts each status.

local signed = os.getenv("SIGNED") == "1"
local client = os.getenv("ABUSER") or "203.0.113.66"
-- REPLAY: a file of valid signed URLs (one a line) to ask for again and again instead of new sheets.
local replay = {}
if os.getenv("REPLAY") then
  for line in io.lines(os.getenv("REPLAY")) do replay[#replay + 1] = line end
end
local points = {}
for i = 0, 500 do points[#points + 1] = string.format("[%.4f,%.4f]", 2 + i * 0.0127, 45 + (i % 7) * 0.001) end
local route = '{"type":"LineString","coordinates":[' .. table.concat(points, ",") .. "]}"
local counter = 0
local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  counter = tonumber(wrk.thread:get("id")) * 1000
  math.randomseed(counter + os.time())
  statuses = {}
end

function request()
  counter = counter + 1
  local headers = { ["X-Forwarded-For"] = client }
  if counter % 2 == 0 and #replay > 0 then
    return wrk.format("GET", replay[math.random(1, #replay)], headers)
  end
  if counter % 2 == 0 then
    local a = math.random(1, 500)
    local hash = string.format("%010x", math.random(0, 0x7fffffff))
    local name = string.format("day_km_d%d-%d-%s", a, a + math.random(100, 900), hash)
    local path = signed and ("/v1/sprites/AAAAAAAAAAAAAAAAAAAAAA/" .. name .. "@2x.json") or ("/v1/sprites/" .. name .. "@2x.json")
    return wrk.format("GET", path, headers)
  end
  headers["Content-Type"] = "application/geo+json"
  return wrk.format("POST", "/v1/routes?themes=day,night", headers, route)
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local totals = {}
  for _, thread in ipairs(threads) do
    local counts = thread:get("statuses")
    for status, count in pairs(counts) do totals[status] = (totals[status] or 0) + count end
  end
  local parts = {}
  for status, count in pairs(totals) do parts[#parts + 1] = status .. ": " .. count end
  table.sort(parts)
  io.write(string.format("abuser: %d requests in %.1f s (%s)\n", summary.requests, summary.duration / 1e6, table.concat(parts, ", ")))
end
