import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ControlKey } from "../../../src/sources/control-ports.js";
import { autoControl, cloudControl, NoWritePathError, noWritePath, PathChoice } from "../../../src/sources/index.js";
import { VirtualClock } from "../../../src/time/index.js";
import { startTestSimulator } from "../../helpers/simulator.js";

/*
 * source: auto's control: a device's changes go by its path once a LAN control is given (the seam
 * the LAN write path's localControl plugs into; today's LAN control refuses everything, which
 * shows where a change went). Without one, every change goes by the cloud and pathOf says so.
 */
const INVERTER = "SD2024G001";

describe("source: auto's control, on the simulator's cloud", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  const sent: string[] = [];
  let settingId: number;

  beforeAll(async () => {
    sim = await startTestSimulator({ speed: 0 });
    const settings = await sim.clientFor("owner").inverterControl.settings(INVERTER);
    settingId = settings[0]?.id ?? -1;
  });
  afterAll(async () => {
    await sim?.stop();
  });

  const setUp = (withLan: boolean) => {
    const client = sim.clientFor("owner", { onRequest: (event) => sent.push(event.endpoint) });
    const choice = new PathChoice({ clock: new VirtualClock(0), failbackMs: 300_000 });
    choice.track(INVERTER, true);
    const control = withLan
      ? autoControl(cloudControl(client), choice, noWritePath())
      : autoControl(cloudControl(client), choice);
    return { choice, control };
  };

  it("sends a device's change by its dongle while it is on the LAN: nothing reaches the cloud", async () => {
    const { control } = setUp(true);
    sent.length = 0;
    expect(control.pathOf(INVERTER)).toBe("local");
    await expect(control.inverters.readSetting(INVERTER, settingId)).rejects.toBeInstanceOf(NoWritePathError);
    await expect(control.inverters.writeSetting(INVERTER, settingId, 1)).rejects.toBeInstanceOf(NoWritePathError);
    expect(sent).toEqual([]);
  });

  it("sends it by the cloud once the device is on the cloud, and pathOf follows", async () => {
    const { choice, control } = setUp(true);
    choice.use(INVERTER, "cloud", "its dongle did not answer");
    sent.length = 0;
    expect(control.pathOf(INVERTER)).toBe("cloud");
    await expect(control.inverters.readSetting(INVERTER, settingId)).resolves.toMatchObject({
      value: expect.anything(),
    });
    expect(sent).toEqual(["Read Setting"]);
  });

  it("sends a control the LAN does not carry by the cloud, the device staying on the LAN for the rest", async () => {
    const client = sim.clientFor("owner", { onRequest: (event) => sent.push(event.endpoint) });
    const choice = new PathChoice({ clock: new VirtualClock(0), failbackMs: 300_000 });
    choice.track(INVERTER, true);
    const lan = noWritePath();
    // The model has a register for every setting but this one.
    const carried = {
      ...lan,
      inverters: {
        ...lan.inverters,
        carries: (_: string, key: ControlKey) => !("setting" in key && key.setting === settingId),
      },
    };
    const control = autoControl(cloudControl(client), choice, carried);
    sent.length = 0;
    await expect(control.inverters.readSetting(INVERTER, settingId)).resolves.toMatchObject({ outcome: "done" });
    expect(sent).toEqual(["Read Setting"]);
    expect(control.pathOf(INVERTER)).toBe("local");
    // Another setting, which the LAN carries, goes by the dongle.
    await expect(control.inverters.readSetting(INVERTER, settingId + 1)).rejects.toBeInstanceOf(NoWritePathError);
    expect(sent).toEqual(["Read Setting"]);
  });

  it("without a LAN control sends every change by the cloud, and says so whatever carries the live data", async () => {
    const { choice, control } = setUp(false);
    expect(choice.pathOf(INVERTER)).toBe("local");
    expect(control.pathOf(INVERTER)).toBe("cloud");
    sent.length = 0;
    await control.inverters.readSetting(INVERTER, settingId);
    expect(sent).toEqual(["Read Setting"]);
  });
});
