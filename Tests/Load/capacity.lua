-- wrk script for Tests/Load/capacity: MODE=cached asks for one marker again and again; MODE=new for
-- a marker never drawn before each time (kind, theme, scale and distance varied); MODE=route posts
-- the route in ROUTE (a file) again and again.
local mode = os.getenv("MODE") or "cached"
local route = nil
if mode == "route" then
  local file = io.open(os.getenv("ROUTE"), "rb")
  route = file:read("*a")
  file:close()
end
local kinds = { "start", "distance", "end", "countdown" }
local themes = { "day", "night" }
local scales = { "1", "1.5", "2", "3", "4" }
local counter = 0

function setup(thread)
  thread:set("offset", math.random(0, 1000000))
end

function init(args)
  counter = tonumber(wrk.thread:get("offset")) * 40
  statuses = {}
end

function request()
  counter = counter + 1
  if mode == "cached" then
    return wrk.format("GET", "/v1/marker.png?distance=42&kind=end&theme=night")
  elseif mode == "new" then
    local n = counter
    local path = string.format("/v1/marker.png?kind=%s&theme=%s&scale=%s&distance=%d", kinds[n % 4 + 1],
      themes[math.floor(n / 4) % 2 + 1], scales[math.floor(n / 8) % 5 + 1], 10 + math.floor(n / 40) % 99990)
    return wrk.format("GET", path)
  end
  return wrk.format("POST", "/v1/routes?themes=day,night", { ["Content-Type"] = "application/gpx+xml" }, route)
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  io.write(string.format("%s: %.0f requests/s over %.0f s, p50 %.2f ms, p99 %.2f ms\n", mode, summary.requests / (summary.duration / 1e6),
    summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
