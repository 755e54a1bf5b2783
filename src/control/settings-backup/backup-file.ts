import { stringify } from "yaml";
import { z } from "zod";
import { readYamlFile } from "../../files/yaml-file.js";

/** What the file says it is, so that a restore knows it reads one of ours and which version. */
export const BACKUP_FORMAT = "energy2mqtt-settings/1";

const settingValue = z.union([z.string(), z.number(), z.boolean()]);

const settingEntry = z.strictObject({
  /** The setting's name when it was read, for the reader; a restore goes by the key. */
  name: z.string().optional(),
  value: settingValue,
});

const settingKey = z.string().regex(/^\d+$/, "a setting key is the setting's number, e.g. 71");

const deviceBackup = z.strictObject({
  serial: z.string().min(1),
  kind: z.enum(["inverter", "ems"]),
  model: z.string(),
  firmware: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
  /** The path it was read over: local (its dongle) or cloud. */
  path: z.enum(["local", "cloud"]),
  settings: z.record(settingKey, settingEntry),
  /** Settings the device lists that could not be read, with why; never restored. */
  unreadable: z.record(settingKey, z.string()).optional(),
});

export const backupFile = z.strictObject({
  format: z.literal(BACKUP_FORMAT),
  /** ISO 8601, from the daemon's clock. */
  taken_at: z.iso.datetime({ offset: true }),
  devices: z.array(deviceBackup),
});

export type BackupFile = z.infer<typeof backupFile>;
export type DeviceBackup = z.infer<typeof deviceBackup>;
export type BackedUpSetting = z.infer<typeof settingEntry>;

const HEADER = "# energy2mqtt settings backup: put it back with `energy2mqtt settings restore FILE`\n";

/** The backup as the file holds it. */
export function backupYaml(backup: BackupFile): string {
  return HEADER + stringify(backupFile.parse(backup), { lineWidth: 0 });
}

/**
 * A file read back: the backup with `locate` (a field's `file:line`, for what is wrong with it
 * later), or each problem as `file:line: field: what to fix`.
 */
export type ReadBackup =
  | { readonly backup: BackupFile; readonly locate: (field: readonly PropertyKey[]) => string }
  | { readonly problems: readonly string[] };

/** Reads and checks a backup file; a file read back is untrusted, so every problem names its line. */
export function readBackupFile(path: string): ReadBackup {
  let file: ReturnType<typeof readYamlFile>;
  try {
    file = readYamlFile(path);
  } catch (error) {
    return { problems: [`${path}: cannot be read (${(error as Error).message})`] };
  }
  if (file.errors.length > 0) return { problems: file.errors };
  const parsed = backupFile.safeParse(file.raw);
  if (parsed.success) return { backup: parsed.data, locate: file.locate };
  return {
    problems: parsed.error.issues.map((issue) => {
      const field = issue.path.map(String).join(".") || "the file";
      return `${deepest(file.locate, issue.path)}: ${field}: ${issueText(issue)}`;
    }),
  };
}

/**
 * A setting's key may be written `71:` (a number in the YAML) or `"71":`, and is a string once
 * read: its line is looked up both ways, and the deeper find (the later line) is the field's.
 */
function deepest(locate: (path: readonly PropertyKey[]) => string, path: readonly PropertyKey[]): string {
  const asNumbers = path.map((segment) =>
    typeof segment === "string" && /^\d+$/.test(segment) ? Number(segment) : segment,
  );
  const found = [locate(path), locate(asNumbers)];
  const line = (at: string): number => Number(/:(\d+)$/.exec(at)?.[1] ?? 0);
  return found.reduce((best, at) => (line(at) > line(best) ? at : best));
}

function issueText(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_value" && issue.path[0] === "format")
    return `expected ${BACKUP_FORMAT}: this is not a file \`energy2mqtt settings backup\` wrote`;
  if (issue.code === "unrecognized_keys") return `unknown key ${issue.keys.join(", ")}: remove it`;
  return issue.message;
}
