import { describe, expect, it } from "vitest";
import { PathChoice, type PathSwitch } from "../../../src/sources/index.js";
import { VirtualClock } from "../../../src/time/index.js";

const MINUTE = 60_000;

function choiceOn(clock: VirtualClock, settings: Record<string, "auto" | "local" | "cloud"> = {}) {
  const switches: PathSwitch[] = [];
  const choice = new PathChoice({ clock, failbackMs: 5 * MINUTE, settings, onPath: (s) => switches.push(s) });
  return { choice, switches };
}

describe("the path each device takes with source: auto", () => {
  it("starts on the dongle when it answered at discovery, on the cloud when it did not, and says so once", () => {
    const clock = new VirtualClock(0);
    const { choice, switches } = choiceOn(clock);
    choice.track("SD1", true);
    choice.track("sd2", false);
    choice.track("SD1", true);
    expect(choice.pathOf("sd1")).toBe("local");
    expect(choice.pathOf("SD2")).toBe("cloud");
    expect(choice.pathOf("EVC1")).toBe("cloud");
    expect(switches.map((s) => [s.serial, s.from, s.to])).toEqual([
      ["SD1", undefined, "local"],
      ["SD2", undefined, "cloud"],
    ]);
  });

  it("goes back to the dongle only after it has answered every poll for the failback time", () => {
    const clock = new VirtualClock(0);
    const { choice } = choiceOn(clock);
    choice.track("SD1", true);
    choice.lanFailed("SD1");
    choice.use("SD1", "cloud", "its dongle did not answer");
    expect(choice.pathOf("SD1")).toBe("cloud");
    for (let minute = 0; minute < 5; minute++) {
      choice.lanAnswered("SD1");
      expect(choice.pathOf("SD1"), `minute ${minute}`).toBe("cloud");
      clock.advance(MINUTE - 1);
    }
    clock.advance(5);
    choice.lanAnswered("SD1");
    expect(choice.pathOf("SD1")).toBe("local");
    expect(choice.states().SD1).toMatchObject({ path: "local", switches: 2, setting: "auto" });
    expect(choice.states().SD1?.why).toMatch(/answered every poll for 300 s/);
  });

  it("switches once for a dongle that flaps every poll for an hour, not once per flap", () => {
    const clock = new VirtualClock(0);
    const { choice, switches } = choiceOn(clock);
    choice.track("SD1", true);
    for (let poll = 0; poll < 120; poll++) {
      clock.advance(30_000);
      if (poll % 2 === 0) {
        choice.lanFailed("SD1");
        choice.use("SD1", "cloud", "its dongle did not answer");
      } else choice.lanAnswered("SD1");
    }
    expect(switches.filter((s) => s.from !== undefined)).toHaveLength(1);
    expect(choice.pathOf("SD1")).toBe("cloud");
  });

  it("keeps a device set to one path on it, whatever answers", () => {
    const clock = new VirtualClock(0);
    const { choice } = choiceOn(clock, { sd1: "local", SD2: "cloud" });
    choice.track("SD1", false);
    choice.track("SD2", true);
    expect(choice.pathOf("SD1")).toBe("local");
    expect(choice.pathOf("SD2")).toBe("cloud");
    choice.use("SD1", "cloud", "x");
    clock.advance(10 * MINUTE);
    choice.lanAnswered("SD2");
    choice.lanAnswered("SD2");
    expect(choice.pathOf("SD1")).toBe("local");
    expect(choice.pathOf("SD2")).toBe("cloud");
    expect(choice.allows("SD1", "cloud")).toBe(false);
    expect(choice.states().SD2).toMatchObject({ setting: "cloud", switches: 0 });
  });
});
