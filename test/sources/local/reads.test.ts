import { describe, expect, it } from "vitest";
import { type CapturedFrame, readCapture } from "../../../src/local/capture.js";
import { ChainDecoder, type DecodedDevice } from "../../../src/local/decode.js";
import type { Detected } from "../../../src/local/registers/model.js";
import type { Read } from "../../../src/local/session.js";
import { IDENTITY, liveReads } from "../../../src/sources/local/reads.js";
import { type CaptureName, captureText } from "../../local/captures.js";

/*
 * A live poll reads only the banks liveReads names; the decoders read whatever was answered. On
 * every captured model, the controller decoded from what the daemon reads (its identity, then
 * its live polls) must be the controller decoded from all the capture holds: a register the
 * decoder reads and the poll skips would leave its entity empty on a live daemon.
 */

const CONTROLLER_ADDRESSES = new Set([0x11, 0x31]);

/** The part of a controller's answer that falls inside `read`, as one answer of its own. */
function within(frame: CapturedFrame, read: Read): CapturedFrame | undefined {
  const answer = frame.frame;
  if (answer.kind !== "response" || answer.function !== read.function) return undefined;
  const from = Math.max(answer.base, read.base);
  const to = Math.min(answer.base + answer.count, read.base + read.count);
  if (from >= to) return undefined;
  const values = answer.values.slice(from - answer.base, to - answer.base);
  return { ...frame, frame: { ...answer, base: from, count: values.length, values } };
}

/** The capture as a daemon polling this model would have heard it: the controller's answers cut to its reads. */
function asPolled(frames: readonly CapturedFrame[], reads: readonly Read[]): CapturedFrame[] {
  return frames.flatMap((frame) => {
    const answer = frame.frame;
    if (answer.kind !== "response" || !CONTROLLER_ADDRESSES.has(answer.address)) return [frame];
    return reads.flatMap((read) => within(frame, read) ?? []);
  });
}

const controllerOf = (devices: readonly DecodedDevice[]): DecodedDevice | undefined =>
  devices.find((device) => device.address === "0x11");

const CAPTURED: readonly CaptureName[] = [
  "hybridPoll",
  "hybrid60",
  "gen2",
  "hvGen3",
  "ac2x",
  "aio612",
  "threePhaseDetect",
  "gatewayDay",
  "ems60s",
];

describe("what a live poll reads", () => {
  it.each(CAPTURED)("%s: the poll's banks hold every register the controller's decoder reads", (name) => {
    const frames = readCapture(captureText(name)).frames;
    const everything = new ChainDecoder().acceptAll(frames);
    const detected = everything.detect();
    const polled = new ChainDecoder().acceptAll(asPolled(frames, [IDENTITY, ...liveReads(detected)]));
    const full = controllerOf(everything.devices());
    expect(full?.state, `${name} (${detected.model})`).toBeDefined();
    expect(controllerOf(polled.devices())?.state).toEqual(full?.state);
  });

  it("reads the three-phase's daily counters (IR 1360-1413) and the Gen1's battery counters (IR 180-183)", () => {
    const threePhase: Detected = { model: "Three-phase hybrid", family: "three-phase", from: "identity" };
    const gen1: Detected = { model: "Hybrid Gen1", family: "single-phase", from: "identity" };
    expect(liveReads(threePhase)).toContainEqual({ address: 0x11, function: 4, base: 1360, count: 54 });
    expect(liveReads(gen1)).toContainEqual({ address: 0x11, function: 4, base: 180, count: 4 });
  });
});
