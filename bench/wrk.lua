-- wrk's side of the bench harness (bench/harness.ts). With BENCH_PATHS (a file, one path a
-- line) each connection cycles through those paths; without it wrk asks for the URL's own path.
-- At the end, wrk's own figures as one line: `BENCH {json}`, latencies in microseconds.

local file = os.getenv("BENCH_PATHS")
if file then
  local paths = {}
  for line in io.lines(file) do
    if line ~= "" then paths[#paths + 1] = line end
  end
  local requests = {}
  local next = 0

  -- Built here, after wrk has set the Host header.
  init = function(args)
    for i, path in ipairs(paths) do requests[i] = wrk.format(nil, path) end
  end

  request = function()
    next = next % #requests + 1
    return requests[next]
  end
end

done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'BENCH {"requests":%.0f,"durationUs":%.0f,"bytes":%.0f,"p50Us":%.0f,"p99Us":%.0f,"maxUs":%.0f,"non2xx":%.0f,"socketErrors":%.0f}\n',
    summary.requests, summary.duration, summary.bytes,
    latency:percentile(50), latency:percentile(99), latency.max,
    errors.status, errors.connect + errors.read + errors.write + errors.timeout))
end
