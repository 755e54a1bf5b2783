import { describe, expect, it } from "vitest";
import {
  type Battery,
  type ExplainedSlot,
  explainedSlotSchema,
  explainSchedule,
  optimise,
  priceText,
  type ScheduleBasis,
} from "../../src/optimiser/index.js";

const SLOT = 30 * 60_000;
/** 10:00 on a winter day in London (GMT): local time is UTC. */
const START = Date.parse("2026-01-14T10:00:00Z");
const ZONE = "Europe/London";
const BATTERY: Battery = {
  capacityKwh: 5,
  chargeKw: 3,
  dischargeKw: 3,
  chargeEfficiency: 0.95,
  dischargeEfficiency: 0.95,
  reservePercent: 4,
};

interface Day {
  readonly importPrices: number[];
  readonly exportPrices: number[];
  readonly load: number[];
  readonly solar: number[];
}

/** The optimiser's plan of a day, and its explanation. */
function explained(day: Day, socKwh: number, battery: Battery = BATTERY, start = START) {
  const schedule = optimise({ ...day, battery, socKwh, terminalValue: 0.05, socStepKwh: 0.1 });
  const basis: ScheduleBasis = {
    starts: day.importPrices.map((_, index) => start + index * SLOT),
    ...day,
    battery,
    startSocKwh: socKwh,
    slots: schedule.slots,
  };
  return { schedule, rows: explainSchedule(basis, { timeZone: ZONE, currency: "GBP" }) };
}

const pence = (text: string) => Number(text) / 100;
/** "16:00", "16:00 tomorrow" or "2026-01-16 06:00". */
const WHEN = String.raw`(\d\d:\d\d(?: tomorrow)?|\d{4}-\d\d-\d\d \d\d:\d\d)`;
const PRICE = String.raw`(-?[\d.]+)p`;
const pattern = (text: string) => new RegExp(`^${text}$`);

/** The row a reason's time names, seen from row `from`'s local day. */
function indexAt(rows: readonly ExplainedSlot[], from: number, when: string): number {
  const day = (rows[from] as ExplainedSlot).time.slice(0, 10);
  const found = rows.findIndex((row, index) => {
    if (index <= from) return false;
    if (when.length === 16) return row.time === when;
    const clock = when.slice(0, 5);
    const rowDay = row.time.slice(0, 10);
    return row.time.endsWith(clock) && (when.endsWith("tomorrow") ? rowDay > day : rowDay === day);
  });
  expect(found, `${when} after row ${from}`).toBeGreaterThan(from);
  return found;
}

/**
 * Every reason is one of the known forms, and what it says is true of the rows' numbers: a
 * "among the N cheapest" price has fewer than N cheaper half-hours before the peak it names, the
 * peak is dearer, an export is among the dearest before the recharge it names, and so on.
 */
function checkReasons(rows: readonly ExplainedSlot[], battery: Battery): void {
  const imports = rows.map((row) => row.importPrice);
  const exports = rows.map((row) => row.exportPrice);
  rows.forEach((row, index) => {
    const before = index === 0 ? undefined : (rows[index - 1] as ExplainedSlot).socPercent;
    const reason = row.reason;
    expect(reason.split(":")[0], reason).toBe(row.action);
    let match = pattern(
      `charge: ${PRICE} is (?:the cheapest half-hour|among the (\\d+) cheapest half-hours) before the ${WHEN} peak at ${PRICE}`,
    ).exec(reason);
    if (match) {
      expect(pence(match[1] as string)).toBeCloseTo(row.importPrice, 3);
      const peak = indexAt(rows, index, match[3] as string);
      expect(imports[peak]).toBeCloseTo(pence(match[4] as string), 3);
      expect(imports[peak]).toBeGreaterThan(row.importPrice);
      const cheaper = imports.slice(0, peak).filter((price) => price < row.importPrice - 1e-9).length;
      expect(cheaper, reason).toBeLessThan(Number(match[2] ?? 1));
      return;
    }
    match = pattern(
      `(charge:|hold: import at) ${PRICE} now, (?:to export|keeping the battery to export) at ${PRICE} at ${WHEN}`,
    ).exec(reason);
    if (match) {
      const sale = indexAt(rows, index, match[4] as string);
      expect(rows[sale]?.action).toBe("export");
      expect(exports[sale]).toBeCloseTo(pence(match[3] as string), 3);
      expect(exports[sale]).toBeGreaterThan(row.importPrice);
      return;
    }
    match = pattern(
      `charge: ${PRICE} is (?:the cheapest half-hour|among the (\\d+) cheapest half-hours) of the plan`,
    ).exec(reason);
    if (match) {
      expect(imports.filter((price) => price < row.importPrice - 1e-9).length).toBeLessThan(Number(match[2] ?? 1));
      return;
    }
    if (pattern(`charge: import at ${PRICE} pays to take energy`).test(reason)) {
      expect(row.importPrice).toBeLessThan(0);
      return;
    }
    match = pattern(
      `export: ${PRICE} is (?:the dearest export half-hour|among the (\\d+) dearest export half-hours) (?:of the plan|before the ${WHEN} recharge at ${PRICE})`,
    ).exec(reason);
    if (match) {
      expect(pence(match[1] as string)).toBeCloseTo(row.exportPrice, 3);
      const recharge = match[3] ? indexAt(rows, index, match[3]) : rows.length;
      expect(rows[recharge]?.action ?? "charge").toBe("charge");
      expect(rows.slice(index + 1, recharge).some((one) => one.action === "charge")).toBe(false);
      const dearer = exports.slice(0, recharge).filter((price) => price > row.exportPrice + 1e-9).length;
      expect(dearer, reason).toBeLessThan(Number(match[2] ?? 1));
      return;
    }
    match = pattern(`hold: import at ${PRICE} now, keeping the battery for the ${WHEN} peak at ${PRICE}`).exec(reason);
    if (match) {
      const peak = indexAt(rows, index, match[2] as string);
      expect(imports[peak]).toBeGreaterThan(row.importPrice);
      expect(row.loadKwh).toBeGreaterThan(row.solarKwh);
      return;
    }
    match = pattern(
      `hold: solar ([\\d.]+) kWh covers the load ([\\d.]+) kWh; the surplus charges, nothing is taken out`,
    ).exec(reason);
    if (match) {
      expect(row.solarKwh).toBeGreaterThanOrEqual(row.loadKwh);
      if (before !== undefined) expect(row.socPercent).toBeGreaterThanOrEqual(before);
      return;
    }
    if (
      pattern(
        `(?:hold: import at|charge:) ${PRICE} now, the (?:stored )?energy is kept for after the plan's last half-hour.*`,
      ).test(reason)
    ) {
      // The SoC never falls again.
      rows.slice(index + 1).forEach((one, at) => {
        expect(one.socPercent, reason).toBeGreaterThanOrEqual((rows[index + at] as ExplainedSlot).socPercent - 0.05);
      });
      return;
    }
    match = pattern(`hold: import at ${PRICE} now, the battery kept at (\\d+)%`).exec(reason);
    if (match) {
      expect(Math.round(row.socPercent)).toBe(Number(match[2]));
      return;
    }
    if (/^self-use: solar surplus .* charges the battery$/.test(reason)) {
      expect(row.solarKwh).toBeGreaterThanOrEqual(row.loadKwh);
      if (before !== undefined) expect(row.socPercent).toBeGreaterThanOrEqual(before);
      return;
    }
    if (/^self-use: solar surplus .* is exported at .*, the battery being full$/.test(reason)) {
      expect(row.exportKwh).toBeGreaterThan(0);
      return;
    }
    match = pattern(`self-use: the battery serves the house's ([\\d.]+) kWh instead of import at ${PRICE}`).exec(
      reason,
    );
    if (match) {
      expect(row.loadKwh - row.solarKwh).toBeCloseTo(Number(match[1]), 2);
      if (before !== undefined) expect(row.socPercent).toBeLessThanOrEqual(before);
      return;
    }
    if (/^self-use: the battery is at its [\d.]+% reserve, the house imports at/.test(reason)) {
      expect(row.socPercent).toBeLessThanOrEqual(battery.reservePercent + 0.2);
      expect(row.importKwh).toBeGreaterThan(0);
      return;
    }
    if (reason === "self-use: no load or solar is forecast for this half-hour") {
      expect(row.loadKwh + row.solarKwh).toBe(0);
      return;
    }
    if (/^self-use: (solar .* covers the load .*|the house asks nothing of the battery)$/.test(reason)) return;
    throw new Error(`a reason of no known form: ${reason}`);
  });
}

/** A deterministic generator, so the random days are the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 16807) % 2147483647;
    return state / 2147483647;
  };
}

function randomDay(seed: number, slots = 96): Day {
  const next = random(seed);
  const importPrices = Array.from({ length: slots }, () => Math.round((-0.03 + next() * 0.4) * 1000) / 1000);
  return {
    importPrices,
    exportPrices: importPrices.map((price) => Math.round(price * (0.3 + next() * 0.8) * 1000) / 1000),
    load: Array.from({ length: slots }, () => next() * 1.5),
    solar: Array.from({ length: slots }, (_, t) => (t % 48 > 2 && t % 48 < 14 ? next() * 2.5 : 0)),
  };
}

describe("explainSchedule", () => {
  it("charges for the issue's example: the cheap half-hours named against the 16:00 peak", () => {
    // 10:00 to 15:30 (12 half-hours), the 16:00-19:00 peak at 32p, then 20p.
    const importPrices = [
      0.2, 0.18, 0.071, 0.15, 0.065, 0.12, 0.07, 0.069, 0.16, 0.19, 0.22, 0.25, 0.32, 0.32, 0.32, 0.32, 0.32, 0.32, 0.2,
      0.2,
    ];
    const day: Day = {
      importPrices,
      exportPrices: importPrices.map(() => 0.05),
      load: importPrices.map((_, index) => (index >= 12 && index < 18 ? 1 : 0.2)),
      solar: importPrices.map(() => 0),
    };
    const { rows } = explained(day, 0.5);
    const row = rows.find((one) => one.time === "2026-01-14 11:00");
    expect(row?.action).toBe("charge");
    // 6.5p, 6.9p and 7p are cheaper than 7.1p before the peak.
    expect(row?.reason).toBe("charge: 7.1p is among the 4 cheapest half-hours before the 16:00 peak at 32p");
    expect(rows.find((one) => one.time === "2026-01-14 12:00")?.reason).toBe(
      "charge: 6.5p is the cheapest half-hour before the 16:00 peak at 32p",
    );
    // In the peak the battery serves the house.
    const peak = rows.find((one) => one.time === "2026-01-14 16:00");
    expect(peak?.action).toBe("self-use");
    expect(peak?.reason).toBe("self-use: the battery serves the house's 1.00 kWh instead of import at 32p");
    // The dear morning half-hour is not bought.
    expect(rows.find((one) => one.time === "2026-01-14 10:00")?.action).not.toBe("charge");
    checkReasons(rows, BATTERY);
  });

  it("carries per half-hour the numbers it was planned from, the SoC, the cost and the running total", () => {
    const day = randomDay(7, 48);
    const { schedule, rows } = explained(day, 2);
    expect(rows).toHaveLength(48);
    let total = 0;
    rows.forEach((row, index) => {
      expect(explainedSlotSchema.parse(row)).toEqual(row);
      const slot = schedule.slots[index];
      expect(row.start).toBe(START + index * SLOT);
      expect(row.importPrice).toBe(day.importPrices[index]);
      expect(row.exportPrice).toBe(day.exportPrices[index]);
      expect(row.loadKwh).toBe(day.load[index]);
      expect(row.solarKwh).toBe(day.solar[index]);
      expect(row.socPercent).toBeCloseTo(((slot?.socKwh ?? 0) / BATTERY.capacityKwh) * 100, 1);
      expect(row.cost).toBe(slot?.cost);
      expect(row.importKwh).toBe(slot?.importKwh);
      expect(row.exportKwh).toBe(slot?.exportKwh);
      total += row.cost;
      expect(row.runningCost).toBeCloseTo(total, 9);
      expect(row.action).toBe(
        { eco: "self-use", hold: "hold", charge: "charge", export: "export" }[slot?.mode ?? "eco"],
      );
    });
    // The running total ends at the plan's expected cost less its mode-change penalties.
    expect(rows.at(-1)?.runningCost).toBeCloseTo(schedule.expectedCost - schedule.modeChanges * 0.002, 9);
    // 24-hour local times: 10:00 UTC in January is 10:00 in London; 22:30 stays 22:30, not 10:30 pm.
    expect(rows[0]?.time).toBe("2026-01-14 10:00");
    expect(rows[25]?.time).toBe("2026-01-14 22:30");
  });

  it("gives a true reason for every half-hour of many random days, on a small and a large battery", () => {
    const big: Battery = { ...BATTERY, capacityKwh: 13.5, chargeKw: 5, dischargeKw: 5, reservePercent: 10 };
    const seen = new Set<string>();
    for (let seed = 1; seed <= 16; seed++) {
      for (const battery of [BATTERY, big]) {
        const { rows } = explained(randomDay(seed), (seed % 5) * (battery.capacityKwh / 5), battery);
        checkReasons(rows, battery);
        for (const row of rows) seen.add(row.action);
      }
    }
    // The random days exercise every action.
    expect([...seen].sort()).toEqual(["charge", "export", "hold", "self-use"]);
  });

  it("names a peak on the next local day as tomorrow's, on the local clock in summer time", () => {
    // 20:00 BST (19:00 UTC) in July: cheap night, then a dear 08:00 tomorrow.
    const start = Date.parse("2026-07-14T19:00:00Z");
    const importPrices = Array.from({ length: 28 }, (_, index) => (index === 8 ? 0.05 : index === 24 ? 0.4 : 0.2));
    const day: Day = {
      importPrices,
      exportPrices: importPrices.map(() => 0),
      load: importPrices.map((_, index) => (index === 24 ? 2 : 0.1)),
      solar: importPrices.map(() => 0),
    };
    const { rows } = explained(day, 0.2, BATTERY, start);
    expect(rows[0]?.time).toBe("2026-07-14 20:00");
    const charge = rows[8];
    expect(charge?.time).toBe("2026-07-15 00:00");
    expect(charge?.action).toBe("charge");
    expect(charge?.reason).toBe("charge: 5p is the cheapest half-hour before the 08:00 peak at 40p");
    const evening = rows[1];
    expect(evening?.action).not.toBe("charge");
    checkReasons(rows, BATTERY);
  });

  it("says when solar fills the battery, and when a full battery sends the surplus out", () => {
    const day: Day = {
      importPrices: [0.2, 0.2, 0.2, 0.2],
      exportPrices: [0.04, 0.04, 0.04, 0.04],
      load: [0.3, 0.3, 0.3, 0.3],
      solar: [1.3, 1.3, 1.3, 1.3],
    };
    const { rows } = explained(day, 3.2);
    expect(rows.map((row) => row.action)).toEqual(["self-use", "self-use", "self-use", "self-use"]);
    expect(rows[0]?.reason).toBe("self-use: solar surplus 1.00 kWh charges the battery");
    expect(rows[3]?.reason).toBe("self-use: solar surplus 1.00 kWh is exported at 4p, the battery being full");
    checkReasons(rows, BATTERY);
  });

  it("writes GBP in pence and other currencies as they are", () => {
    expect(priceText(0.071, "GBP")).toBe("7.1p");
    expect(priceText(0.32, "GBP")).toBe("32p");
    expect(priceText(-0.021, "GBP")).toBe("-2.1p");
    expect(priceText(0.2512, "EUR")).toBe("0.251 EUR");
  });
});
