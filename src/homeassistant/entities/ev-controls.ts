import type { EvChargerDevice } from "../../telemetry/index.js";
import { CHARGER_COMMAND_IDS, type ChargerCommandId, EV_OPERATING_MODES } from "../../vocabulary/index.js";
import type { DeviceDetails, EntityDef } from "./types.js";

const config = { entity_category: "config" } as const;

/** Bounds are the reference's request bounds for each command. */
function controlsFor(command: ChargerCommandId, details: DeviceDetails | undefined): EntityDef[] {
  const target = { kind: "ev-command", command } as const;
  const button = (key: string, name: string, extra: Partial<EntityDef> = {}): EntityDef => ({
    key,
    component: "button",
    name,
    ...extra,
    command: { target, rules: [] },
  });
  switch (command) {
    case "start-charge":
      return [button("start_charge", "Start charging", { icon: "mdi:play" })];
    case "stop-charge":
      return [button("stop_charge", "Stop charging", { icon: "mdi:stop" })];
    case "unlock-connector":
      return [button("unlock_connector", "Unlock connector", { icon: "mdi:lock-open-variant", ...config })];
    case "restart-charger":
      return [button("restart", "Restart", { device_class: "restart", ...config })];
    case "adjust-charge-power-limit":
      return [
        {
          key: "charge_power_limit",
          component: "number",
          name: "Charge current limit",
          device_class: "current",
          unit: "A",
          min: 6,
          max: 32,
          step: 1,
          mode: "box",
          icon: "mdi:current-ac",
          command: { target: { ...target, field: "limit" }, rules: [] },
        },
      ];
    case "set-session-energy-limit":
      return [
        {
          key: "session_energy_limit",
          component: "number",
          name: "Session energy limit (0 for none)",
          device_class: "energy",
          unit: "kWh",
          min: 0,
          max: 250,
          step: 0.1,
          mode: "box",
          command: { target: { ...target, field: "limit" }, rules: [], noneValue: 0 },
        },
      ];
    case "change-mode": {
      const modes = details?.evModes?.length ? details.evModes : EV_OPERATING_MODES;
      return [
        {
          key: "mode",
          component: "select",
          name: "Charging mode",
          icon: "mdi:car-cog",
          options: modes,
          command: { target: { ...target, field: "mode" }, rules: [], optionValues: modes },
        },
      ];
    }
    case "set-plug-and-go":
      return [
        {
          key: "plug_and_go",
          component: "switch",
          name: "Plug and go",
          icon: "mdi:power-plug",
          command: { target: { ...target, field: "enabled" }, rules: [] },
        },
      ];
    case "enable-front-panel-led":
      return [
        {
          key: "front_panel_led",
          component: "switch",
          name: "Front panel LED",
          icon: "mdi:led-on",
          ...config,
          command: { target: { ...target, field: "value" }, rules: [] },
        },
      ];
    case "set-max-import-capacity":
      return [
        {
          key: "max_import_capacity",
          component: "number",
          name: "Maximum import capacity",
          device_class: "current",
          unit: "A",
          min: 40,
          max: 100,
          step: 1,
          mode: "box",
          ...config,
          command: { target: { ...target, field: "value" }, rules: [] },
        },
      ];
    case "change-randomised-delay-duration":
      return [
        {
          key: "randomised_delay",
          component: "number",
          name: "Randomised delay",
          device_class: "duration",
          unit: "s",
          min: 600,
          max: 1800,
          step: 1,
          mode: "box",
          ...config,
          command: { target: { ...target, field: "duration" }, rules: [] },
        },
      ];
    default:
      // Schedules, ID tags and installer commands are bridge actions, not entities.
      return [];
  }
}

/** Controls for the commands the charger supports, in the reference's order. */
export function evControlEntities(device: EvChargerDevice, details?: DeviceDetails): EntityDef[] {
  const supported = new Set(device.commands);
  return CHARGER_COMMAND_IDS.filter((command) => supported.has(command)).flatMap((command) =>
    controlsFor(command, details),
  );
}
