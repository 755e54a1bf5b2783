import { checkSetting, findPreset, presetProblems } from "../../control/index.js";
import { readYamlFile } from "../../files/yaml-file.js";
import type { Inventory } from "../../telemetry/index.js";
import { defaultInverter, settingId } from "../engine/intents.js";
import { actionKind, chargerCommand } from "./action-schema.js";
import { type LoadedRules, RulesError } from "./load.js";
import type { Action } from "./schema.js";
import { renderTemplates, stringsOf, TEMPLATE_SAMPLES } from "./templates.js";

/**
 * What `check` can say about the rules' actions with the account's devices at hand: literal
 * values against each device's own rules (the settings listing's validation rules, the presets'
 * parameters), and whether the devices, settings, presets and charger commands named exist.
 * Templated values are known only when the rule runs, and so are rules that depend on the
 * device's state (offline, locked, one setting needing another on): the gate checks those then.
 */
export interface DeviceCheck {
  /** `file:line: rules.N.do.M.key: problem`, in file order. */
  readonly problems: string[];
  /** Literal values checked against a device's rules. */
  readonly checked: number;
  /** Values filled from templates, which only the run can check. */
  readonly templated: number;
}

type Path = readonly (string | number)[];

const isTemplated = (text: string): boolean => text.includes("{{");

/**
 * The rules against the account's devices, for `check` and `run` alike: a RulesError listing
 * every problem when they do not fit, else what was checked.
 */
export function refuseRulesNotFitting(loaded: LoadedRules, inventory: Inventory): DeviceCheck {
  const result = checkRulesOnDevices(loaded, inventory);
  if (result.problems.length > 0) throw new RulesError(result.problems, "rules do not fit the account's devices");
  return result;
}

export function checkRulesOnDevices(loaded: LoadedRules, inventory: Inventory): DeviceCheck {
  const yaml = readYamlFile(loaded.file);
  const found: { line: number; text: string }[] = [];
  let checked = 0;
  let templated = 0;
  const problem = (path: Path, message: string) => {
    const where = yaml.locate(path);
    found.push({ line: Number(/:(\d+)$/.exec(where)?.[1] ?? 0), text: `${where}: ${path.join(".")}: ${message}` });
  };

  loaded.rules.rules.forEach((rule, ruleIndex) => {
    rule.do.forEach((action, actionIndex) => {
      const at: Path = ["rules", ruleIndex, "do", actionIndex];
      const result = checkAction(action, inventory, at, problem);
      checked += result.checked;
      templated += result.templated;
    });
  });
  return { problems: found.sort((a, b) => a.line - b.line).map((entry) => entry.text), checked, templated };
}

function checkAction(
  action: Action,
  inventory: Inventory,
  at: Path,
  problem: (path: Path, message: string) => void,
): { checked: number; templated: number } {
  const none = { checked: 0, templated: 0 };
  const kind = actionKind(action);
  if (kind === "charger") {
    const uuid = action.uuid ?? inventory.evChargers[0]?.uuid;
    const charger = inventory.evChargers.find((found) => found.uuid === uuid);
    const command = chargerCommand(action);
    if (!charger) problem([...at, action.uuid ? "uuid" : "charger"], chargerMissing(action.uuid, inventory));
    else if (command && !charger.commands.includes(command))
      problem([...at, "charger"], `EV charger ${charger.alias || charger.uuid} does not support ${command}`);
    return none;
  }
  if (kind !== "setting" && kind !== "preset") return none;
  const serial = action.inverter ?? defaultInverter(inventory);
  const inverter = inventory.inverters.find((found) => found.serial === serial);
  if (!inverter) {
    problem([...at, action.inverter ? "inverter" : kind], inverterMissing(action.inverter, inventory));
    return none;
  }
  if (!inverter.controllable) {
    problem(
      [...at, action.inverter ? "inverter" : kind],
      inverter.emsSerial
        ? `inverter ${inverter.serial} is part of the EMS plant ${inverter.emsSerial}: control it through the EMS`
        : `inverter ${inverter.serial} does not take remote control (it lacks the is-controllable flag)`,
    );
    return none;
  }
  if (kind === "setting") {
    if (action.setting === undefined || action.value === undefined) return none;
    const id = settingId(inventory, inverter.serial, action.setting);
    const descriptor = inverter.settings.find((found) => found.id === id);
    if (!descriptor) {
      problem([...at, "setting"], `inverter ${inverter.serial} lists no setting ${JSON.stringify(action.setting)}`);
      return none;
    }
    if (typeof action.value === "string" && isTemplated(action.value)) return { checked: 0, templated: 1 };
    const check = checkSetting(descriptor, action.value);
    if (!check.ok) problem([...at, "value"], check.reason);
    return { checked: 1, templated: 0 };
  }
  if (action.preset === undefined) return none;
  const descriptor = findPreset(inverter.presets, action.preset);
  if (!descriptor) {
    const listed = inverter.presets.map((preset) => preset.identifier ?? String(preset.id)).join(", ");
    problem([...at, "preset"], `inverter ${inverter.serial} does not list ${action.preset} (it lists: ${listed})`);
    return none;
  }
  const fields = action.with ?? {};
  const strings = stringsOf(fields);
  const templatedPaths = new Set(strings.filter(([, text]) => isTemplated(text)).map(([path]) => path.join(".")));
  const leaves = countLeaves(fields);
  const rendered = renderTemplates(fields, TEMPLATE_SAMPLES) as Record<string, unknown>;
  const problems = presetProblems(descriptor, rendered, (path) => templatedPaths.has(path));
  if (problems) problem([...at, "with"], problems);
  return { checked: leaves - templatedPaths.size, templated: templatedPaths.size };
}

function countLeaves(value: unknown): number {
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + countLeaves(item), 0);
  if (typeof value === "object" && value !== null)
    return Object.values(value).reduce<number>((sum, item) => sum + countLeaves(item), 0);
  return 1;
}

function inverterMissing(named: string | undefined, inventory: Inventory): string {
  const serials = inventory.inverters.map((inverter) => inverter.serial).join(", ") || "none";
  return named ? `inverter ${named} is not on this account (its inverters: ${serials})` : "the account has no inverter";
}

function chargerMissing(named: string | undefined, inventory: Inventory): string {
  const chargers = inventory.evChargers.map((charger) => charger.uuid).join(", ") || "none";
  return named
    ? `EV charger ${named} is not on this account (its chargers: ${chargers})`
    : "the account has no EV charger";
}
