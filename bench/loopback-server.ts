// A minimal HTTP server for the client benchmark, run in its own process so it has a core of its own.
import { createServer } from "node:http";

const body = JSON.stringify({
  data: {
    id: 42,
    name: "bench",
    first_name: "Bench",
    surname: "Mark",
    role: "OWNER",
    email: "bench@example.com",
    address: "1 Loopback Road",
    postcode: "LO0 0P",
    country: "UNITED_KINGDOM",
    telephone_number: "0",
    timezone: "GMT+0",
    standard_timezone: "Europe/London",
    company: null,
    flags: [],
  },
});

const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "x-ratelimit-limit": "1000000000",
      "x-ratelimit-remaining": "999999999",
    });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.send?.({ port: typeof address === "object" && address ? address.port : 0 });
});
process.on("disconnect", () => process.exit(0));
