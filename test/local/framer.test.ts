import { describe, expect, it } from "vitest";
import { buildHeartbeat, buildReadRequest, buildResponse, parseFrame } from "../../src/local/frame.js";
import { Framer, type FramerEvent } from "../../src/local/framer.js";

const response = buildResponse({
  dongleSerial: "WF0000G000",
  address: 0x11,
  function: 0x04,
  deviceSerial: "SA0000G000",
  base: 0,
  values: Array.from({ length: 60 }, (_, i) => i * 3),
});
const heartbeat = buildHeartbeat("WF0000G000");

const frames = (events: readonly FramerEvent[]) => events.filter((e) => e.type === "frame");

describe("the framer", () => {
  it("builds frames that parse back: request, response, heartbeat", () => {
    const request = buildReadRequest({ dongleSerial: "AB0000G000", address: 0x11, function: 4, base: 180, count: 60 });
    expect(parseFrame(request)).toEqual({
      kind: "request",
      dongleSerial: "AB0000G000",
      address: 0x11,
      function: 4,
      base: 180,
      count: 60,
    });
    expect(parseFrame(heartbeat)).toEqual({ kind: "heartbeat", dongleSerial: "WF0000G000", beat: 1 });
    const parsed = parseFrame(response);
    expect(parsed.kind === "response" && parsed.values[59]).toBe(177);
  });

  it("matches a request the real dongle accepted byte for byte", () => {
    // From hybrid_hv_gen3_a: `tx: 59590001001c010241423132333447303030000000000000000811040000003cf28b`.
    const request = buildReadRequest({ dongleSerial: "AB1234G000", address: 0x11, function: 4, base: 0, count: 60 });
    expect(Buffer.from(request).toString("hex")).toBe(
      "59590001001c010241423132333447303030000000000000000811040000003cf28b",
    );
  });

  it("refuses a request for more than 60 registers, saying so", () => {
    expect(() =>
      buildReadRequest({ dongleSerial: "AB0000G000", address: 0x11, function: 4, base: 0, count: 61 }),
    ).toThrow(/bad read request/);
  });

  it("finds frames split anywhere and glued together", () => {
    const stream = Buffer.concat([response, heartbeat, response]);
    for (const cut of [1, 3, 5, 7, 100, 164, 170]) {
      const framer = new Framer();
      const events = [...framer.push(stream.subarray(0, cut)), ...framer.push(stream.subarray(cut))];
      expect(frames(events)).toHaveLength(3);
      expect(events.every((e) => e.type !== "stray")).toBe(true);
    }
  });

  it("skips stray bytes and slips, and reports how many", () => {
    const framer = new Framer();
    const events = framer.push(
      Buffer.concat([Buffer.from([0x00, 0x59, 0x13]), response, Buffer.from([0x59, 0x59]), heartbeat]),
    );
    expect(frames(events)).toHaveLength(2);
    expect(events.filter((e) => e.type === "stray").reduce((n, e) => n + (e.type === "stray" ? e.count : 0), 0)).toBe(
      5,
    );
  });

  it("reports a CRC failure without throwing, and a frame cut short by the next one", () => {
    const bad = Uint8Array.from(response);
    bad[100] = (bad[100] ?? 0) ^ 0xff;
    const framer = new Framer();
    const events = framer.push(Buffer.concat([bad, response.subarray(0, 80), heartbeat, response]));
    expect(events.map((e) => (e.type === "frame" ? `frame:${e.crcOk}` : e.type))).toEqual([
      "frame:false",
      "truncated",
      "frame:true",
      "frame:true",
    ]);
  });

  it("does not hold a heartbeat back behind a frame that will never be finished", () => {
    const framer = new Framer();
    const events = framer.push(Buffer.concat([response.subarray(0, 80), heartbeat]));
    expect(events.map((e) => e.type)).toEqual(["truncated", "frame"]);
    expect(framer.midFrame).toBe(false);
  });
});
