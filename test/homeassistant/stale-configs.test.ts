import { describe, expect, it } from "vitest";
import { staleConfigs } from "../../src/homeassistant/stale-configs.js";

const ours = (id: string, base = "e2m") =>
  JSON.stringify({ unique_id: `energy2mqtt_${id}`, state_topic: `${base}/${id.split("_")[0]}` });

describe("staleConfigs", () => {
  it("lists our retained configs that are not published now", () => {
    const retained = new Map([
      ["ha/sensor/inv1/battery_soc/config", ours("inv1_battery_soc")],
      ["ha/sensor/gone/battery_soc/config", ours("gone_battery_soc")],
    ]);
    const current = new Set(["ha/sensor/inv1/battery_soc/config"]);
    expect(staleConfigs(retained, { baseTopic: "e2m", keep: (t) => current.has(t) })).toEqual([
      "ha/sensor/gone/battery_soc/config",
    ]);
  });

  it("leaves other integrations, other daemons' base topics, removals and unreadable payloads alone", () => {
    const retained = new Map([
      [
        "ha/sensor/0x1234/temperature/config",
        JSON.stringify({ unique_id: "0x1234_temperature", state_topic: "zigbee2mqtt/x" }),
      ],
      ["ha/sensor/other/power/config", ours("other_power", "second")],
      ["ha/sensor/removed/power/config", ""],
      ["ha/sensor/broken/power/config", "{not json"],
    ]);
    expect(staleConfigs(retained, { baseTopic: "e2m", keep: () => false })).toEqual([]);
  });

  it("knows a config by its availability topic when it has no state topic (buttons)", () => {
    const button = JSON.stringify({
      unique_id: "energy2mqtt_inv1_restart",
      command_topic: "e2m/inv1/set/restart",
      availability: [{ topic: "e2m/bridge/state" }],
    });
    expect(
      staleConfigs(new Map([["ha/button/inv1/restart/config", button]]), { baseTopic: "e2m", keep: () => false }),
    ).toEqual(["ha/button/inv1/restart/config"]);
  });
});
