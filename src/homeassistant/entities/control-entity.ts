import { optionValue, type RuleShape } from "./rule-shape.js";
import type { CommandTarget, EntityDef } from "./types.js";

export interface ControlSpec {
  readonly key: string;
  readonly name: string;
  readonly target: CommandTarget;
  readonly rules: readonly string[];
  /** Labels for a select's values, by value text ("1" -> "Pause Charge"). */
  readonly labels?: Readonly<Record<string, string>>;
  readonly extra?: Pick<EntityDef, "icon" | "entity_category" | "enabled_by_default" | "unit" | "device_class">;
}

/** The entity for a control whose kind its validation rules decide. */
export function controlEntity(shape: RuleShape, spec: ControlSpec): EntityDef {
  const base = { key: spec.key, name: spec.name, ...spec.extra };
  const command = { target: spec.target, rules: spec.rules };
  switch (shape.component) {
    case "switch":
    case "time": {
      const { unit: _unit, device_class: _class, ...rest } = base;
      return { ...rest, component: shape.component, command };
    }
    case "select": {
      const { unit: _unit, device_class: _class, ...rest } = base;
      return {
        ...rest,
        component: "select",
        options: shape.values.map((value) => spec.labels?.[value] ?? value),
        command: { ...command, optionValues: shape.values.map(optionValue) },
      };
    }
    case "number":
      return { ...base, component: "number", min: shape.min, max: shape.max, step: shape.step, mode: "box", command };
    case "button": {
      const { unit: _unit, ...rest } = base;
      return { ...rest, component: "button", command: { ...command, pressValue: shape.value } };
    }
  }
}

/** Unit (and device class) a control's name or field suggests: percentages and watts. */
export function unitFor(text: string): Pick<EntityDef, "unit" | "device_class"> {
  if (/%|percent|soc/i.test(text)) return { unit: "%" };
  if (/watts|\bpower$/i.test(text)) return { unit: "W", device_class: "power" };
  return {};
}
