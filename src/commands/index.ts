/**
 * The CLI's commands, the folder's face. Each is loaded only when it runs, so that `--help` and
 * any one command load nothing of the others (the daemon's rules, the simulator, the archive).
 */
export const commands = {
  // biome-ignore lint/style/noRestrictedImports: past sources/'s face on purpose: a command loads only when it runs.
  api: () => import("../sources/cloud/commands/api.js"),
  // biome-ignore lint/style/noRestrictedImports: past sources/'s face on purpose: a command loads only when it runs.
  archive: () => import("../sources/cloud/commands/archive.js"),
  check: () => import("./check.js"),
  export: () => import("./export.js"),
  health: () => import("./health.js"),
  history: () => import("./history.js"),
  localDecode: () => import("./local-decode.js"),
  localScan: () => import("./local-scan.js"),
  rulesPlan: () => import("./rules-plan.js"),
  rulesSavings: () => import("./rules-savings.js"),
  backtest: () => import("./backtest.js"),
  run: () => import("./run.js"),
  set: () => import("./set.js"),
  settingsBackup: () => import("./settings-backup.js"),
  settingsRestore: () => import("./settings-restore.js"),
  simulate: () => import("./simulate.js"),
};
export { SET_USAGE } from "./set-usage.js";
