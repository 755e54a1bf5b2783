import type { ServedInverter, SnapshotRecord } from "../../world/world.js";
import { type Answer, invalid, notFound, ok } from "../envelope.js";
import { bodyObject, type RequestContext, type Route } from "../route.js";
import { withInverter } from "./inverter-lookup.js";
import { validate } from "./validation.js";

const SYNC_RULES = { sync: ["required", "boolean"], context: ["optional", "string"] };

function snapshotName(c: RequestContext) {
  return validate({ name: c.params.name }, { name: ["required", "string", "max:32"] });
}

/** The path's inverter, the snapshot name, and the snapshots the calling actor owns on it. */
function withSnapshots(
  c: RequestContext,
  handle: (record: ServedInverter, name: string, snapshots: Map<string, SnapshotRecord>) => Answer,
): Answer {
  return withInverter(c, (record) =>
    handle(record, c.params.name ?? "", c.world.snapshotsOf(record.serial, c.actor.name)),
  );
}

/** Snapshots belong to the actor that took them: another actor sees none of them. */
export const snapshotRoutes: readonly Route[] = [
  {
    method: "GET",
    path: "/inverter/{inverter_serial_number}/snapshot/{name}",
    scopes: ["api:inverter:control", "api:snapshot:read"],
    handle: (c) =>
      snapshotName(c) ?? withSnapshots(c, (_record, name, snapshots) => ok({ exists: snapshots.has(name) })),
  },
  {
    method: "POST",
    path: "/inverter/{inverter_serial_number}/snapshot/{name}",
    scopes: ["api:inverter:control", "api:snapshot:write"],
    handle: (c) =>
      snapshotName(c) ??
      validate(c.body, SYNC_RULES) ??
      withSnapshots(c, (record, name, snapshots) => {
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
      withSnapshots(c, (record, name, snapshots) => {
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
      withSnapshots(c, (_record, name, snapshots) => {
        if (!snapshots.delete(name)) return notFound(`Snapshot "${name}" not found.`);
        return ok({ success: true });
      }),
  },
];
