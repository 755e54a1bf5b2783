import type { ServerResponse } from "node:http";
import type { Store } from "../store/index.js";
import type { SettingsBackupsView } from "./api-types.js";
import { json } from "./respond.js";

const FILE = /^\/api\/settings-backups\/(\d+)\.yaml$/;

/**
 * The daemon's daily settings backups: `GET api/settings-backups` lists them (the Health page),
 * `GET api/settings-backups/<id>.yaml` hands one out as the file `settings restore` reads.
 * Undefined when the path is not theirs.
 */
export function settingsBackupsRoute(
  path: string,
  response: ServerResponse,
  store: Store | undefined,
): Promise<void> | undefined {
  if (path !== "/api/settings-backups" && !path.startsWith("/api/settings-backups/")) return undefined;
  return answer(path, response, store);
}

async function answer(path: string, response: ServerResponse, store: Store | undefined): Promise<void> {
  if (!store) return json(response, 503, { error: "the store is not open, so no backups are kept" });
  if (path === "/api/settings-backups") {
    const view: SettingsBackupsView = { backups: store.settingsBackups.list() };
    return json(response, 200, view);
  }
  const id = FILE.exec(path)?.[1];
  const backup = id === undefined ? undefined : store.settingsBackups.yaml(Number(id));
  if (!backup) return json(response, 404, { error: `no settings backup at ${path}` });
  const day = new Date(backup.takenAt).toISOString().slice(0, 10);
  response.writeHead(200, {
    "content-type": "application/yaml; charset=utf-8",
    "content-disposition": `attachment; filename="energy2mqtt-settings-${fileSafe(backup.serial)}-${day}.yaml"`,
    "cache-control": "no-store",
  });
  response.end(backup.yaml);
}

const fileSafe = (serial: string): string => serial.replace(/[^A-Za-z0-9_-]/g, "_");
