/**
 * The settings and presets of an inverter or EMS, in the daemon's own terms: what any path to the
 * house (the cloud, the dongle on the LAN, the next one) implements for the control gate. A change
 * is asked as the daemon names it (a setting's ID and value, a preset's identifier and fields) and
 * answered with what the gate needs to know, never in one vendor's codes:
 *
 * - done: the change (or read) happened; its value as the device answered;
 * - refused: it did not happen and nothing of it can have reached the device, so there is
 *   nothing to read back; the reason says why (and what to do, when the path knows);
 * - open: it was sent and may have applied, so only reading back can tell.
 *
 * Nothing here imports a client: each path's adapter (sources/cloud/control.ts,
 * sources/local/control.ts) maps its own answers into these types.
 */

/** A value a setting is written with. */
export type SettingValue = string | number | boolean;

/** A value a setting is read as: null when the device holds none. */
export type HeldValue = SettingValue | null;

/** A preset's fields, by name as the preset's parameters list them (e.g. enabled, slots). */
export type PresetFields = Readonly<Record<string, unknown>>;

/**
 * How one request on a path ended. `code` is the path's own number for a failure when it has one
 * (the cloud's remote control code): it is carried into the change's outcome for the record (the
 * MQTT answer, the audit log), and nothing is decided by it.
 */
export type PathOutcome<T> =
  | { readonly outcome: "done"; readonly value: T; readonly message?: string }
  | { readonly outcome: "refused"; readonly reason: string; readonly code?: number }
  | { readonly outcome: "open"; readonly reason: string; readonly code?: number };

/** How a request goes: the gate's changes jump the queue, and keep a write open for its late answer. */
export interface ControlCall {
  /** command: a person or a rule is waiting; background: the values read at start. */
  readonly priority?: "command" | "background";
  readonly signal?: AbortSignal;
  /** This request's own wait for its answer, instead of the path's (a write kept open for its late answer). */
  readonly timeoutMs?: number;
  /** Called as the request leaves (after any wait for the path's budget). */
  readonly onSend?: () => void;
}

/** Reads a setting: its value (done), or why not (refused, or open when the path cannot tell). */
export interface SettingReads {
  readSetting(serial: string, settingId: number, call?: ControlCall): Promise<PathOutcome<HeldValue>>;
}

/** Reads a preset: its fields as the device holds them; throws when they cannot be read. */
export interface PresetReads {
  readPreset(serial: string, preset: string, call?: ControlCall): Promise<PresetFields>;
}

/** The reads of an inverter's controls: what reading back and a restore need, and nothing that writes. */
export interface InverterReads extends SettingReads, PresetReads {}

/** One of a device's controls, by the daemon's key: a setting's ID, or a preset's identifier (or older numeric ID). */
export type ControlKey = { readonly setting: number } | { readonly preset: string | number };

/** An inverter's or EMS's settings and presets: the port a path implements to take changes. */
export interface InverterControl extends InverterReads {
  /**
   * Whether this path has the control for the device (the LAN: a register for it on the device's
   * model); undefined when it cannot tell yet. Left out, the path has every control the device lists.
   */
  carries?(serial: string, control: ControlKey): boolean | undefined;
  /** Writes one setting, once (never retried): done with the value the device kept, refused, or open. */
  writeSetting(
    serial: string,
    settingId: number,
    value: SettingValue,
    call?: ControlCall,
  ): Promise<PathOutcome<HeldValue>>;
  /**
   * Applies the fields given of a preset (by its identifier, or an older listing's numeric ID),
   * writing only those whose value differs from what the device holds.
   */
  applyPreset(
    serial: string,
    preset: string | number,
    fields: PresetFields,
    call?: ControlCall,
  ): Promise<PathOutcome<undefined>>;
}
