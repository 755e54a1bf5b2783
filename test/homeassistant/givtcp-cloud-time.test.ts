import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { givtcpReadingValues, givtcpState } from "../../src/homeassistant/givtcp/state.js";
import { inverterResources } from "../../src/sources/cloud/resources/inverter.js";
import type { InverterDevice } from "../../src/sources/index.js";
import { stateOf } from "../../src/telemetry/index.js";
import { mockCloud } from "../helpers/mock-cloud.js";

/*
 * Over the cloud, GivTCP's invertor_time is the cloud's stamp of the inverter's latest reading
 * (system data's `time`), as Predbat's own cloud client takes it for its inverter_time
 * (springfall2008/batpred apps/predbat/gecloud.py): read here from the real bodies, through the
 * daemon's cloud resource, into the form GivTCP writes and Predbat parses.
 */

const SERIAL = "CE2234G437";
/** Predbat's inverter.py reads inverter_time with "%Y-%m-%dT%H:%M:%S%z". */
const PREDBAT_FORM = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/;
const NOW = Date.parse("2026-11-16T12:00:00Z");

const realBody = (file: string) =>
  z
    .object({ response: z.object({ data: z.object({ time: z.string() }).passthrough() }) })
    .parse(JSON.parse(readFileSync(new URL(`../fixtures/real-responses/${file}`, import.meta.url), "utf8"))).response;

const inverter: InverterDevice = {
  kind: "inverter",
  serial: SERIAL,
  model: "Hybrid",
  dongleSerial: "WF2234G437",
  firmware: {},
  batteries: [],
  meters: [],
  flags: [],
  controllable: true,
  settings: [],
  presets: [],
};

let cloud: ReturnType<typeof mockCloud> | undefined;
afterEach(async () => {
  await cloud?.close();
  cloud = undefined;
});

/** One poll of the inverter's live resource, answered with `body`, as Home Assistant's GivTCP values. */
async function givtcpValuesAfter(body: unknown) {
  cloud = mockCloud();
  cloud.reply("GET", `/inverter/${SERIAL}/system-data/latest`, { body });
  const [live] = inverterResources({ client: cloud.client, now: () => NOW, timezone: "Europe/London" }, inverter, {
    live: 60_000,
    counters: 300_000,
  });
  const result = await live?.poll(new AbortController().signal);
  const reading = result?.fetched && stateOf(result.fetched);
  if (!reading) throw new Error("the live poll fetched nothing");
  return givtcpReadingValues(reading);
}

describe("invertor_time over the cloud", () => {
  it.each([
    ["predbat_doc_system_data_latest.json", "2025-02-09T15:00:03+00:00"],
    ["avasapollo_system_data_latest.json", "2024-10-17T15:22:03+00:00"],
  ])("%s: the body's time, in GivTCP's form", async (file, shown) => {
    const body = realBody(file);
    const values = await givtcpValuesAfter(body);
    expect(values).toEqual({ givtcp_invertor_time: shown });
    expect(Date.parse(shown)).toBe(Date.parse(body.data.time));
    expect(shown).toMatch(PREDBAT_FORM);
    // No drift is made of it: the state shows the stamp as it came, whatever the daemon's clock says.
    const state = givtcpState({ ...values, clock_drift: null }, NOW);
    expect(state.givtcp_invertor_time).toBe(shown);
  });

  it("is none when the cloud answers without a time, so the entity goes unavailable rather than keep an old stamp", async () => {
    const body = realBody("predbat_doc_system_data_latest.json");
    const values = await givtcpValuesAfter({ data: { ...body.data, time: null } });
    expect(values).toEqual({ givtcp_invertor_time: null });
    expect(
      givtcpState({ givtcp_invertor_time: "2025-02-09T15:00:03+00:00", ...values }, NOW).givtcp_invertor_time,
    ).toBeNull();
  });

  it("is the LAN's clock where the registers were read: a drift, not a stamp", () => {
    // A daemon on `source: auto` that read both: the inverter's own clock wins.
    const state = givtcpState({ givtcp_invertor_time: "2025-02-09T15:00:03+00:00", clock_drift: 3600 }, NOW);
    expect(state.givtcp_invertor_time).toBe("2026-11-16T13:00:00+00:00");
  });
});
