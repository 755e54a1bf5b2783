import type { CallOptions, CloudClient } from "../../cloud/index.js";
import type { EvChargerDevice, Inventory, SmartDeviceInfo } from "../inventory.js";
import type { DiscoverOptions } from "../ports.js";
import { discoverInverters } from "./discover-inverters.js";
import { orEmpty } from "./tolerate.js";

/**
 * What the account has: its inverters (with batteries, meters, settings and presets), EMS
 * plants, EV chargers with the commands they support, smart devices and sites. The account
 * comes first so that a bad token fails fast with the client's own message.
 */
export async function discoverInventory(client: CloudClient, options: DiscoverOptions = {}): Promise<Inventory> {
  const { logger, previous } = options;
  const call: CallOptions = { priority: "live", ...(options.signal ? { signal: options.signal } : {}) };
  const account = previous?.account ?? (await client.account.get(call));

  const strict = { oddBodyStands: previous !== undefined };
  const [devices, chargers, smart, sites] = await Promise.all([
    orEmpty(client.communicationDevices.list(call).all(), "communication devices", logger, strict),
    orEmpty(client.evChargers.list(call).all(), "EV chargers", logger, strict),
    orEmpty(client.smartDevices.list(call).all(), "smart devices", logger, strict),
    previous ? Promise.resolve([...previous.sites]) : orEmpty(client.sites.list(call).all(), "sites", logger),
  ]);
  const knownCommands = new Map(previous?.evChargers.map((c) => [c.uuid, c.commands]));
  const [{ inverters, ems }, evChargers] = await Promise.all([
    discoverInverters(client, devices, call, logger, previous),
    Promise.all(
      chargers.map(
        async (charger): Promise<EvChargerDevice> => ({
          kind: "ev_charger",
          uuid: charger.uuid,
          serial: charger.serial_number,
          alias: charger.alias ?? charger.serial_number,
          type: charger.type ?? "unknown",
          commands:
            knownCommands.get(charger.uuid) ??
            (await orEmpty(
              client.evChargers.knownCommands(charger.uuid, call),
              `commands of EV charger ${charger.serial_number}`,
              logger,
            )),
        }),
      ),
    ),
  ]);
  const smartDevices = smart.map(
    (device): SmartDeviceInfo => ({ kind: "smart_device", uuid: device.uuid, alias: device.alias ?? device.uuid }),
  );
  const timezone = account.standard_timezone ?? sites.find((site) => site.tz_timezone)?.tz_timezone ?? "UTC";

  logger?.info(
    {
      inverters: inverters.map((i) => i.serial),
      ems: ems.map((e) => e.serial),
      evChargers: evChargers.map((c) => c.serial),
      smartDevices: smartDevices.length,
      sites: sites.length,
    },
    "discovered the account's devices",
  );
  return { account, timezone, inverters, ems, evChargers, smartDevices, sites };
}
