import type { z } from "zod";
import { CONFIGURATION_MODE_INFO, type ConfigurationMode, EV_COMMANDS, type EvCommandId } from "../../cloud/index.js";
import type { LiveCharger } from "./engine.js";
import { callError, failure, invalid, OK, type Outcome } from "./results.js";
import { availableModes, type ChargerSettings, defaultMode } from "./settings.js";
import type { ChargerActor, ChargerSpec } from "./types.js";
import { type Validated, validateRequest } from "./validation.js";

export interface CommandContext {
  spec: ChargerSpec;
  settings: ChargerSettings;
  engine: LiveCharger;
  actor: ChargerActor;
  now: number;
  newScheduleId(): string;
  factoryReset(): void;
}

/** A validated command, ready to run on the charger. */
export type PreparedCommand = (ctx: CommandContext) => Outcome;
type Command = (body: unknown) => Validated<PreparedCommand>;

const C = EV_COMMANDS;

/** Binds a handler to its command's request schema (the client's, with its bounds). */
function command<S extends z.ZodType>(
  schema: S,
  handler: (request: z.output<S>, ctx: CommandContext) => Outcome,
): Command {
  return (body) => {
    const validated = validateRequest(schema, body);
    if (!validated.ok) return validated;
    const request = validated.value;
    return { ok: true, value: (ctx) => handler(request, ctx) };
  };
}

const CONFIGURATION_OF_INSTALLATION = {
  standalone: "A",
  ct_meter: "C",
  inverter_control: "D",
  hybrid_inverter_control: "E",
} as const satisfies Record<string, ConfigurationMode>;

function setConfiguration(ctx: CommandContext, configuration: ConfigurationMode): Outcome {
  if (CONFIGURATION_MODE_INFO[configuration].premium && !ctx.spec.premium) {
    return callError("SecurityError", `Configuration mode ${configuration} requires a premium subscription`);
  }
  const { settings } = ctx;
  settings.configurationMode = configuration;
  if (!availableModes(configuration).includes(settings.mode)) settings.mode = defaultMode(configuration);
  return OK;
}

/** Each command: its request validation and what it does to the charger. */
export const COMMANDS: Record<EvCommandId, Command> = {
  "start-charge": command(C["start-charge"].request, (_, { engine, actor }) => {
    if (engine.faulted()) return failure("The charger is faulted");
    if (!engine.carPlugged()) return failure("No vehicle is connected");
    if (engine.sessionOpen()) return failure("A charging session is already running");
    engine.startSession(actor.userId);
    return OK;
  }),
  "stop-charge": command(C["stop-charge"].request, (_, { engine, actor }) => {
    if (!engine.sessionOpen()) return failure("No charging session is running");
    engine.stopSession(actor.userId, "Remote");
    return OK;
  }),
  "adjust-charge-power-limit": command(C["adjust-charge-power-limit"].request, ({ limit }, { settings }) => {
    settings.currentLimitA = limit;
    return OK;
  }),
  "set-plug-and-go": command(C["set-plug-and-go"].request, ({ enabled }, { settings }) => {
    settings.plugAndGo = enabled;
    return OK;
  }),
  "set-session-energy-limit": command(C["set-session-energy-limit"].request, ({ limit }, { settings }) => {
    settings.sessionEnergyLimitKwh = limit ?? null;
    return OK;
  }),
  "set-schedule": command(C["set-schedule"].request, ({ schedule_id, name, periods }, ctx) => {
    const stored = periods.map((period) => ({
      startTime: period.start_time,
      endTime: period.end_time,
      limit: period.limit,
      days: [...new Set(period.days)].sort((a, b) => a - b),
    }));
    const existing = ctx.settings.schedules.find((schedule) => schedule.id === schedule_id);
    if (existing) {
      existing.name = name;
      existing.periods = stored;
    } else {
      ctx.settings.schedules.push({ id: schedule_id ?? ctx.newScheduleId(), name, periods: stored });
    }
    return OK;
  }),
  "unlock-connector": command(C["unlock-connector"].request, (_, { engine, actor }) => {
    engine.stopSession(actor.userId, "UnlockCommand");
    return OK;
  }),
  "delete-charging-profile": command(C["delete-charging-profile"].request, ({ schedule_id }, { settings }) => {
    if (schedule_id === undefined) {
      settings.schedules = [];
    } else {
      const kept = settings.schedules.filter((schedule) => schedule.id !== schedule_id);
      if (kept.length === settings.schedules.length) return invalid(`No schedule with id ${schedule_id}`);
      settings.schedules = kept;
    }
    if (!settings.schedules.some((schedule) => schedule.id === settings.activeScheduleId)) {
      settings.activeScheduleId = null;
      settings.scheduleActivatedBy = null;
    }
    return OK;
  }),
  "change-mode": command(C["change-mode"].request, ({ mode }, { settings }) => {
    const available = availableModes(settings.configurationMode);
    if (!available.includes(mode)) {
      return invalid(`Mode ${mode} is not available in configuration mode ${settings.configurationMode}`);
    }
    settings.mode = mode;
    return OK;
  }),
  "restart-charger": command(C["restart-charger"].request, ({ hard_reset }, { engine, actor }) => {
    engine.reboot(hard_reset === true, actor.userId);
    return OK;
  }),
  "change-randomised-delay-duration": command(
    C["change-randomised-delay-duration"].request,
    ({ duration }, { settings }) => {
      settings.randomisedDelayS = duration;
      return OK;
    },
  ),
  "add-id-tags": command(C["add-id-tags"].request, ({ id_tags }, { settings, now }) => {
    const incoming = new Map(id_tags.map((tag) => [tag.id, tag]));
    const added = [...incoming.keys()].filter((id) => !settings.idTags.some((tag) => tag.id === id)).length;
    if (settings.idTags.length + added > settings.maximumIdTags) {
      return invalid(`The charger stores at most ${settings.maximumIdTags} ID tags`);
    }
    for (const tag of incoming.values()) {
      const known = settings.idTags.find((stored) => stored.id === tag.id);
      if (known) {
        known.alias = tag.alias ?? known.alias;
        known.expiryDate = tag.expiry_date ?? known.expiryDate;
      } else {
        settings.idTags.push({
          id: tag.id,
          alias: tag.alias ?? null,
          expiryDate: tag.expiry_date ?? null,
          createdAt: now,
        });
      }
    }
    return OK;
  }),
  "delete-id-tags": command(C["delete-id-tags"].request, ({ id_tags }, { settings }) => {
    settings.idTags = settings.idTags.filter((tag) => !id_tags.includes(tag.id));
    return OK;
  }),
  "rename-id-tag": command(C["rename-id-tag"].request, ({ tag_id, alias }, { settings }) => {
    const tag = settings.idTags.find((stored) => stored.id === tag_id);
    if (!tag) return invalid(`No ID tag ${tag_id}`);
    tag.alias = alias;
    return OK;
  }),
  "installation-mode": command(C["installation-mode"].request, ({ installation_mode }, ctx) =>
    setConfiguration(ctx, CONFIGURATION_OF_INSTALLATION[installation_mode]),
  ),
  "setup-version": command(C["setup-version"].request, ({ setup_version }, { settings }) => {
    settings.setupVersion = setup_version;
    return OK;
  }),
  "set-active-schedule": command(C["set-active-schedule"].request, ({ schedule_id }, { settings, actor }) => {
    if (schedule_id === undefined) {
      settings.activeScheduleId = null;
      settings.scheduleActivatedBy = null;
      return OK;
    }
    if (!settings.schedules.some((schedule) => schedule.id === schedule_id)) {
      return invalid(`No schedule with id ${schedule_id}`);
    }
    settings.activeScheduleId = schedule_id;
    settings.scheduleActivatedBy = actor.userId;
    return OK;
  }),
  "set-max-import-capacity": command(C["set-max-import-capacity"].request, ({ value }, { settings }) => {
    settings.maxImportCapacityA = value ?? null;
    return OK;
  }),
  "enable-front-panel-led": command(C["enable-front-panel-led"].request, ({ value }, { settings }) => {
    settings.frontPanelLed = value;
    return OK;
  }),
  "configure-inverter-control": command(C["configure-inverter-control"].request, (request, { settings }) => {
    const control = settings.inverterControl;
    control.batteryExportSplit = request.inverter_battery_export_split ?? control.batteryExportSplit;
    control.maxBatteryDischargeW = request.max_battery_discharge_power_to_evc ?? control.maxBatteryDischargeW;
    control.mode = request.mode ?? control.mode;
    return OK;
  }),
  "perform-factory-reset": command(C["perform-factory-reset"].request, (_, ctx) => {
    ctx.factoryReset();
    ctx.engine.reboot(true, ctx.actor.userId);
    return OK;
  }),
  "configuration-mode": command(C["configuration-mode"].request, ({ configuration_mode }, ctx) =>
    setConfiguration(ctx, configuration_mode),
  ),
  "enable-local-control": command(C["enable-local-control"].request, ({ value }, { settings }) => {
    settings.localControl = value;
    return OK;
  }),
  "read-cp-voltage-and-duty-cycle": command(C["read-cp-voltage-and-duty-cycle"].request, () => OK),
  "adjust-cp-voltage-range": command(C["adjust-cp-voltage-range"].request, ({ min, max }, { settings }) => {
    settings.cpVoltage = { min, max };
    return OK;
  }),
  "adjust-suspended-state-wait-timeout": command(
    C["adjust-suspended-state-wait-timeout"].request,
    ({ value }, { settings }) => {
      settings.suspendedWaitTimeoutS = value ?? 0;
      return OK;
    },
  ),
};
