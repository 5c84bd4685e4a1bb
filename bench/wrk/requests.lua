-- wrk script of the API benchmark (bench/api_load.py): sends the requests listed in a file,
-- in order, and prints the figures as one JSON line.
--
--   wrk ... --script bench/wrk/requests.lua http://127.0.0.1:PORT -- FILE [AUTHORIZATION] [cycle|once]
--
-- FILE has one request per line: "GET /path" or "POST /path {json body}", optionally followed by
-- headers of that request alone, each after a tab ("GET /table/\tCookie: sessionid=...").
-- AUTHORIZATION, when not empty, is sent as the Authorization header. "cycle" starts the list
-- again at its end; "once" stops the thread at its end (each deal of the list is recorded once).

local requests = {}
local count = 0
local index = 0
local cycle = true
local threads = {}
not_modified = 0 -- the 304s this thread was answered (read by done through the thread)

function setup(thread)
  table.insert(threads, thread)
end

function response(status, headers, body)
  if status == 304 then
    not_modified = not_modified + 1
  end
end

function init(args)
  local authorization = args[2]
  cycle = args[3] ~= "once"
  for whole in io.lines(args[1]) do
    local line, extra = whole:match("^([^\t]*)\t?(.*)$")
    local method, path, body = line:match("^(%u+) (%S+) ?(.*)$")
    if method then
      local headers = {}
      for name, value in extra:gmatch("([^:\t]+): ([^\t]*)") do
        headers[name] = value
      end
      if authorization and authorization ~= "" then
        headers["Authorization"] = authorization
      end
      if body == "" then
        body = nil
      else
        headers["Content-Type"] = "application/json"
      end
      count = count + 1
      requests[count] = wrk.format(method, path, headers, body)
    end
  end
end

function request()
  index = index + 1
  if index > count then
    if not cycle then
      wrk.thread:stop()
      index = count
    else
      index = 1
    end
  end
  return requests[index]
end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local unchanged = 0
  for _, thread in ipairs(threads) do
    unchanged = unchanged + (thread:get("not_modified") or 0)
  end
  local errors = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests": %d, "seconds": %.3f, "rps": %.1f, "p50_ms": %.2f, "p95_ms": %.2f, '
      .. '"p99_ms": %.2f, "max_ms": %.2f, "non_2xx": %d, "connect_errors": %d, '
      .. '"read_errors": %d, "write_errors": %d, "timeouts": %d, '
      .. '"bytes": %d, "not_modified": %d}\n',
    summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000,
    errors.status, errors.connect, errors.read, errors.write, errors.timeout, summary.bytes,
    unchanged))
end
