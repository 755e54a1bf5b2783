import type { DeviceControl } from "../sources/index.js";
import { type FailureKind, PathFailure } from "../vocabulary/index.js";
import { runChargerAction } from "./charger-action-run.js";
import type { DeviceAction, DeviceActionOutcome } from "./device-action.js";

const COMMAND = { priority: "command" as const };

/** The failures a requester acts on, by the path's kind; the others are told by their message alone. */
const ACTED_ON: Partial<Record<FailureKind, DeviceActionOutcome["failure"]>> = {
  forbidden: "forbidden",
  "not-found": "not-found",
  "invalid-data": "invalid",
};

/** Sends a device action through the path and turns its answer (or its error) into an outcome. */
export async function runDeviceAction(
  control: DeviceControl,
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
            ? await control.cloudOnly.snapshots.take(serial, name, options)
            : op === "restore"
              ? await control.cloudOnly.snapshots.restore(serial, name, options)
              : await control.cloudOnly.snapshots.delete(serial, name, options);
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
          const answer = await control.cloudOnly.presetProfiles.apply(serial, action.request, options);
          return { ok: true, message: `preset profile ${action.request.name} applied`, data: answer };
        }
        const answer =
          action.op === "create"
            ? await control.cloudOnly.presetProfiles.create(serial, action.profile, options)
            : action.op === "update"
              ? await control.cloudOnly.presetProfiles.update(serial, action.profile, options)
              : await control.cloudOnly.presetProfiles.delete(serial, action.profile, options);
        return { ok: true, message: `preset profile ${action.profile.name} ${action.op}d`, data: answer };
      }
      case "notification": {
        const answer = await control.cloudOnly.notifications.send(action.notification, options);
        return answer.success
          ? { ok: true, message: "notification sent", data: answer }
          : { ok: false, failure: "unconfirmed", message: "delivery failed on a platform", data: answer };
      }
      case "smart-device-data": {
        const answer = await control.cloudOnly.smartDevices.addData(action.uuid, action.point, options);
        return { ok: true, message: "data point added", data: answer };
      }
      case "charger":
        return await runChargerAction(control.chargers, action.uuid, action.action);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const failure = error instanceof PathFailure ? ACTED_ON[error.kind] : undefined;
    return failure === undefined ? { ok: false, message } : { ok: false, failure, message };
  }
}
