import { pino } from "pino";
import { Subject, startWith } from "rxjs";
import { z } from "zod";
import { type Battery, type SlotResult, slotEnergy } from "../../optimiser/index.js";
import { type RuleEvent, startRules } from "../../rules/engine/index.js";
import type { LiveObservation } from "../../rules/engine/live-state.js";
import type { RulesFile } from "../../rules/file/schema.js";
import { readControl } from "../../simulator/house/control.js";
import { openStore } from "../../store/index.js";
import { houseForecastAt } from "../house-forecast.js";
import { learnedSolar } from "../learned-solar.js";
import type { HalfHourSeries } from "../series.js";
import { type SlotClock, slotClocks } from "../slot-clocks.js";
import { inverterSlot } from "./inverter-action.js";
import { ReplayClock } from "./replay-clock.js";
import { REPLAY_INVERTER, ReplayDevices } from "./replay-devices.js";
import { ReplayPublishedPrices } from "./replay-prices.js";
import { ReplayTariff } from "./replay-tariff.js";
import type { RulesReplayReport } from "./report.js";

const SLOT_MS = 30 * 60_000;
const SLOT_HOURS = 0.5;
/** The house's forecast the engine is given: 48 hours, as the daemon's houseForecaster gives it. */
const HOUSE_SLOTS = 96;

export interface RulesReplayInput {
  readonly series: HalfHourSeries;
  readonly battery: Battery;
  readonly initialSocKwh: number;
  readonly rules: RulesFile;
}

/**
 * The whole rules file over the series as the daemon runs it: the rules engine itself (startRules)
 * on a clock that moves half-hour by half-hour, with the series' prices as its tariffs (published
 * at 16:00 for the next day), the house's forecast learned from the series as the daemon learns it
 * from its store, the battery's SoC from the battery model read by the engine just before each
 * half-hour, and an inverter model (ReplayDevices) taking what its gate sends. After each
 * half-hour's timers have run, the inverter's settings say what the battery does (inverterSlot),
 * and the battery model runs the half-hour. Dry run is lifted: the rules are replayed as if they
 * acted. `record` is told each half-hour's energy.
 */
export async function replayRules(
  input: RulesReplayInput,
  record: (t: number, energy: SlotResult) => void,
  told: (t: number) => void = () => {},
): Promise<RulesReplayReport> {
  const { series, battery } = input;
  const slots = series.starts.length;
  const origin = series.starts[0] ?? 0;
  const clocks = slotClocks(series.starts, series.timeZone);
  const devices = new ReplayDevices(series.timeZone, battery.capacityKwh);
  const initial = readControl(devices.inverter);
  const problems: string[] = [];
  const logger = pino({ level: "error" }, { write: (line: string) => problems.push(logLine(line)) });
  const store = openStore(":memory:");
  const clock = new ReplayClock(origin);
  const live = new Subject<LiveObservation>();
  const solar = learnedSolar(series);
  const slotOf = (at: number) => Math.min(slots - 1, Math.max(0, Math.floor((at - origin) / SLOT_MS)));
  const percent = (kwh: number) => (kwh / battery.capacityKwh) * 100;
  let soc = input.initialSocKwh;
  let lastEnergy: SlotResult | undefined;
  const windows = new Map<string, number>();
  const engine = await startRules({
    rules: acting(input.rules),
    tariffs: {
      import: new ReplayTariff(series.starts, series.importPrice, clocks),
      export: new ReplayTariff(series.starts, series.exportPrice, clocks),
    },
    gate: devices.gate,
    reads: devices.reads,
    store: { ruleObligations: store.ruleObligations, publishedPrices: new ReplayPublishedPrices() },
    inventory: () => devices.inventory(),
    live$: live.pipe(startWith({ kind: "inverter", serial: REPLAY_INVERTER, batterySoc: percent(soc) } as const)),
    clock,
    logger,
    house: (now) => houseForecastAt(series, solar, slotOf(now), HOUSE_SLOTS),
  });
  const seen = engine.events$.subscribe((event: RuleEvent) => {
    if (event.type === "window" && event.phase === "open") windows.set(event.rule, (windows.get(event.rule) ?? 0) + 1);
    if (event.type === "failure") problems.push(`${event.rule}: ${event.message}`);
  });
  const settle = () => engine.idle();
  try {
    for (let t = 0; t < slots; t++) {
      told(t);
      const at = series.starts[t] as number;
      if (t > 0) {
        // Everything due before the half-hour, then the battery's reading just as it starts.
        await clock.advanceAsync(Math.max(0, at - 1 - clock.now()), settle);
        clock.setTo(at);
        live.next(reading(series, t - 1, percent(soc), lastEnergy));
        await engine.idle();
      }
      await clock.advanceAsync(0, settle);
      await engine.idle();
      const minute = (clocks[t] as SlotClock).minutes;
      const slot = inverterSlot(devices.inverter, initial, minute, battery, devices.exporting());
      const energy = slotEnergy(
        slot.battery,
        SLOT_HOURS,
        slot.action.mode,
        soc,
        series.load[t] as number,
        series.solar[t] as number,
        slot.action.targetKwh,
      );
      record(t, energy);
      lastEnergy = energy;
      soc = energy.socKwh;
    }
  } finally {
    seen.unsubscribe();
    await engine.stop();
    store.close();
  }
  return {
    rules: input.rules.rules.map((rule) => ({
      name: rule.name,
      changes: devices.applied.get(rule.name) ?? 0,
      windows: windows.get(rule.name) ?? 0,
      notReplayed: [...(devices.notReplayed.get(rule.name) ?? [])],
    })),
    problems: [...new Set(problems)],
  };
}

/** The inverter's reading at the end of half-hour t: its SoC, and its solar and grid power as the half-hour's means, W. */
function reading(
  series: HalfHourSeries,
  t: number,
  socPercent: number,
  energy: SlotResult | undefined,
): LiveObservation {
  const watts = (kwh: number) => (kwh / SLOT_HOURS) * 1000;
  return {
    kind: "inverter",
    serial: REPLAY_INVERTER,
    batterySoc: socPercent,
    pvPower: watts(series.solar[t] as number),
    ...(energy ? { gridPower: watts(energy.exportKwh - energy.importKwh) } : {}),
  };
}

const logLineSchema = z.object({ msg: z.string().optional(), err: z.object({ message: z.string() }).optional() });

/** An error the engine logged, in words: its message and the error's. */
function logLine(line: string): string {
  const parsed = logLineSchema.safeParse(JSON.parse(line));
  if (!parsed.success) return line.trim();
  return [parsed.data.msg, parsed.data.err?.message].filter((part) => part !== undefined).join(": ");
}

/** The rules as they would act: dry run lifted from the file and from every rule. */
function acting(rules: RulesFile): RulesFile {
  return { ...rules, dry_run: false, rules: rules.rules.map((rule) => ({ ...rule, dry_run: false })) };
}
