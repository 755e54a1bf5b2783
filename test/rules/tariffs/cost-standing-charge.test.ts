import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { octopusTariffSchema } from "../../../src/rules/file/tariff-schema.js";
import { CostMeter } from "../../../src/rules/savings/cost-meter.js";
import { OctopusCache, OctopusTariff } from "../../../src/rules/tariffs/index.js";
import { utc } from "../helpers.js";
import { OctopusServer } from "./octopus-server.js";

const LONDON = "Europe/London";
const AGILE = "AGILE-24-10-01";
const server = new OctopusServer();

beforeAll(async () => {
  await server.start();
  server.serve(AGILE, `E-1R-${AGILE}-H`, "standard-unit-rates", "agile-24-10-01-H.standard-unit-rates.json");
  server.serve(AGILE, `E-1R-${AGILE}-H`, "standing-charges", "agile-24-10-01.standing-charges.json");
});
afterAll(async () => {
  await server.stop();
});

async function agileTariff(now: number): Promise<OctopusTariff> {
  const config = octopusTariffSchema.parse({ type: "octopus", product: AGILE, region: "H", base_url: server.baseUrl });
  const tariff = new OctopusTariff(config, LONDON, undefined, new OctopusCache());
  await tariff.refresh(now);
  return tariff;
}

describe("today's cost with the tariff's standing charge", () => {
  it("owes the day's standing charge from the first reading, adds the energy, and owes it again after midnight", async () => {
    const tariff = await agileTariff(utc("2025-05-13T08:00"));
    const meter = new CostMeter(LONDON, (at) => tariff.standingChargePerDay(at));
    const prices = { import: 0.2, export: 0.15 };
    meter.add("SA1", utc("2025-05-13T08:00"), { import: 5, export: 0 }, prices);
    expect(meter.value).toEqual({ cost: 0.476062, since: utc("2025-05-13T08:00") });
    meter.add("SA1", utc("2025-05-13T09:00"), { import: 6, export: 1 }, prices);
    expect(meter.value?.cost).toBeCloseTo(0.476062 + 0.2 - 0.15, 9);
    // Local midnight in UK summer time is 23:00 UTC.
    expect(meter.rollOver(utc("2025-05-13T23:00"))).toBe(true);
    expect(meter.value).toEqual({ cost: 0.476062, since: utc("2025-05-13T23:00") });
  });

  it("without a standing charge, a day starts at nothing as before", () => {
    const meter = new CostMeter(LONDON);
    meter.add("SA1", utc("2025-05-13T08:00"), { import: 5, export: 0 }, { import: 0.2 });
    expect(meter.value).toEqual({ cost: 0, since: utc("2025-05-13T08:00") });
  });
});
