import { firstPage } from "../first-page.js";
import { deviceId, type SmartDeviceInfo } from "../inventory.js";
import { live, type Resource, type ResourceContext } from "../resource.js";

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
      if (!point) return { readings: [] };
      return {
        readings: [{ kind: "smart.data", uuid, at: now(), point }],
        fetched: [{ kind: "smart.data", uuid, points: [point] }],
      };
    },
  };
}
