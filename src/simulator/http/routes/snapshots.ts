import { invalid, notFound, ok } from "../envelope.js";
import { bodyObject, type RequestContext, type Route } from "../route.js";
import { withInverter } from "./inverter-lookup.js";
import { validate } from "./validation.js";

const SYNC_RULES = { sync: ["required", "boolean"], context: ["optional", "string"] };

function snapshotName(c: RequestContext) {
  return validate({ name: c.params.name }, { name: ["required", "string", "max:32"] });
}

/** Snapshots belong to the actor that took them: another actor sees none of them. */
export const snapshotRoutes: readonly Route[] = [
  {
    method: "GET",
    path: "/inverter/{inverter_serial_number}/snapshot/{name}",
    scopes: ["api:inverter:control", "api:snapshot:read"],
    handle: (c) =>
      snapshotName(c) ??
      withInverter(c, (record) =>
        ok({ exists: c.world.snapshotsOf(record.serial, c.actor.name).has(c.params.name ?? "") }),
      ),
  },
  {
    method: "POST",
    path: "/inverter/{inverter_serial_number}/snapshot/{name}",
    scopes: ["api:inverter:control", "api:snapshot:write"],
    handle: (c) =>
      snapshotName(c) ??
      validate(c.body, SYNC_RULES) ??
      withInverter(c, (record) => {
        const name = c.params.name ?? "";
        const snapshots = c.world.snapshotsOf(record.serial, c.actor.name);
        if (snapshots.has(name)) return invalid({ snapshot: [`A snapshot named "${name}" already exists.`] });
        snapshots.set(name, { settings: record.control.captureSettings() });
        return ok({ success: true });
      }),
  },
  {
    method: "POST",
    path: "/inverter/{inverter_serial_number}/snapshot/{name}/restore",
    scopes: ["api:inverter:control", "api:snapshot:write"],
    handle: (c) =>
      snapshotName(c) ??
      validate(c.body, SYNC_RULES) ??
      withInverter(c, (record) => {
        const name = c.params.name ?? "";
        const snapshots = c.world.snapshotsOf(record.serial, c.actor.name);
        const snapshot = snapshots.get(name);
        if (!snapshot) return notFound(`Snapshot "${name}" not found.`);
        const result = record.control.restoreSettings(snapshot.settings);
        if (result.success) snapshots.delete(name);
        const sync = bodyObject(c.body).sync;
        // Without sync the work is queued and the answer carries no feedback.
        return ok({ success: sync === true || sync === 1 ? result.success : true });
      }),
  },
  {
    method: "DELETE",
    path: "/inverter/{inverter_serial_number}/snapshot/{name}",
    scopes: ["api:inverter:control", "api:snapshot:delete"],
    handle: (c) =>
      snapshotName(c) ??
      withInverter(c, (record) => {
        const name = c.params.name ?? "";
        const snapshots = c.world.snapshotsOf(record.serial, c.actor.name);
        if (!snapshots.delete(name)) return notFound(`Snapshot "${name}" not found.`);
        return ok({ success: true });
      }),
  },
];
