import { deviceId, type SmartDeviceInfo } from "../../inventory.js";
import type { Resource } from "../../resource.js";
import { live, type ResourceContext } from "../context.js";
import { firstPage } from "../first-page.js";
import { smartDeviceReadingOf } from "../history-items.js";

/** The newest data point of a smart device: the service lists them newest first, so one item suffices. */
export function smartDeviceResource(context: ResourceContext, device: SmartDeviceInfo, periodMs: number): Resource {
  const { client, now } = context;
  const { uuid } = device;
  return {
    name: `smart.data ${device.alias}`,
    devices: [deviceId(device)],
    periodMs,
    async poll(signal) {
      const page = await firstPage(client.smartDevices.data(uuid, { ...live(signal), pageSize: 1 }));
      const point = page.data[0];
      if (!point) return {};
      return {
        fetched: { kind: "smart.data", uuid, at: now(), points: [smartDeviceReadingOf(point, context.timezone)] },
      };
    },
  };
}
