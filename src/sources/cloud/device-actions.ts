import type { ApplyProfileRequest, CloudClient, ProfileRef } from "../../cloud/index.js";
import type { CloudOnlyActions } from "../cloud-only-actions.js";

type ActionSections = Pick<CloudClient, "snapshots" | "presetProfiles" | "notifications" | "smartDevices">;

/**
 * The cloud's sections as the daemon's device actions. A preset is passed on as it was asked: the
 * client checks it against the presets profiles accept before sending, and refuses it there
 * (InvalidRequestError) with the message the requester is answered with.
 */
export function cloudActions(client: ActionSections): CloudOnlyActions {
  const { snapshots, presetProfiles, notifications, smartDevices } = client;
  return {
    snapshots: {
      take: (serial, name, call) => snapshots.take(serial, name, call),
      restore: (serial, name, call) => snapshots.restore(serial, name, call),
      delete: (serial, name, call) => snapshots.delete(serial, name, call),
    },
    presetProfiles: {
      apply: (serial, request, call) => presetProfiles.apply(serial, request as ApplyProfileRequest, call),
      create: (serial, profile, call) => presetProfiles.create(serial, profile as ProfileRef, call),
      update: (serial, profile, call) => presetProfiles.update(serial, profile as ProfileRef, call),
      delete: (serial, profile, call) => presetProfiles.delete(serial, profile as ProfileRef, call),
    },
    notifications: { send: (notification, call) => notifications.send(notification, call) },
    smartDevices: { addData: (uuid, point, call) => smartDevices.addData(uuid, point, call) },
  };
}
