import { describe, expect, it } from "vitest";
import { discoveryMessages } from "../../src/homeassistant/discovery.js";
import { DiscoveryRegistry } from "../../src/homeassistant/discovery-registry.js";
import { Topics } from "../../src/homeassistant/topics.js";
import type { Inventory } from "../../src/sources/index.js";
import { charger, emsChild, inventory, inverter } from "./entities/inventory.js";
import { sensorProblems } from "./entities/rules.js";

const topics = new Topics("energy2mqtt", "homeassistant");
const origin = { name: "energy2mqtt", sw_version: "0.1.0", support_url: "https://github.com/energy2mqtt/energy2mqtt" };
const messages = discoveryMessages(inventory, { topics, origin });

function payloadAt(topic: string): Record<string, unknown> {
  const message = messages.find((one) => one.topic === topic);
  if (!message) throw new Error(`nothing published on ${topic}`);
  return message.payload;
}

const AVAILABILITY = [
  {
    topic: "energy2mqtt/bridge/state",
    value_template: "{{ value_json.state }}",
    payload_available: "online",
    payload_not_available: "offline",
  },
  { topic: "energy2mqtt/sd2024g001/availability", payload_available: "online", payload_not_available: "offline" },
];

/** The device's availability, then the key's own: unavailable while the state holds no value for it. */
const availabilityOfKey = (key: string) => [
  ...AVAILABILITY,
  {
    topic: "energy2mqtt/sd2024g001",
    value_template: `{{ 'online' if value_json.${key} is defined and value_json.${key} is not none else 'offline' }}`,
    payload_available: "online",
    payload_not_available: "offline",
  },
];

const INVERTER_DEVICE = {
  identifiers: ["energy2mqtt_sd2024g001"],
  name: "Inverter SD2024G001",
  manufacturer: "GivEnergy",
  model: "GIV-HY5.0",
  serial_number: "SD2024G001",
  sw_version: "ARM 193, DSP 190",
  via_device: "energy2mqtt_wf2024d001",
};

describe("discoveryMessages", () => {
  it("publishes an energy counter exactly so, key order included", () => {
    const payload = payloadAt("homeassistant/sensor/sd2024g001/total_grid_import_energy/config");
    const expected = {
      name: "Total grid import",
      unique_id: "energy2mqtt_sd2024g001_total_grid_import_energy",
      default_entity_id: "sensor.inverter_sd2024g001_total_grid_import_energy",
      device_class: "energy",
      unit_of_measurement: "kWh",
      state_class: "total_increasing",
      icon: "mdi:transmission-tower-import",
      state_topic: "energy2mqtt/sd2024g001",
      value_template: "{{ value_json.total_grid_import_energy | default(none) }}",
      availability: availabilityOfKey("total_grid_import_energy"),
      availability_mode: "all",
      device: INVERTER_DEVICE,
      origin,
    };
    expect(JSON.stringify(payload)).toBe(JSON.stringify(expected));
  });

  it("publishes a switch exactly so, key order included", () => {
    const payload = payloadAt("homeassistant/switch/sd2024g001/eco_mode/config");
    const expected = {
      name: "Eco Mode",
      unique_id: "energy2mqtt_sd2024g001_eco_mode",
      default_entity_id: "switch.inverter_sd2024g001_eco_mode",
      icon: "mdi:leaf",
      state_topic: "energy2mqtt/sd2024g001",
      value_template: "{{ value_json.eco_mode | default(none) }}",
      command_topic: "energy2mqtt/sd2024g001/set/eco_mode",
      payload_on: "ON",
      payload_off: "OFF",
      state_on: "ON",
      state_off: "OFF",
      availability: availabilityOfKey("eco_mode"),
      availability_mode: "all",
      device: INVERTER_DEVICE,
      origin,
    };
    expect(JSON.stringify(payload)).toBe(JSON.stringify(expected));
  });

  it("publishes numbers with their bounds, times, selects and buttons", () => {
    expect(payloadAt("homeassistant/number/sd2024g001/setting_battery_reserve_percent_limit/config")).toMatchObject({
      unit_of_measurement: "%",
      entity_category: "config",
      enabled_by_default: false,
      command_topic: "energy2mqtt/sd2024g001/set/setting_battery_reserve_percent_limit",
      min: 4,
      max: 100,
      step: 1,
      mode: "box",
    });
    expect(payloadAt("homeassistant/time/sd2024g001/timed_charge_slot_1_start_time/config")).toMatchObject({
      command_topic: "energy2mqtt/sd2024g001/set/timed_charge_slot_1_start_time",
      value_template: "{{ value_json.timed_charge_slot_1_start_time | default(none) }}",
    });
    expect(payloadAt("homeassistant/select/sd2024g001/pause_battery_mode/config")).toMatchObject({
      options: ["Not Paused", "Pause Charge", "Pause Discharge", "Pause Charge and Discharge"],
    });
    const button = payloadAt(`homeassistant/button/${charger.uuid.toLowerCase()}/start_charge/config`);
    expect(button).toMatchObject({ payload_press: "PRESS" });
    expect(button).not.toHaveProperty("state_topic");
  });

  it("links an EMS plant's inverter to its EMS, and names EV chargers by alias", () => {
    const child = payloadAt("homeassistant/sensor/se2024g101/battery_soc/config");
    expect(child.device).toEqual({
      identifiers: ["energy2mqtt_se2024g101"],
      name: "Inverter SE2024G101",
      manufacturer: "GivEnergy",
      model: "GIV-AC3.0",
      serial_number: "SE2024G101",
      sw_version: "ARM 193, DSP 190",
      via_device: "energy2mqtt_em2024e001",
    });
    const ev = payloadAt(`homeassistant/sensor/${charger.uuid.toLowerCase()}/status/config`);
    expect(ev).toMatchObject({
      default_entity_id: "sensor.ev_charger_evc2024a001_status",
      device_class: "enum",
      device: { name: "Driveway", model: "GIV-EVC-7.4", serial_number: "EVC2024A001" },
    });
  });

  it("keeps every sensor within Home Assistant's device class rules", () => {
    const sensors = messages.filter((message) => message.topic.startsWith("homeassistant/sensor/"));
    expect(sensors.length).toBeGreaterThan(100);
    const problems = sensors.flatMap(({ topic, payload }) =>
      sensorProblems({
        device_class: payload.device_class as string | undefined,
        unit: payload.unit_of_measurement as string | undefined,
        state_class: payload.state_class as "measurement" | undefined,
      }).map((problem) => `${topic}: ${problem}`),
    );
    expect(problems).toEqual([]);
    for (const { payload } of sensors.filter((one) => one.payload.device_class === "energy")) {
      expect([payload.unit_of_measurement, payload.state_class]).toEqual(["kWh", "total_increasing"]);
    }
  });

  it("gives every entity a unique unique_id and topic", () => {
    const ids = messages.map((message) => message.payload.unique_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(messages.map((message) => message.topic)).size).toBe(messages.length);
  });

  it("is the same every time", () => {
    expect(JSON.stringify(discoveryMessages(inventory, { topics, origin }))).toBe(JSON.stringify(messages));
  });
});

describe("discovery across inventory changes", () => {
  it("announces the dongle before the inverter that names it as via_device", () => {
    const dongle = messages.findIndex((m) => m.topic === "homeassistant/sensor/wf2024d001/connection_type/config");
    const firstInverter = messages.findIndex((m) => m.topic.includes("/sd2024g001/"));
    expect(dongle).toBeGreaterThanOrEqual(0);
    expect(dongle).toBeLessThan(firstInverter);
    expect(messages[dongle]?.payload.device).toMatchObject({
      identifiers: ["energy2mqtt_wf2024d001"],
      serial_number: "WF2024D001",
    });
  });

  /** The empty retained configs the registry sends going from one inventory to the next. */
  async function removalsBetween(before: Inventory, after: Inventory): Promise<{ topic: string; payload: string }[]> {
    const sent: { topic: string; payload: string }[] = [];
    const registry = new DiscoveryRegistry(async (topic, payload) => {
      sent.push({ topic, payload });
    });
    await registry.sync(discoveryMessages(before, { topics, origin }));
    sent.length = 0;
    await registry.sync(discoveryMessages(after, { topics, origin }));
    return sent.filter((message) => message.payload === "");
  }

  it("empties the configs of exactly the devices that went away", async () => {
    const current: Inventory = { ...inventory, inverters: [emsChild], evChargers: [] };
    const removals = await removalsBetween(inventory, current);
    const gone = messages
      .filter(
        (message) =>
          message.topic.includes("/sd2024g001/") ||
          message.topic.includes("/wf2024d001/") ||
          message.topic.includes(`/${charger.uuid.toLowerCase()}/`),
      )
      .map((message) => message.topic);
    expect(removals.map((removal) => removal.topic).sort()).toEqual([...gone].sort());
    expect(removals.every((removal) => removal.payload === "")).toBe(true);
  });

  it("removes nothing when nothing went away, and entities a device no longer has", async () => {
    expect(await removalsBetween(inventory, inventory)).toEqual([]);
    const fewer = inverter.settings.filter((setting) => setting.id !== 271);
    const current: Inventory = { ...inventory, inverters: [{ ...inverter, settings: fewer }, emsChild] };
    expect(await removalsBetween(inventory, current)).toEqual([
      { topic: "homeassistant/switch/sd2024g001/setting_enable_eps/config", payload: "" },
    ]);
  });
});
