import type { DevicePath } from "../sources/index.js";
import type { ChangeRequest } from "./change.js";

/**
 * The inverter flag that says a scheduled DC discharge runs at full power whatever Eco mode says
 * (api-reference, inverter flags). Without it, the cloud's timed-export switches Eco mode off.
 */
export const FULL_POWER_FLAG = "full-power-discharge-in-eco-mode";

/** What decides a change's side effects: the device as listed, and the path that carries its changes. */
export interface SideEffectDevice {
  readonly flags: readonly string[];
  /** The presets the device lists, by identifier: a side effect on a preset it lacks cannot happen. */
  readonly presets: readonly { readonly identifier?: string | null }[];
  /** Undefined when not known: then only what every path does counts. */
  readonly path: DevicePath | undefined;
}

/** A change the inverter makes along with the one asked for, and why. */
export interface SideEffect {
  readonly request: ChangeRequest;
  readonly why: string;
}

/** The changes a request makes besides its own, on the device it targets. */
export type SideEffects = (request: ChangeRequest) => readonly SideEffect[];

interface SideEffectRule {
  /** What the inverter does and the source that says so. */
  readonly why: string;
  readonly when: (request: ChangeRequest, device: SideEffectDevice) => boolean;
  readonly writes: (serial: string) => ChangeRequest;
}

const switchedOn = (request: ChangeRequest, preset: string): boolean =>
  request.kind === "preset" && request.preset === preset && request.fields.enabled === true;

const eco = (enabled: boolean) => (serial: string) =>
  ({ kind: "preset", serial, preset: "eco-mode", fields: { enabled } }) as const;

/**
 * Every known change that changes another control too. A rule's restore saves each of these
 * controls before the change as if the rule had written them, so that the window's end puts
 * them back as well (and leaves them be when someone changed them since).
 */
const SIDE_EFFECTS: readonly SideEffectRule[] = [
  {
    why: "on an inverter without full-power-discharge-in-eco-mode, the cloud's timed-export switches Eco mode off (api-reference, inverter flags)",
    when: (request, device) =>
      switchedOn(request, "timed-export") && device.path !== "local" && !device.flags.includes(FULL_POWER_FLAG),
    writes: eco(false),
  },
  {
    why: "over the LAN timed-export writes Eco mode (HR 24) off before its switch, whatever the flags (sources/local/lan-presets.ts)",
    when: (request, device) => switchedOn(request, "timed-export") && device.path === "local",
    writes: eco(false),
  },
  {
    why: "over the LAN timed-discharge writes Eco mode (HR 24) on before its switch (sources/local/lan-presets.ts)",
    when: (request, device) => switchedOn(request, "timed-discharge") && device.path === "local",
    writes: eco(true),
  },
];

/** The side effects of `request` on the device it targets; none when the device is not known. */
export function sideEffectsOf(request: ChangeRequest, device: SideEffectDevice | undefined): SideEffect[] {
  if (!device || request.kind === "ev-command") return [];
  const listed = (effect: ChangeRequest) =>
    effect.kind !== "preset" || device.presets.some((preset) => preset.identifier === effect.preset);
  return SIDE_EFFECTS.filter((rule) => rule.when(request, device))
    .map((rule) => ({ request: rule.writes(request.serial), why: rule.why }))
    .filter((effect) => listed(effect.request));
}

/** Side effects looked up by the request's serial: the device as listed now, and its path now when known. */
export function deviceSideEffects(
  devices: (serial: string) => Omit<SideEffectDevice, "path"> | undefined,
  pathOf: ((serial: string) => DevicePath) | undefined,
): SideEffects {
  return (request) => {
    if (request.kind === "ev-command") return [];
    const device = devices(request.serial);
    return sideEffectsOf(request, device && { ...device, path: pathOf?.(request.serial) });
  };
}
