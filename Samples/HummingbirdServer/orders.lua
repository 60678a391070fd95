-- The sample API's traffic for wrk: each connection cycles through every kind of request the app answers —
-- served, rejected by the API key check, recovered by the error page, thrown, not found.
local requests = {
  { "GET", "/health", false },
  { "GET", "/api/orders/42", true },
  { "GET", "/api/orders/7", true },
  { "POST", "/api/orders", true },
  { "GET", "/api/orders/0", true },     -- the order store is down: the error page answers 503
  { "DELETE", "/api/orders/3", true },  -- the route throws 403
  { "GET", "/api/orders/42", false },   -- no API key: 401
  { "GET", "/nowhere", false },         -- 404
}
local index = 0

request = function()
  index = index + 1
  local entry = requests[(index % #requests) + 1]
  local headers = {}
  if entry[3] then headers["x-api-key"] = "sample-key" end
  return wrk.format(entry[1], entry[2], headers)
end
