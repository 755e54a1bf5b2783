import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { LongestFirstSequencer } from "./test/longest-first-sequencer.js";

/*
 * Two kinds of test file. Most files are small and check code in one process: a fresh fork for
 * each paid a second or more of starting and importing, more than their tests. Those (the folders
 * below) share their forks, one file after another. The rest start daemons, brokers, browsers and
 * timers of their own and keep a fork each, so that nothing one leaves behind reaches the next:
 * with every file sharing, a Plan page test found a plan another file had left (CI, 2026-11-29).
 * A new folder is isolated until it is listed here.
 */
const SHARED = [
  "test/*.test.ts",
  "test/{bench,broker,bus,cloud,config,demo,docs,evc,givtcp,history,lint,ocpp,optimiser,store,time,validation}/**/*.test.ts",
  "test/{helpers,homeassistant,simulator}/**/*.test.ts",
  "test/local/*.test.ts",
  "test/rules/*.test.ts",
  "test/rules/{forecasts,tariffs}/**/*.test.ts",
  "test/sources/*.test.ts",
  "test/sources/{cloud,local,ocpp}/**/*.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Vitest's default is one fork fewer than the cores: a single fork on CI's two, where most
    // files spend their time waiting on brokers, daemons and timers rather than on the processor.
    // More than three made the replays of real captures (a 60x clock) fail under load.
    maxWorkers: Math.max(3, availableParallelism() - 1),
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      { extends: true, test: { name: "isolated", include: ["test/**/*.test.ts"], exclude: SHARED } },
      { extends: true, test: { name: "shared", include: SHARED, isolate: false } },
    ],
  },
});
