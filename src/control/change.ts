import type { SettingValue } from "../sources/index.js";
import type { ChargerCommandId } from "../vocabulary/index.js";

/** A value a setting is written with: the daemon's own, as every path takes it. */
export type { SettingValue };

/** A change to a device. Whoever asks (Home Assistant, a rule, the CLI), it goes through the gate. */
export type ChangeRequest =
  | { readonly kind: "setting"; readonly serial: string; readonly settingId: number; readonly value: SettingValue }
  | {
      readonly kind: "preset";
      readonly serial: string;
      /** Preset identifier, e.g. timed-charge. */
      readonly preset: string;
      /** The preset's fields; for timed presets `slots` may be keyed by 1-based slot number. */
      readonly fields: Readonly<Record<string, unknown>>;
    }
  | {
      readonly kind: "ev-command";
      readonly uuid: string;
      readonly command: ChargerCommandId;
      readonly request: Readonly<Record<string, unknown>>;
    };

export interface Requester {
  /**
   * The way the change came: `mqtt`, a `set` topic, from Home Assistant or any other MQTT client
   * (the payload cannot tell which); a rule; the CLI; a bridge request. The audit log keeps it in
   * its `source` column, and says `source` in the rows it hands out. `settings-restore`: a backup
   * put back by `energy2mqtt settings restore`. `daemon`: the daemon's own upkeep (the clock sync,
   * control/clock-watch.ts). `givtcp-rest`: GivTCP's REST API, as Predbat calls it.
   */
  readonly via: "mqtt" | "rule" | "cli" | "bridge" | "settings-restore" | "daemon" | "givtcp-rest";
  /** e.g. the entity, the rule's name, or the MQTT client. */
  readonly name?: string;
  /**
   * The change puts the house back (a rule's restore, a snapshot restored): it goes even when
   * the device's daily write budget is spent, and is counted.
   */
  readonly restore?: boolean;
}

export interface ChangeOutcome {
  readonly ok: boolean;
  /** Remote control code (-1..-7) or EV command code (0..-5), when the device answered with one. */
  readonly code?: number;
  /** What happened, in words a Home Assistant user understands; for a refusal, what is allowed. */
  readonly message: string;
  /** True when the value was read back and matched, or the device confirmed it. */
  readonly verified: boolean;
  /** True when nothing was sent because the device already had the value. */
  readonly skipped: boolean;
  /** True when the request broke the device's rules (or its access) and nothing was sent. */
  readonly refused?: boolean;
  /**
   * True when the outcome is not known: the change was sent and may or may not have happened
   * (no answer in time, and reading it back could not tell). `ok` is false then.
   */
  readonly mayHaveApplied?: boolean;
  /** The device's value after the change, when known. */
  readonly value?: unknown;
}
