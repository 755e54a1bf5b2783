import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { identifyDongle } from "../../src/commands/local-scan-identify.js";
import { buildErrorResponse, buildResponse, type Frame, Framer, parseFrame } from "../../src/local/index.js";

type Request = Extract<Frame, { kind: "request" }>;

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A dongle on 127.0.0.1 that answers each request as `answer` says (undefined: silence), and keeps what it was asked. */
async function fakeDongle(answer: (request: Request) => Uint8Array | undefined) {
  const asked: Request[] = [];
  const server = createServer((socket) => {
    const framer = new Framer();
    socket.on("error", () => {});
    socket.on("data", (chunk: Buffer) => {
      for (const event of framer.push(chunk)) {
        if (event.type !== "frame") continue;
        const frame = parseFrame(event.bytes);
        if (frame.kind !== "request") continue;
        asked.push(frame);
        const bytes = answer(frame);
        if (bytes) socket.write(bytes);
      }
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { port, asked };
}

const DONGLE = "WG0000T001";
const DEVICE = "EM0000T001";

describe("local scan asks each open port who its device is", () => {
  it("tells the model from the banks when the identity registers are refused, with the serial the answers carry", async () => {
    const dongle = await fakeDongle((request) => {
      const common = { dongleSerial: DONGLE, address: request.address, deviceSerial: DEVICE, base: request.base };
      // Only the EMS's rollup answers: as an EMS that refuses HR 0-59 would.
      if (request.function === 4 && request.base === 2040)
        return buildResponse({ ...common, function: 4, values: Array.from({ length: request.count }, () => 1) });
      return buildErrorResponse({ ...common, function: request.function, count: request.count });
    });
    const found = await identifyDongle("127.0.0.1", dongle.port, { connectMs: 500, answerMs: 1_000 });
    expect(found).toEqual({
      found: true,
      host: "127.0.0.1",
      port: dongle.port,
      dongleSerial: DONGLE,
      kind: "ems",
      model: "EMS",
      serial: DEVICE,
      detectedFrom: "banks",
    });
    // HR 0-59, then IR 0-59, 1000-1059 and 2040-2099, where the model is told: the gateway's bank is not asked.
    expect(dongle.asked.map((request) => `${request.function}/${request.base}/${request.count}`)).toEqual([
      "3/0/60",
      "4/0/60",
      "4/1000/60",
      "4/2040/60",
    ]);
  }, 15_000);

  it("gives up on a port that takes the connection and never answers after two requests, saying why", async () => {
    const silent = await fakeDongle(() => undefined);
    const found = await identifyDongle("127.0.0.1", silent.port, { connectMs: 500, answerMs: 200 });
    expect(found).toEqual({
      found: false,
      host: "127.0.0.1",
      port: silent.port,
      dongleSerial: "",
      reason: "no answer from device 0x11 for registers 0-59 within 200 ms",
    });
    expect(silent.asked).toHaveLength(2);
  }, 15_000);
});
