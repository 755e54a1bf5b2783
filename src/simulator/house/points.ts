import type { DataPointBody } from "./bodies.js";
import {
  type DayDetail,
  STATE_BATTERY,
  STATE_GRID,
  STATE_INVERTER,
  STATE_LOAD,
  STATE_MINUTE,
  STATE_MODE,
  STATE_PV,
  STATE_SOC_PERCENT,
  STATE_STRIDE,
} from "./day-run.js";
import { FLOW_COUNT, MODE_BATTERY_FAULT, MODE_NORMAL, MODE_TRIPPED } from "./dispatch.js";
import { SLOT_MS } from "./frame.js";
import { arrayShares } from "./inputs.js";
import { COUNTER_COUNT, counterUnits } from "./ledger.js";
import { reading } from "./reading.js";
import type { HouseContext } from "./spec.js";
import { dataPointWire } from "./wire.js";

export interface PointWindow {
  /** Points at or after this instant exist only once it has passed. */
  readonly nowMs: number;
  /** Counters (units) accumulated before the day. */
  readonly unitsBefore: ArrayLike<number>;
  /** Whether the cloud heard nothing at an instant (the inverter was offline). */
  readonly silent: (ms: number) => boolean;
}

/**
 * The 5-minute data points of a day's detail that the cloud received: none before
 * commissioning, while communication was lost or offline, or from `nowMs` on.
 */
export function dataPointsOf(context: HouseContext, detail: DayDetail, window: PointWindow): DataPointBody[] {
  const { frame, slotFlows, slotState } = detail;
  const points: DataPointBody[] = [];
  const cumulative = new Float64Array(FLOW_COUNT);
  const today = new Float64Array(COUNTER_COUNT);
  const total = new Float64Array(COUNTER_COUNT);
  for (let slot = 0; slot < frame.slots; slot++) {
    const timeMs = frame.startMs + slot * SLOT_MS;
    if (timeMs >= window.nowMs) break;
    const base = slot * STATE_STRIDE;
    const mode = slotState[base + STATE_MODE] ?? MODE_NORMAL;
    const received = mode === MODE_NORMAL || mode === MODE_TRIPPED || mode === MODE_BATTERY_FAULT;
    if (received && timeMs >= context.commissionMs && !window.silent(timeMs)) {
      counterUnits(cumulative, today);
      for (let index = 0; index < COUNTER_COUNT; index++)
        total[index] = (window.unitsBefore[index] ?? 0) + (today[index] ?? 0);
      const value = reading(
        context,
        frame.day,
        slotState[base + STATE_MINUTE] ?? 0,
        timeMs,
        slotState[base + STATE_SOC_PERCENT] ?? 0,
        {
          pvW: slotState[base + STATE_PV] ?? 0,
          loadW: slotState[base + STATE_LOAD] ?? 0,
          batteryW: slotState[base + STATE_BATTERY] ?? 0,
          gridW: slotState[base + STATE_GRID] ?? 0,
          inverterW: slotState[base + STATE_INVERTER] ?? 0,
        },
        arrayShares(context, frame.day, timeMs),
      );
      points.push(dataPointWire(value, mode === MODE_NORMAL ? "NORMAL" : "ERROR", today, total));
    }
    const flowBase = slot * FLOW_COUNT;
    for (let index = 0; index < FLOW_COUNT; index++)
      cumulative[index] = (cumulative[index] ?? 0) + (slotFlows[flowBase + index] ?? 0);
  }
  return points;
}
