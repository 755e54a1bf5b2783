import { describe, expect, it } from "vitest";
import { withLanSteps } from "../../../src/sources/auto/register-steps.js";
import type { Inventory, InverterDevice } from "../../../src/sources/index.js";

const inverter = (range: string[], fieldRange: string[]): InverterDevice =>
  ({
    kind: "inverter",
    serial: "SD2024G001",
    settings: [
      { id: 72, name: "Battery Charge Power", validation_rules: range },
      { id: 17, name: "Enable AC Charge Upper % Limit", validation_rules: ["boolean"] },
    ],
    presets: [
      {
        id: 1,
        identifier: "battery-operating-range",
        name: "Battery Operating Range",
        parameters: {
          max_charge_watts: { validation: fieldRange },
          reserve_percent: { validation: ["between:4,100"] },
        },
      },
    ],
  }) as unknown as InverterDevice;

const house = (device: InverterDevice): Inventory => ({ inverters: [device] }) as unknown as Inventory;

describe("withLanSteps: source auto's listing", () => {
  it("takes the LAN's rules for a value the dongle holds in register steps, and keeps the cloud's for the rest", () => {
    const cloud = house(inverter(["between:0,3600"], ["between:0,3600"]));
    const lan = house(inverter(["between:0,4750", "multiple_of:95"], ["between:0,4750", "multiple_of:95"]));
    const merged = withLanSteps(cloud, lan).inverters[0];
    expect(merged?.settings.map((setting) => setting.validation_rules)).toEqual([
      ["between:0,4750", "multiple_of:95"],
      ["boolean"],
    ]);
    expect(merged?.presets[0]?.parameters).toEqual({
      max_charge_watts: { validation: ["between:0,4750", "multiple_of:95"] },
      reserve_percent: { validation: ["between:4,100"] },
    });
  });

  it("leaves the cloud's listing as it is where the LAN holds no value in steps", () => {
    const cloud = house(inverter(["between:0,3600"], ["between:0,3600"]));
    const lan = house(inverter(["between:0,3600"], ["between:0,3600"]));
    expect(withLanSteps(cloud, lan)).toEqual(cloud);
  });
});
