import { type DeviceId, deviceIdOf } from "../../../vocabulary/device-id.js";
import { EMS_INVERTER_STATUS, emsCodeName } from "../../../vocabulary/index.js";
import type { EmsDevice } from "../../inventory.js";
import type { Resource } from "../../resource.js";
import { live, type ResourceContext } from "../context.js";
import { emsValuesOf, measuredAt } from "../readings.js";

/**
 * The EMS's system data, which also carries its child inverters' values: the children are not
 * polled for live data themselves. `onChildStatus` hears each change of a child's status code
 * after the first one seen (the children's fault events are read on those changes).
 */
export function emsResource(
  context: ResourceContext,
  ems: EmsDevice,
  periodMs: number,
  onChildStatus: (serial: string) => void,
): Resource {
  const { client, now, timezone } = context;
  const childIds = ems.inverterSerials.map(deviceIdOf);
  const statuses = new Map<string, number>();
  return {
    name: `ems ${ems.serial}`,
    of: { kind: "ems", serial: ems.serial },
    devices: [deviceIdOf(ems.serial), ...childIds],
    periodMs,
    async poll(signal) {
      const data = await client.ems.systemDataLatest(ems.serial, live(signal));
      const down: Record<DeviceId, string> = {};
      for (const child of data.inverters) {
        const serial = child.serial_number;
        if (!serial) continue;
        const previous = statuses.get(serial);
        statuses.set(serial, child.status);
        if (previous !== undefined && previous !== child.status) onChildStatus(serial);
        if (emsCodeName(EMS_INVERTER_STATUS, child.status) === "OFFLINE") {
          down[deviceIdOf(serial)] = `EMS ${ems.serial} reports inverter ${serial} as OFFLINE`;
        }
      }
      const fetched = {
        kind: "ems",
        serial: ems.serial,
        at: now(),
        measuredAt: measuredAt(data.time, timezone),
        values: emsValuesOf(data),
      } as const;
      return { fetched, down };
    },
  };
}
