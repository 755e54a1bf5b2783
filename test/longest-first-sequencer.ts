import { BaseSequencer, type TestSpecification } from "vitest/node";

/*
 * On a fresh clone (CI) vitest knows no file's duration and runs them in the order it finds them,
 * so a file of a minute or more could start last and run alone at the end (sigterm.test.ts did:
 * its last 70 s on one of three forks). These, the longest in CI's JSON report of 2026-11-29
 * (seconds on 2 cores with 3 forks), start first; the rest follow in vitest's own order, which
 * with durations it has kept from an earlier run is already longest first.
 */
const LONGEST = [
  "test/app/givtcp-names.test.ts", // 114 s
  "test/app/ha-zero-warnings.test.ts", // 75
  "test/local/replay/sigterm.test.ts", // 69
  "test/local/replay/captures-daemon.test.ts", // 62
  "test/commands/run-stop.test.ts", // 60
  "test/commands/settings-backup-restore.test.ts", // 56
  "test/app/failover.test.ts", // 49
  "test/app/ha-retained.test.ts", // 48
  "test/web/accessibility.browser.test.ts", // 38
  "test/app/inverter-faults.test.ts", // 34
  "test/web/history-changes.browser.test.ts", // 34
  "test/commands/check-run-agree.test.ts", // 32
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
