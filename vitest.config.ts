import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { LongestFirstSequencer } from "./test/longest-first-sequencer.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Vitest's default is one fork fewer than the cores: a single fork on CI's two, where most
    // files spend their time waiting on brokers, daemons and timers rather than on the processor
    // (with two forks the files' own times added up to 1.25 times the run's): three on two cores.
    maxWorkers: Math.max(3, availableParallelism() - 1),
    sequence: { sequencer: LongestFirstSequencer },
  },
});
