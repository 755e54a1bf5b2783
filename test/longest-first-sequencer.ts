import { BaseSequencer, type TestSpecification } from "vitest/node";

/*
 * On a fresh clone (CI) vitest knows no file's duration and runs them in the order it finds them,
 * so a file of a minute or more could start last and run alone at the end (sigterm.test.ts did:
 * its last 70 s on one of three forks). These, the longest of a whole run on 2026-11-29 (seconds
 * with hooks and imports, 2 cores, 4 forks), start first; the rest follow in vitest's own order,
 * which with durations it has kept from an earlier run is already longest first.
 */
const LONGEST = [
  "test/app/givtcp-names.test.ts", // 102 s
  "test/local/replay/captures-daemon.test.ts", // 68
  "test/app/ha-zero-warnings.test.ts", // 62
  "test/ship/packed-package.test.ts", // 59
  "test/app/ha-retained.test.ts", // 55
  "test/commands/settings-backup-restore.test.ts", // 55
  "test/app/ocpp-failover.test.ts", // 51
  "test/app/clock-sync.test.ts", // 51
  "test/app/failover.test.ts", // 51
  "test/local/replay/sigterm.test.ts", // 47
  "test/app/inverter-faults.test.ts", // 35
  "test/rules/engine/calibration-hold.test.ts", // 33
];

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = LONGEST.findIndex((name) => file.moduleId.endsWith(name));
      return index < 0 ? LONGEST.length : index;
    };
    return sorted
      .map((file, order) => ({ file, order, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .map(({ file }) => file);
  }
}
