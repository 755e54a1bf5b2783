import type { CloudClient } from "../../../src/cloud/client.js";
import type { EvChargerDevice, InverterDevice } from "../../../src/sources/index.js";

/** An inverter as the inventory describes it, with the settings and presets the cloud lists for it. */
export async function inverterDevice(
  client: CloudClient,
  serial: string,
  overrides: Partial<InverterDevice> = {},
): Promise<InverterDevice> {
  const [settings, presets] = await Promise.all([
    client.inverterControl.settings(serial),
    client.inverterControl.presets(serial),
  ]);
  return {
    kind: "inverter",
    serial,
    model: "test",
    dongleSerial: "",
    firmware: {},
    batteries: [],
    meters: [],
    flags: ["is-controllable"],
    controllable: true,
    settings,
    presets,
    ...overrides,
  };
}

/** An EV charger as the inventory describes it, with the commands it supports. */
export async function chargerDevice(client: CloudClient, uuid: string): Promise<EvChargerDevice> {
  const [charger, commands] = await Promise.all([client.evChargers.get(uuid), client.evChargers.knownCommands(uuid)]);
  return {
    kind: "ev_charger",
    uuid,
    serial: charger.serial_number,
    alias: charger.alias ?? "",
    type: charger.type ?? "",
    commands,
  };
}
