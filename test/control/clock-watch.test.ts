import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { ClockWatch } from "../../src/control/clock-watch.js";
import { SimClock } from "../../src/simulator/clock.js";

const SERIAL = "SD2024G001";

/** A watch in `warn` mode: it must never set a clock; its warnings and problem changes are kept. */
function warnWatch() {
  const warnings: string[] = [];
  const problems: { problem: boolean; message?: string }[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void warnings.push(line) });
  const watch = new ClockWatch({
    sync: () => Promise.reject(new Error("warn mode must not set a clock")),
    modeOf: () => "warn",
    timeZone: () => "Europe/London",
    judgeOwnClock: () => Promise.resolve({ trusted: true, how: "test" }),
    clock: new SimClock({ speed: 0, start: Date.UTC(2026, 10, 17, 10, 0, 0) }),
    logger,
    onProblem: (_serial, problem, message) => problems.push(message === undefined ? { problem } : { problem, message }),
  });
  const warned = () =>
    warnings.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.level === 40);
  return { watch, problems, warned };
}

describe("ClockWatch with clock.sync: warn", () => {
  it("warns once of a clock left off, though each reading's drift moves a second either way", async () => {
    const { watch, problems, warned } = warnWatch();
    for (const drift of [600, 601, 600, 599, 601]) await watch.seen(SERIAL, drift);
    expect(warned().map((line) => line.msg)).toEqual([
      `the clock of ${SERIAL} is 600 s ahead of the house's time: its timed slots run at the wrong time. Set it on the inverter, or set clock: {sync: auto} to let the daemon set it over the LAN`,
    ]);
    expect(problems).toEqual([{ problem: true, message: warned()[0]?.msg }]);
  });

  it("clears the problem once the clock is right, and warns again when it is off again", async () => {
    const { watch, problems, warned } = warnWatch();
    await watch.seen(SERIAL, -90);
    await watch.seen(SERIAL, 1);
    await watch.seen(SERIAL, 0);
    await watch.seen(SERIAL, -95);
    expect(problems.map((change) => change.problem)).toEqual([true, false, true]);
    expect(warned().map((line) => line.msg.split(":")[0])).toEqual([
      `the clock of ${SERIAL} is 90 s behind the house's time`,
      `the clock of ${SERIAL} is 95 s behind the house's time`,
    ]);
  });
});
