import { CONFIGURATION_MODE_INFO, type ConfigurationMode, type INVERTER_CONTROL_MODES } from "../../cloud/index.js";
import type { ChargerSpec } from "./types.js";

export interface SchedulePeriod {
  /** As sent, `H:i` UTC. */
  startTime: string;
  endTime: string;
  /** Amps. */
  limit: number;
  /** 0 Monday to 6 Sunday. */
  days: number[];
}

export interface Schedule {
  id: string;
  name: string;
  periods: SchedulePeriod[];
}

export interface IdTag {
  id: string;
  alias: string | null;
  expiryDate: string | null;
  createdAt: number;
}

/** Everything a command can change on the charger. */
export interface ChargerSettings {
  configurationMode: ConfigurationMode;
  mode: string;
  plugAndGo: boolean;
  currentLimitA: number;
  sessionEnergyLimitKwh: number | null;
  schedules: Schedule[];
  activeScheduleId: string | null;
  /** started_by of sessions the active schedule starts: the user who activated it. */
  scheduleActivatedBy: string | null;
  randomisedDelayS: number;
  idTags: IdTag[];
  maximumIdTags: number;
  setupVersion: number;
  maxImportCapacityA: number | null;
  frontPanelLed: boolean;
  inverterControl: {
    batteryExportSplit: string;
    maxBatteryDischargeW: number;
    mode: (typeof INVERTER_CONTROL_MODES)[number];
  };
  localControl: boolean;
  cpVoltage: { min: number; max: number };
  suspendedWaitTimeoutS: number;
}

export const CHARGE_LIMIT_MIN_A = 6;
export const CHARGE_LIMIT_MAX_A = 32;
export const SESSION_ENERGY_MIN_KWH = 0.1;
export const SESSION_ENERGY_MAX_KWH = 250;
const DEFAULT_MAXIMUM_ID_TAGS = 10;

export function availableModes(configuration: ConfigurationMode): readonly string[] {
  return CONFIGURATION_MODE_INFO[configuration].modes;
}

/** The mode a charger takes in a configuration: the first the configuration offers, Eco where it offers Eco. */
export function defaultMode(configuration: ConfigurationMode): string {
  const modes = availableModes(configuration);
  return modes.includes("Eco") ? "Eco" : (modes[0] ?? "Boost");
}

/**
 * Factory settings. Plug and go is on only when the charger has no tag to start with, so a
 * householder with a key fob taps it and one without just plugs in.
 */
export function defaultSettings(spec: ChargerSpec): ChargerSettings {
  const idTags = (spec.idTags ?? []).map((tag) => ({
    id: tag.id,
    alias: tag.alias ?? null,
    expiryDate: null,
    createdAt: spec.commissionDate,
  }));
  return {
    configurationMode: spec.configurationMode,
    mode: defaultMode(spec.configurationMode),
    plugAndGo: idTags.length === 0,
    currentLimitA: Math.min(CHARGE_LIMIT_MAX_A, Math.max(CHARGE_LIMIT_MIN_A, spec.maxCurrentA)),
    sessionEnergyLimitKwh: null,
    schedules: [],
    activeScheduleId: null,
    scheduleActivatedBy: null,
    randomisedDelayS: 600,
    idTags,
    maximumIdTags: spec.maximumIdTags ?? DEFAULT_MAXIMUM_ID_TAGS,
    setupVersion: 1,
    maxImportCapacityA: 60,
    frontPanelLed: true,
    inverterControl: { batteryExportSplit: "0.5", maxBatteryDischargeW: 0, mode: "SuperEco" },
    localControl: false,
    cpVoltage: { min: 7.8, max: 10.2 },
    suspendedWaitTimeoutS: 0,
  };
}

export function activeSchedule(settings: ChargerSettings): Schedule | undefined {
  return settings.schedules.find((schedule) => schedule.id === settings.activeScheduleId);
}
