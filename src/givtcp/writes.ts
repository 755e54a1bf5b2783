import { z } from "zod";
import type { ChangeRequest, ControlValues } from "../control/index.js";
import {
  type GivtcpMode,
  HELD_TARGET,
  hasPreset,
  isOn,
  MODES,
  PAUSE_MODES,
  PRESET,
  presetOf,
} from "./control-words.js";

/** A number, or a number written as text ('45'), as GivTCP takes its bodies. */
const numeric = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/, "a number")
    .transform(Number),
]);
const percent = numeric.pipe(z.number().int("a whole percent"));
const watts = numeric.pipe(z.number().int("whole watts"));
const state = z.enum(["enable", "disable"]);
/** "16:00" (GivTCP's `%H:%M`); Predbat sends the first five characters of "16:00:00". */
const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time as "HH:MM"');
const slot = z.object({ start: time, finish: time });

/** What the write becomes: the gate's change requests in order, or nothing to change. */
export interface WritePlan {
  readonly requests: readonly ChangeRequest[];
  /** GivTCP's words for the success: "Setting ... was a success". */
  readonly success: string;
  /** GivTCP's words before the reason of a failure: "Setting ... failed: <why>". */
  readonly failure: string;
}

interface Endpoint<S extends z.ZodType> {
  readonly body: S;
  readonly plan: (
    body: z.output<S>,
    serial: string,
    controls: ControlValues,
  ) => WritePlan | { readonly refused: string };
}

const preset = (serial: string, identifier: string, fields: Record<string, unknown>): ChangeRequest => ({
  kind: "preset",
  serial,
  preset: identifier,
  fields,
});

/** pause-battery takes its mode with every change: the current one, when the change is not to it. */
function pauseFields(controls: ControlValues, fields: Record<string, unknown>): Record<string, unknown> {
  const mode = presetOf(controls, PRESET.pause).mode;
  return fields.mode === undefined && mode !== undefined && mode !== null ? { mode, ...fields } : fields;
}

function modeRequests(mode: GivtcpMode, serial: string, controls: ControlValues): ChangeRequest[] | string {
  const exporting = isOn(presetOf(controls, PRESET.export).enabled);
  const demand = isOn(presetOf(controls, PRESET.demand).enabled);
  switch (mode) {
    case "Timed Export":
      return [preset(serial, PRESET.export, { enabled: true })];
    case "Timed Demand":
      if (!hasPreset(controls, PRESET.demand))
        return "this inverter has no timed demand (it covers the home whenever no timed export runs): send Eco or Timed Export";
      return [preset(serial, PRESET.demand, { enabled: true })];
    case "Eco":
      // Eco on (where the model has the switch), and the discharge schedule that would make it
      // Timed Demand or Timed Export off.
      return [
        ...(exporting ? [preset(serial, PRESET.export, { enabled: false })] : []),
        ...(demand ? [preset(serial, PRESET.demand, { enabled: false })] : []),
        ...(hasPreset(controls, PRESET.eco) ? [preset(serial, PRESET.eco, { enabled: true })] : []),
      ];
    default:
      return `the mode "${mode}" is not offered through energy2mqtt (it takes Eco, Timed Demand and Timed Export)`;
  }
}

function endpoint<S extends z.ZodType>(definition: Endpoint<S>): Endpoint<z.ZodType> {
  return definition as unknown as Endpoint<z.ZodType>;
}

/** GivTCP's POST endpoints that Predbat calls, with the bodies GivTCP takes. */
export const ENDPOINTS: Readonly<Record<string, Endpoint<z.ZodType>>> = {
  setChargeTarget: endpoint({
    body: z.object({ chargeToPercent: percent }),
    plan: ({ chargeToPercent }, serial) => ({
      requests: [preset(serial, PRESET.charge, { slots: { 1: { percent_limit: chargeToPercent } } })],
      success: `Setting Charge Target ${chargeToPercent} was a success`,
      failure: "Setting Charge Target failed",
    }),
  }),
  setChargeRate: endpoint({
    body: z.object({ chargeRate: watts }),
    plan: ({ chargeRate }, serial) => ({
      requests: [preset(serial, PRESET.range, { max_charge_watts: chargeRate })],
      success: `Setting battery charge rate ${chargeRate} was a success`,
      failure: `Setting battery charge rate ${chargeRate} failed`,
    }),
  }),
  setDischargeRate: endpoint({
    body: z.object({ dischargeRate: watts }),
    plan: ({ dischargeRate }, serial) => ({
      requests: [preset(serial, PRESET.range, { max_discharge_watts: dischargeRate })],
      success: `Setting battery discharge rate ${dischargeRate} was a success`,
      failure: `Setting battery discharge rate ${dischargeRate} failed`,
    }),
  }),
  setBatteryReserve: endpoint({
    body: z.object({ reservePercent: percent }),
    plan: ({ reservePercent }, serial) => ({
      requests: [preset(serial, PRESET.range, { reserve_percent: reservePercent })],
      success: `Setting battery reserve ${reservePercent} was a success`,
      failure: "Setting Battery Reserve failed",
    }),
  }),
  setBatteryMode: endpoint({
    body: z.object({ mode: z.enum(MODES) }),
    plan: ({ mode }, serial, controls) => {
      const requests = modeRequests(mode, serial, controls);
      if (typeof requests === "string") return { refused: `Setting Battery Mode failed: ${requests}` };
      return { requests, success: `Setting ${mode} mode was a success`, failure: "Setting Battery Mode failed" };
    },
  }),
  setBatteryPauseMode: endpoint({
    body: z.object({ state: z.enum(PAUSE_MODES) }),
    plan: (body, serial, controls) => ({
      requests: [preset(serial, PRESET.pause, pauseFields(controls, { mode: PAUSE_MODES.indexOf(body.state) }))],
      success: `Setting Battery Pause Mode to ${body.state} was a success`,
      failure: "Setting Battery Pause Mode failed",
    }),
  }),
  enableChargeTarget: endpoint({
    body: z.object({ state }),
    plan: (body) =>
      body.state === "enable"
        ? { requests: [], success: "Enabling Charge Target was a success", failure: "Setting Charge Target failed" }
        : {
            refused:
              "Setting Charge Target failed: energy2mqtt always stops the charge at the slot's limit (Target_SOC); set it to 100 to charge full",
          },
  }),
  enableChargeSchedule: endpoint({
    body: z.object({ state }),
    plan: (body, serial) => ({
      requests: [preset(serial, PRESET.charge, { enabled: body.state === "enable" })],
      success: `Setting Charge Schedule to ${body.state} was a success`,
      failure: `Setting charge schedule ${body.state} failed`,
    }),
  }),
  enableDischargeSchedule: endpoint({
    body: z.object({ state }),
    plan: (body, serial, controls) => {
      const demand = isOn(presetOf(controls, PRESET.demand).enabled);
      const exporting = isOn(presetOf(controls, PRESET.export).enabled);
      // On: the discharge that Eco mode says (demand with Eco on, export with it off). Off: whichever is on.
      const requests =
        body.state === "enable"
          ? [
              preset(serial, isOn(presetOf(controls, PRESET.eco).enabled) ? PRESET.demand : PRESET.export, {
                enabled: true,
              }),
            ]
          : [
              ...(exporting ? [preset(serial, PRESET.export, { enabled: false })] : []),
              ...(demand ? [preset(serial, PRESET.demand, { enabled: false })] : []),
            ];
      return {
        requests,
        success: `Setting Discharge Schedule to ${body.state} was a success`,
        failure: "Setting Discharge Schedule failed",
      };
    },
  }),
  setChargeSlot1: endpoint({
    body: slot.extend({ chargeToPercent: percent.optional() }),
    plan: (body, serial) => ({
      requests: [
        preset(serial, PRESET.charge, {
          slots: { 1: slotOne(body.start, body.finish, body.chargeToPercent) },
        }),
      ],
      success: `Setting Charge Slot 1 to: ${body.start} - ${body.finish} was a success`,
      failure: "Setting Charge Slot 1 failed",
    }),
  }),
  setDischargeSlot1: endpoint({
    body: slot.extend({ dischargeToPercent: percent.optional() }),
    plan: (body, serial, controls) => ({
      requests: [
        preset(serial, dischargePreset(controls), {
          slots: { 1: slotOne(body.start, body.finish, body.dischargeToPercent) },
        }),
      ],
      success: `Setting Discharge Slot 1 to: ${body.start} - ${body.finish} was a success`,
      failure: "Setting Discharge Slot 1 failed",
    }),
  }),
  setDischargeTarget: endpoint({
    body: z.object({
      dischargeToPercent: percent,
      slot: percent.pipe(z.literal(1, "slot 1: energy2mqtt takes slot 1 only")).optional(),
    }),
    plan: ({ dischargeToPercent }, serial, controls) => ({
      // Without HR 272 the daemon holds the target (Timed Export lists it as a field of its own).
      requests: [
        HELD_TARGET in presetOf(controls, PRESET.export)
          ? preset(serial, PRESET.export, { [HELD_TARGET]: dischargeToPercent })
          : preset(serial, dischargePreset(controls), { slots: { 1: { percent_limit: dischargeToPercent } } }),
      ],
      success: `Setting Discharge Target ${dischargeToPercent} was a success`,
      failure: "Setting Discharge Target failed",
    }),
  }),
  setPauseSlot: endpoint({
    body: slot,
    plan: (body, serial, controls) => ({
      requests: [
        preset(serial, PRESET.pause, pauseFields(controls, { start_time: body.start, end_time: body.finish })),
      ],
      success: `Setting Pause Slot to: ${body.start} - ${body.finish} was a success`,
      failure: "Setting Battery Pause Slot failed",
    }),
  }),
};

/** GivTCP's slot 1 as the preset's slot: its times, and its limit when one is given. */
function slotOne(start: string, finish: string, percent: number | undefined): Record<string, string | number> {
  return { start_time: start, end_time: finish, ...(percent === undefined ? {} : { percent_limit: percent }) };
}

/** The DC discharge slots are shared: written through the discharge preset that is on, timed-export when neither is. */
function dischargePreset(controls: ControlValues): string {
  return isOn(presetOf(controls, PRESET.demand).enabled) ? PRESET.demand : PRESET.export;
}
