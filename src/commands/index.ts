/**
 * The CLI's commands, the folder's face. Each is loaded only when it runs, so that `--help` and
 * any one command load nothing of the others (the daemon's rules, the simulator, the archive).
 */
export const commands = {
  api: () => import("./api.js"),
  archive: () => import("./archive.js"),
  check: () => import("./check.js"),
  export: () => import("./export.js"),
  health: () => import("./health.js"),
  history: () => import("./history.js"),
  localDecode: () => import("./local-decode.js"),
  localScan: () => import("./local-scan.js"),
  rulesPlan: () => import("./rules-plan.js"),
  rulesSavings: () => import("./rules-savings.js"),
  run: () => import("./run.js"),
  set: () => import("./set.js"),
  settingsBackup: () => import("./settings-backup.js"),
  settingsRestore: () => import("./settings-restore.js"),
  simulate: () => import("./simulate.js"),
};
export { SET_USAGE } from "./set-usage.js";
