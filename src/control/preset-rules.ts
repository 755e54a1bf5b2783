import { checkFields, describeRules, parseRules } from "../validation/index.js";
import type { PresetDescriptor } from "../vocabulary/index.js";

/** `slots.*.start_time` matches `slots.0.start_time` and `slots.2.start_time`. */
function patternMatches(pattern: string, path: string): boolean {
  const wanted = pattern.split(".");
  const got = path.split(".");
  return wanted.length === got.length && wanted.every((segment, index) => segment === "*" || segment === got[index]);
}

/**
 * The problems with a preset's fields against its listed parameters, with what is allowed;
 * undefined when fine. `ignore` leaves out paths whose value is not known yet (a template).
 */
export function presetProblems(
  descriptor: PresetDescriptor,
  fields: Readonly<Record<string, unknown>>,
  ignore: (path: string) => boolean = () => false,
): string | undefined {
  const parameters = Object.entries(descriptor.parameters);
  const names = parameters.map(([key]) => key).filter((key) => !key.includes("."));
  if (Object.keys(fields).length === 0)
    return `no fields given for ${descriptor.name} (its fields: ${names.join(", ")})`;
  // Some presets do not show their parameters; then only the service can check them.
  if (parameters.length > 0) {
    const unknown = Object.keys(fields).filter((key) => !names.includes(key));
    if (unknown.length > 0) {
      return `${unknown.join(", ")} ${unknown.length === 1 ? "is not a field" : "are not fields"} of ${descriptor.name} (its fields: ${names.join(", ")})`;
    }
  }
  const badSlots = slotKeyProblem(descriptor, fields.slots);
  if (badSlots) return badSlots;
  const spec = Object.fromEntries(parameters.map(([key, parameter]) => [key, parameter.validation]));
  const errors = Object.entries(checkFields(fields, spec)).filter(([path]) => !ignore(path));
  const paths = errors.map(([path]) => path);
  if (paths.length === 0) return undefined;
  const problems = errors.flatMap(([, messages]) => messages);
  const allowed = parameters
    .filter(([pattern]) => paths.some((path) => patternMatches(pattern, path)))
    .map(([pattern, parameter]) => `${pattern}: ${describeRules(parameter.validation)}`);
  return `${problems.join("; ")} (allowed: ${allowed.join("; ")})`;
}

/**
 * `slots` keyed by slot number (`{"4": {...}}`) outside the preset's `max`: the rule language
 * checks a list's length, not an object's keys, so this is checked here, before anything is sent.
 */
function slotKeyProblem(descriptor: PresetDescriptor, slots: unknown): string | undefined {
  if (typeof slots !== "object" || slots === null || Array.isArray(slots)) return undefined;
  const max = parseRules(descriptor.parameters.slots?.validation ?? []).find((rule) => rule.kind === "max");
  if (max?.kind !== "max") return undefined;
  const bad = Object.keys(slots).filter((key) => !/^\d+$/.test(key) || Number(key) < 1 || Number(key) > max.limit);
  return bad.length === 0
    ? undefined
    : `slots must be keyed by slot numbers from 1 to ${max.limit} (${descriptor.name} has ${max.limit}); ${bad.join(", ")} is not one`;
}

/** The preset the inverter lists under this identifier (or legacy numeric ID). */
export function findPreset(presets: readonly PresetDescriptor[], reference: string): PresetDescriptor | undefined {
  return presets.find((preset) => preset.identifier === reference || String(preset.id) === reference);
}
