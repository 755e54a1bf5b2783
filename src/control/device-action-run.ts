import type { CloudClient } from "../cloud/client.js";
import { ForbiddenError, NotFoundError, ValidationError } from "../cloud/errors.js";
import type { DeviceAction, DeviceActionOutcome } from "./device-action.js";

const COMMAND = { priority: "command" as const };

/** Sends a device action to the cloud and turns its answer (or its error) into an outcome. */
export async function runDeviceAction(
  client: CloudClient,
  action: DeviceAction,
  signal: AbortSignal,
): Promise<DeviceActionOutcome> {
  const options = { ...COMMAND, signal };
  try {
    switch (action.kind) {
      case "snapshot": {
        const { serial, name, op } = action;
        const answer =
          op === "take"
            ? await client.snapshots.take(serial, name, options)
            : op === "restore"
              ? await client.snapshots.restore(serial, name, options)
              : await client.snapshots.delete(serial, name, options);
        const done = { take: "taken", restore: "restored", delete: "deleted" }[op];
        return answer.success
          ? { ok: true, message: `snapshot ${name} ${done}`, data: answer }
          : {
              ok: false,
              failure: "unconfirmed",
              message: `the cloud did not confirm snapshot ${name} ${done}`,
              data: answer,
            };
      }
      case "preset-profile": {
        const { serial } = action;
        if (action.op === "apply") {
          const answer = await client.presetProfiles.apply(serial, action.request, options);
          return { ok: true, message: `preset profile ${action.request.name} applied`, data: answer };
        }
        const answer =
          action.op === "create"
            ? await client.presetProfiles.create(serial, action.profile, options)
            : action.op === "update"
              ? await client.presetProfiles.update(serial, action.profile, options)
              : await client.presetProfiles.delete(serial, action.profile, options);
        return { ok: true, message: `preset profile ${action.profile.name} ${action.op}d`, data: answer };
      }
      case "notification": {
        const answer = await client.notifications.send(action.notification, options);
        return answer.success
          ? { ok: true, message: "notification sent", data: answer }
          : { ok: false, failure: "unconfirmed", message: "delivery failed on a platform", data: answer };
      }
      case "smart-device-data": {
        const answer = await client.smartDevices.addData(action.uuid, action.point, options);
        return { ok: true, message: "data point added", data: answer };
      }
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof ForbiddenError) return { ok: false, failure: "forbidden", message };
    if (error instanceof NotFoundError) return { ok: false, failure: "not-found", message };
    if (error instanceof ValidationError) return { ok: false, failure: "invalid", message };
    return { ok: false, message };
  }
}
