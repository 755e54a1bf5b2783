import type { ControllableDevice } from "../../telemetry/index.js";
import type { SettingDescriptor } from "../../vocabulary/index.js";
import { controlEntity, unitFor } from "./control-entity.js";
import { ruleShape } from "./rule-shape.js";
import type { EntityDef } from "./types.js";
import { slug } from "./values.js";

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, index) => from + index);
/** Eco mode, DC discharge and AC charge enables, reserve, charge/discharge power, cutoff, pause battery. */
const MAPPED = [24, 56, 66, 71, 72, 73, 75, 96, 155, 156];
/** AC charge slots: 64/65/101 and 102..128; DC discharge slots: 53/54/129, 41/42/130 and 131..154. */
const SLOTS = [64, 65, 53, 54, 41, 42, ...range(101, 154)];
/**
 * Settings that the presets already control (api-notes' key IDs and the slot settings of the
 * Gen3 listing): eco mode, AC charge and DC discharge enables and slots, battery reserve,
 * cutoff and power limits, pause battery. With presets listed, their raw entities start
 * disabled so that Home Assistant does not show every control twice.
 */
const COVERED_BY_PRESETS: ReadonlySet<number> = new Set([...MAPPED, ...SLOTS]);

/** "Value must be one of: 0, 1, 2 (Load First, Battery First, Grid First)" -> labels by value. */
function labelsOf(setting: SettingDescriptor, values: readonly string[]): Record<string, string> | undefined {
  const inside = /\(([^)]*)\)\s*$/.exec(setting.validation ?? "")?.[1];
  const labels = inside?.split(",").map((label) => label.trim());
  if (!labels || labels.length !== values.length || labels.some((label) => label === "")) return undefined;
  return Object.fromEntries(values.map((value, index) => [value, labels[index] ?? value]));
}

/** `setting_<name>`: the prefix keeps them apart from preset controls, whatever the listing holds. */
function keys(settings: readonly SettingDescriptor[]): Map<number, string> {
  const counts = new Map<string, number>();
  for (const setting of settings) counts.set(slug(setting.name), (counts.get(slug(setting.name)) ?? 0) + 1);
  return new Map(
    settings.map((setting) => {
      const name = slug(setting.name);
      return [setting.id, (counts.get(name) ?? 0) > 1 ? `setting_${name}_${setting.id}` : `setting_${name}`];
    }),
  );
}

/** One control per setting whose rules say what kind of value it takes. */
export function settingEntities(device: Pick<ControllableDevice, "settings" | "presets">): EntityDef[] {
  const keyOf = keys(device.settings);
  const withPresets = device.presets.length > 0;
  return device.settings.flatMap((setting): EntityDef[] => {
    const shape = ruleShape(setting.validation_rules);
    if (!shape) return [];
    const disabled = withPresets && COVERED_BY_PRESETS.has(setting.id);
    const labels = shape.component === "select" ? labelsOf(setting, shape.values) : undefined;
    return [
      controlEntity(shape, {
        key: keyOf.get(setting.id) ?? `setting_${setting.id}`,
        name: setting.name,
        target: { kind: "setting", settingId: setting.id },
        rules: setting.validation_rules,
        ...(labels ? { labels } : {}),
        extra: {
          entity_category: "config",
          ...unitFor(setting.name),
          ...(shape.component === "button" && /restart|reboot/i.test(setting.name) ? { device_class: "restart" } : {}),
          ...(disabled ? { enabled_by_default: false } : {}),
        },
      }),
    ];
  });
}
