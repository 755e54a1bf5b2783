import { describe, expect, it } from "vitest";
import { readCapture } from "../../src/local/capture.js";
import { CAPTURE_FILES, type CaptureName, captureText } from "./captures.js";

// What the framer finds in each real capture, frame by frame: every frame is one kind. The README's
// own figures (error responses, broadcasts, heartbeats, requests and answers) are checked below.
const EXPECTED: Record<CaptureName, Record<string, number>> = {
  aio612: { heartbeat: 4, request: 0, response: 46, error: 1, "crc-failure": 1, broadcast: 0, "unreadable-line": 0 },
  aio620: { heartbeat: 6, request: 0, response: 64, error: 0, "crc-failure": 0, broadcast: 0, "unreadable-line": 0 },
  ac1x: { heartbeat: 20, request: 0, response: 366, error: 0, "crc-failure": 0, broadcast: 10, "unreadable-line": 0 },
  ac2x: { heartbeat: 20, request: 0, response: 426, error: 0, "crc-failure": 0, broadcast: 0, "unreadable-line": 0 },
  ems30: { heartbeat: 60, request: 0, response: 784, error: 0, "crc-failure": 7, broadcast: 0, "unreadable-line": 0 },
  ems60s: { heartbeat: 2, request: 0, response: 25, error: 0, "crc-failure": 0, broadcast: 0, "unreadable-line": 0 },
  gatewayDay: {
    heartbeat: 6,
    request: 0,
    response: 430,
    error: 0,
    "crc-failure": 0,
    broadcast: 0,
    "unreadable-line": 0,
  },
  gatewayNight: {
    heartbeat: 6,
    request: 0,
    response: 309,
    error: 0,
    "crc-failure": 0,
    broadcast: 0,
    "unreadable-line": 0,
  },
  hybridPoll: {
    heartbeat: 8,
    request: 241,
    response: 478,
    error: 0,
    "crc-failure": 0,
    broadcast: 0,
    "unreadable-line": 0,
  },
  hybrid60: {
    heartbeat: 42,
    request: 0,
    response: 1786,
    error: 4,
    "crc-failure": 11,
    broadcast: 0,
    "unreadable-line": 0,
  },
  gen2: { heartbeat: 0, request: 0, response: 14, error: 0, "crc-failure": 0, broadcast: 0, "unreadable-line": 0 },
  hvGen3: { heartbeat: 0, request: 17, response: 17, error: 0, "crc-failure": 0, broadcast: 0, "unreadable-line": 0 },
  threePhase10: {
    heartbeat: 6,
    request: 0,
    response: 115,
    error: 0,
    "crc-failure": 0,
    broadcast: 0,
    "unreadable-line": 1,
  },
  threePhaseDetect: {
    heartbeat: 6,
    request: 0,
    response: 415,
    error: 0,
    "crc-failure": 0,
    broadcast: 0,
    "unreadable-line": 0,
  },
  threePhaseHass: {
    heartbeat: 2,
    request: 92,
    response: 62,
    error: 0,
    "crc-failure": 0,
    broadcast: 0,
    "unreadable-line": 0,
  },
};

// The README's "CRC failures" come from a reader that takes each line as one frame: they are the
// lines that are not one whole frame (cut short, glued to a heartbeat, or a corrupted burst).
const README_CRC_FAILURES: Partial<Record<CaptureName, number>> = {
  aio612: 1,
  hybrid60: 4,
  ems30: 4,
  gatewayDay: 3,
  gatewayNight: 1,
};

describe("reading the real captures", () => {
  for (const name of Object.keys(CAPTURE_FILES) as CaptureName[]) {
    it(`${CAPTURE_FILES[name]}: every frame is one kind, and nothing is lost between frames`, () => {
      const capture = readCapture(captureText(name));
      expect(capture.counts).toEqual(EXPECTED[name]);
      expect(capture.strayBytes).toBe(0);
      for (const kind of ["heartbeat", "request", "response", "error", "broadcast"] as const) {
        expect(capture.frames.filter((f) => f.frame.kind === kind)).toHaveLength(capture.counts[kind]);
      }
      expect(capture.irregularLines).toBe(README_CRC_FAILURES[name] ?? 0);
    });
  }

  it("counts the README's figures: error responses, broadcasts, heartbeats, requests and 0x16 answers", () => {
    expect(readCapture(captureText("aio612")).counts.error).toBe(1);
    expect(readCapture(captureText("hybrid60")).counts.error).toBe(4);
    expect(readCapture(captureText("ac1x")).counts.broadcast).toBe(10);
    // Heartbeats every 60 s on the EMS for 30 minutes, each echoed.
    const ems = readCapture(captureText("ems30"));
    expect(ems.frames.filter((f) => f.frame.kind === "heartbeat" && f.direction === "rx")).toHaveLength(30);
    expect(ems.frames.filter((f) => f.frame.kind === "heartbeat" && f.direction === "tx")).toHaveLength(30);
    const hv = readCapture(captureText("hvGen3"));
    expect([hv.counts.request, hv.counts.response]).toEqual([17, 17]);
    expect(readCapture(captureText("threePhaseHass")).frames).toHaveLength(156);
    const detect = readCapture(captureText("threePhaseDetect"));
    expect(detect.frames.filter((f) => f.frame.kind === "response" && f.frame.function === 0x16)).toHaveLength(2);
  });

  it("skips the stray `rx 00` line with a counted warning", () => {
    const capture = readCapture(captureText("threePhase10"));
    expect(capture.counts["unreadable-line"]).toBe(1);
    expect(capture.warnings).toEqual([expect.stringMatching(/^line 128: .*rx 00$/)]);
  });

  it("broadcasts carry the dongle's LAN settings as text, from a WO... serial", () => {
    const broadcasts = readCapture(captureText("ac1x")).frames.flatMap((f) =>
      f.frame.kind === "broadcast" ? [f.frame] : [],
    );
    expect(broadcasts[0]?.dongleSerial).toMatch(/^WO/);
    expect(broadcasts[0]?.text.split(",")).toHaveLength(3);
  });

  it("reads the HA integration's format (`rx: <hex>`) with its comment lines", () => {
    const capture = readCapture("# a comment\ntx: 59590001000d0101414230303030473030300\nrx: zz\n");
    expect(capture.counts["unreadable-line"]).toBe(2);
  });
});
