-- wrk script: a mixed load of good and bad requests against markerpaint serve.
-- Each connection walks the list below in turn; every status class is counted per thread and
-- summed in done(), which prints one line per class and the count of 5xx.

local requests = {}

local function add(method, path, body, headers)
  table.insert(requests, { method = method, path = path, body = body, headers = headers or {} })
end

local function line(points)
  local positions = {}
  for i, p in ipairs(points) do positions[i] = string.format("[%.5f,%.5f]", p[1], p[2]) end
  return '{"type":"LineString","coordinates":[' .. table.concat(positions, ",") .. "]}"
end

-- Good: cached markers, new markers, named images, health, a short route.
for d = 1, 40 do add("GET", "/v1/marker.png?distance=" .. d) end
for d = 1, 10 do add("GET", "/v1/marker.png?kind=end&theme=night&scale=3&distance=" .. (d * 7.5)) end
add("GET", "/healthz")
add("GET", "/metrics")
add("POST", "/v1/routes?themes=night", line({ {14.0, 46.0}, {14.0, 46.02}, {14.03, 46.02} }),
    { ["Content-Type"] = "application/geo+json" })

-- Bad: every kind of mistake and attack a client can send within HTTP.
add("GET", "/v1/marker.png?distance=abc")
add("GET", "/v1/marker.png?distance=1e308")
add("GET", "/v1/marker.png?distance=5&scale=99")
add("GET", "/v1/marker.png?distance=%zz")
add("GET", "/v1/images/end-1km-day@1x-0000000000.png")
add("GET", "/v1/images/..%2F..%2Fetc%2Fpasswd")
add("GET", "/nowhere")
add("DELETE", "/v1/routes")
add("POST", "/v1/marker.png")
add("OPTIONS", "/v1/routes", nil, { ["Origin"] = "https://maps.example", ["Access-Control-Request-Method"] = "POST" })
add("POST", "/v1/routes", "<gpx><?pi?></gpx>")
add("POST", "/v1/routes", '<?xml version="1.0" encoding="UTF-7"?>\208')
add("POST", "/v1/routes", "\0\0\0<+\r\r\n")
add("POST", "/v1/routes", string.rep("[", 100000))
add("POST", "/v1/routes", '{"type":"LineString","coordinates":[[NaN,0],[1,1]]}')
local zigzag = {}
for i = 1, 2000 do zigzag[i] = (i % 2 == 0) and { 179.9, 0 } or { 0, 0 } end
add("POST", "/v1/routes", line(zigzag))
add("POST", "/v1/routes?polyline=5", "??" .. string.rep("?_v_ia@?~u_ia@", 30))
add("POST", "/v1/routes?themes=dusk", "{}")

local counter = 0
local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  counter = tonumber(wrk.thread:get("id")) * 7
  s2, s3, s4, s5, other = 0, 0, 0, 0, 0
end

function request()
  counter = counter + 1
  local r = requests[(counter % #requests) + 1]
  return wrk.format(r.method, r.path, r.headers, r.body)
end

function response(status, headers, body)
  if status >= 500 then s5 = s5 + 1
  elseif status >= 400 then s4 = s4 + 1
  elseif status >= 300 then s3 = s3 + 1
  elseif status >= 200 then s2 = s2 + 1
  else other = other + 1 end
end

function done(summary, latency, requests)
  local totals = { s2 = 0, s3 = 0, s4 = 0, s5 = 0, other = 0 }
  for _, thread in ipairs(threads) do
    for key, _ in pairs(totals) do totals[key] = totals[key] + (tonumber(thread:get(key)) or 0) end
  end
  local seconds = summary.duration / 1e6
  io.write(string.format("requests: %d in %.1f s, %.0f req/s\n", summary.requests, seconds, summary.requests / seconds))
  io.write(string.format("latency: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
  io.write(string.format("status: 2xx %d, 3xx %d, 4xx %d, 5xx %d, other %d\n", totals.s2, totals.s3, totals.s4, totals.s5, totals.other))
  io.write(string.format("socket errors: connect %d, read %d, write %d, timeout %d\n",
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout))
  io.write(string.format("5xx: %d\n", totals.s5))
end
