import { describe, expect, it } from "vitest";
import { readCapture } from "../../src/local/capture.js";
import { ChainDecoder } from "../../src/local/decode.js";
import { gatewayCapacityKwh } from "../../src/local/registers/battery-capacity.js";
import { controlMapOf, decodeSetting, encodeSetting } from "../../src/local/registers/controls.js";
import { type CaptureName, captureText } from "./captures.js";

/*
 * A gateway's own controls over the LAN, read from the real gateway capture (GAAA0014 with two
 * All-in-Ones), whose holding registers HR 0-359 at 0x11 the polling GivTCP asked for: the map
 * GivTCP reads a gateway with (registers/controls.ts) decodes them to values that fit, its clock is
 * the house's time, and it counts its All-in-Ones.
 */

/** The controller's holding registers as the capture last answered them. */
function holdingOf(name: CaptureName): Map<number, number> {
  const words = new Map<number, number>();
  for (const { frame } of readCapture(captureText(name)).frames) {
    if (frame.kind !== "response" || frame.address !== 0x11 || frame.function !== 3) continue;
    frame.values.forEach((value, index) => {
      words.set(frame.base + index, value);
    });
  }
  return words;
}

const gatewayOf = (name: CaptureName) =>
  new ChainDecoder()
    .acceptAll(readCapture(captureText(name)).frames)
    .devices()
    .find((device) => device.kind === "gateway");

/** Each setting the gateway's map offers, as its captured register decodes. */
function settingsOf(name: CaptureName): Map<number, boolean | number | string> {
  const aios = gatewayOf(name)?.state.aio_count;
  const map = controlMapOf({ model: "Gateway" }, { aioCount: typeof aios === "number" ? aios : undefined });
  const words = holdingOf(name);
  const values = new Map<number, boolean | number | string>();
  for (const [id, entry] of map.settings) {
    const word = words.get(entry.register);
    if (word !== undefined) values.set(id, decodeSetting(entry, word));
  }
  return values;
}

describe("a gateway's own controls, from its real capture", () => {
  it("decodes the daylight capture's registers to the gateway's settings", () => {
    const values = settingsOf("gatewayDay");
    expect(Object.fromEntries(values)).toMatchObject({
      24: true, // eco mode (HR 27)
      56: false, // DC discharge off (HR 59)
      66: false, // AC charge off (HR 96)
      71: 4, // reserve % (HR 110)
      75: 4, // cut-off % (HR 114)
      77: 100, // charge target % (HR 116)
      64: "00:00", // charge slot 1 (HR 94/95)
      65: "05:00",
      101: 100, // its SOC limit (HR 242)
      53: "22:35", // discharge slot 1 (HR 56/57)
      54: "00:01",
      129: 4, // its SOC limit (HR 272)
      96: 1, // pause battery: charge (HR 318)
      155: "00:00", // pause slot (HR 319/320)
      156: "23:59",
      // HR 313/314: 50 % and 100 % of the two All-in-Ones' 12,000 W.
      72: 6000,
      73: 12_000,
    });
    // Every setting the map offers is among the registers the capture holds, and each decodes.
    const map = controlMapOf({ model: "Gateway" }, { aioCount: 2 });
    expect(values.size).toBe(map.settings.size);
  });

  it("reads pause battery off at night, the rest as by day", () => {
    const night = settingsOf("gatewayNight");
    expect(night.get(96)).toBe(0);
    expect(night.get(71)).toBe(4);
    expect(night.get(24)).toBe(true);
  });

  it("reads the gateway's clock as the house's time and its All-in-Ones' capacity", () => {
    // The daylight capture ends at 08:22 UTC: 09:22 in the house's summer time.
    expect(gatewayOf("gatewayDay")?.state.clock).toBe("2026-07-03T09:21:49");
    expect(gatewayOf("gatewayNight")?.state.clock).toMatch(/^2026-07-02T23:/);
    expect(gatewayCapacityKwh(Number(gatewayOf("gatewayDay")?.state.aio_count))).toBe(31.9);
  });

  it("turns a rate in W into the gateway's % of its All-in-Ones' rating, and refuses what it cannot hold", () => {
    const map = controlMapOf({ model: "Gateway" }, { aioCount: 2 });
    const charge = map.settings.get(72);
    if (!charge) throw new Error("the gateway with two All-in-Ones offers no charge power limit");
    expect(charge.register).toBe(313);
    expect(encodeSetting(charge, 3600)).toBe(30);
    expect(encodeSetting(charge, 12_000)).toBe(100);
    expect(() => encodeSetting(charge, 0)).toThrow(/from 120 to 12000/);
    expect(() => encodeSetting(charge, 12_120)).toThrow(/from 120 to 12000/);
    // Without the count there is no rating to take a % of: no power limits are offered.
    expect(controlMapOf({ model: "Gateway" }).settings.has(72)).toBe(false);
    // GivTCP writes a gateway's slots, reserve and pause to the gateway itself: all in its allowlist.
    for (const register of [27, 59, 94, 95, 96, 110, 116, 242, 272, 313, 314, 318, 319, 320])
      expect(map.allowlist.has(register)).toBe(true);
  });
});
