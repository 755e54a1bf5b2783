/*
 * The snapshot names the daemon keeps for itself (a pause it holds, its limits before the pause):
 * `e2m:` and a name. No one else may take, restore or delete a snapshot under that prefix, so a
 * user's snapshot can never overwrite or remove what the daemon needs to put the house back.
 */

/** The prefix of the daemon's own snapshot names. */
export const OWN_SNAPSHOT_PREFIX = "e2m:";

/** One of the daemon's own snapshot names: `e2m:<what>`. */
export function ownSnapshotName(what: string): string {
  return `${OWN_SNAPSHOT_PREFIX}${what}`;
}

/** Why a requested snapshot name may not be used; undefined when it may (any case of `e2m:` is reserved). */
export function reservedSnapshotName(name: string): string | undefined {
  if (!name.toLowerCase().startsWith(OWN_SNAPSHOT_PREFIX)) return undefined;
  return `snapshot names starting "${OWN_SNAPSHOT_PREFIX}" are energy2mqtt's own (got "${name}"): choose another name`;
}
