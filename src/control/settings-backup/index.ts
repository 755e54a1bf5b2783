export {
  BACKUP_FORMAT,
  type BackupFile,
  backupFile,
  backupYaml,
  type DeviceBackup,
  type ReadBackup,
  readBackupFile,
} from "./backup-file.js";
export { type DailySettingsBackup, dailySettingsBackup } from "./daily-backup.js";
export type { SettingsReader } from "./device-settings.js";
export { describeLine, planRestore, type RestoreControl, type RestoreLine, type RestorePlan } from "./restore-plan.js";
export { RESTORE_REQUESTER, type RestoreResult, runRestore } from "./restore-run.js";
export { backUpDevice, devicesWithSettings, takeBackup } from "./take-backup.js";
