import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { LongestFirstSequencer } from "./test/longest-first-sequencer.js";

/*
 * The test files share their forks, one file after another: a fresh fork for each file paid a
 * second or more (up to three under load) of starting and importing the daemon's modules, more
 * than most files' tests. Every file stops what it starts in its afterAll.
 *
 * The replays of real captures keep a fork each (REPLAYS): they run the daemon on a clock sixty
 * times faster than the wall's, where a request timeout is 83 ms, so that nothing another file
 * left running takes the processor from them.
 */
const REPLAYS = ["test/local/replay/**/*.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Most files spend their time waiting on brokers, daemons and timers rather than on the
    // processor: with three forks on CI's two cores a third of it sat idle.
    maxWorkers: availableParallelism() + 2,
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      { extends: true, test: { name: "shared", include: ["test/**/*.test.ts"], exclude: REPLAYS, isolate: false } },
      { extends: true, test: { name: "replays", include: REPLAYS } },
    ],
  },
});
