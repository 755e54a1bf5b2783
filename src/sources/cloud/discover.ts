import type { CallOptions, CloudClient } from "../../cloud/index.js";
import type { SiteInfo } from "../../vocabulary/index.js";
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
  const fresh = previous ? undefined : await client.account.get(call);
  const account = previous?.account ?? { id: fresh?.id ?? 0, name: fresh?.name ?? "" };

  const strict = { oddBodyStands: previous !== undefined };
  const [devices, chargers, smart, listed] = await Promise.all([
    orEmpty(client.communicationDevices.list(call).all(), "communication devices", logger, strict),
    orEmpty(client.evChargers.list(call).all(), "EV chargers", logger, strict),
    orEmpty(client.smartDevices.list(call).all(), "smart devices", logger, strict),
    previous ? Promise.resolve(undefined) : orEmpty(client.sites.list(call).all(), "sites", logger),
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
  // A refresh keeps the zone and sites the first discovery found.
  const timezone =
    previous?.timezone ?? fresh?.standard_timezone ?? listed?.find((site) => site.tz_timezone)?.tz_timezone ?? "UTC";
  const sites: readonly SiteInfo[] =
    previous?.sites ?? listed?.map((site) => ({ id: site.id ?? null, name: site.name })) ?? [];

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
