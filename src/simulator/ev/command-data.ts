import type { z } from "zod";
import type { EV_COMMANDS, EvCommandId } from "../../cloud/index.js";
import { isoSeconds } from "./meter.js";
import {
  availableModes,
  CHARGE_LIMIT_MAX_A,
  CHARGE_LIMIT_MIN_A,
  type ChargerSettings,
  SESSION_ENERGY_MAX_KWH,
  SESSION_ENERGY_MIN_KWH,
} from "./settings.js";

type DataOf<K extends EvCommandId> = z.input<(typeof EV_COMMANDS)[K]["data"]>;

/** set-plug-and-go's data as the real service answers it (predbat_comment_evc_cmd_set_plug_and_go.json). */
export interface PlugAndGoData {
  value: boolean;
  disabled: boolean;
  message: string | null;
}

type DataBuilders = { [K in Exclude<EvCommandId, "set-plug-and-go">]: (settings: ChargerSettings) => DataOf<K> } & {
  "set-plug-and-go": (settings: ChargerSettings) => PlugAndGoData;
};

/** The installation mode (deprecated) each configuration mode corresponds to. */
export const INSTALLATION_OF_CONFIGURATION = {
  A: "standalone",
  B: "standalone",
  C: "ct_meter",
  D: "inverter_control",
  E: "hybrid_inverter_control",
} as const;

/**
 * Get Command Data for each command, from the charger's settings. Where the evidence shows a
 * command's data (predbat_comment_evc_cmd_*.json), this is its shape; elsewhere the reference's.
 */
export const COMMAND_DATA: DataBuilders = {
  "start-charge": () => [],
  "stop-charge": () => [],
  "adjust-charge-power-limit": (s) => ({
    min: CHARGE_LIMIT_MIN_A,
    max: CHARGE_LIMIT_MAX_A,
    value: s.currentLimitA,
    unit: "A",
  }),
  // Nothing shows when the real service sets `disabled` or a message: the simulator never does.
  "set-plug-and-go": (s) => ({ value: s.plugAndGo, disabled: false, message: null }),
  "set-session-energy-limit": (s) => ({
    min: SESSION_ENERGY_MIN_KWH,
    max: SESSION_ENERGY_MAX_KWH,
    value: s.sessionEnergyLimitKwh,
    unit: "kWh",
  }),
  "set-schedule": (s) => ({
    schedules: s.schedules.map((schedule) => ({
      id: schedule.id,
      name: schedule.name,
      is_active: schedule.id === s.activeScheduleId,
      periods: schedule.periods.map((period) => ({
        days: [...period.days],
        start_time: period.startTime,
        end_time: period.endTime,
        limit: period.limit,
      })),
    })),
  }),
  "unlock-connector": () => [],
  "delete-charging-profile": () => [],
  "change-mode": (s) => ({ active: s.mode, available: [...availableModes(s.configurationMode)] }),
  "restart-charger": () => [],
  "change-randomised-delay-duration": () => null,
  "add-id-tags": (s) => ({
    id_tags: s.idTags.map((tag) => ({
      id: tag.id,
      alias: tag.alias,
      expiry_date: tag.expiryDate,
      created_at: isoSeconds(tag.createdAt),
    })),
    maximum_id_tags: s.maximumIdTags,
  }),
  "delete-id-tags": () => null,
  "rename-id-tag": () => null,
  "installation-mode": (s) => INSTALLATION_OF_CONFIGURATION[s.configurationMode],
  "setup-version": (s) => ({ value: s.setupVersion }),
  "set-active-schedule": (s) => ({ schedule_id: s.activeScheduleId }),
  "set-max-import-capacity": (s) => ({ value: s.maxImportCapacityA }),
  "enable-front-panel-led": (s) => ({ value: s.frontPanelLed }),
  "configure-inverter-control": (s) => ({
    inverter_battery_export_split: s.inverterControl.batteryExportSplit,
    max_battery_discharge_power_to_evc: s.inverterControl.maxBatteryDischargeW,
    mode: s.inverterControl.mode,
  }),
  "perform-factory-reset": () => [],
  "configuration-mode": (s) => ({ value: s.configurationMode }),
  "enable-local-control": (s) => ({ value: s.localControl }),
  "read-cp-voltage-and-duty-cycle": () => [],
  "adjust-cp-voltage-range": (s) => ({ min: s.cpVoltage.min, max: s.cpVoltage.max }),
  "adjust-suspended-state-wait-timeout": (s) => ({ value: s.suspendedWaitTimeoutS }),
};
