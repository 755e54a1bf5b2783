import type { Clock } from "../../time/index.js";
import type { DevicePath } from "../ports.js";

/** A device's own setting: one path only, or its dongle with the cloud as fallback. */
export type PathSetting = DevicePath | "auto";

/** A device came onto a path: at start (no `from`) or moved from the other one. */
export interface PathSwitch {
  readonly serial: string;
  readonly from: DevicePath | undefined;
  readonly to: DevicePath;
  readonly at: number;
  readonly why: string;
}

/** Where one device stands, for bridge/health and the web page. */
export interface PathState {
  readonly path: DevicePath;
  readonly setting: PathSetting;
  /** When it came onto this path (clock ms). */
  readonly since: number;
  readonly why: string;
  /** Switches since start-up. */
  readonly switches: number;
}

export interface PathChoiceOptions {
  readonly clock: Clock;
  /** How long the dongle must answer every poll before a device goes back to it from the cloud. */
  readonly failbackMs: number;
  /** Per device serial (any case), its setting; `auto` when left out. */
  readonly settings?: Readonly<Record<string, PathSetting>>;
  /** Told when a device is first tracked and at each switch. */
  readonly onPath?: (change: PathSwitch) => void;
}

interface Entry {
  path: DevicePath;
  since: number;
  why: string;
  switches: number;
  /** Since when the dongle has answered every poll; undefined after a failure. */
  steadySince: number | undefined;
}

/**
 * Which path carries each device with `source: auto`: its dongle while it answers, the cloud
 * otherwise. A failed LAN poll moves the device to the cloud at once; it comes back only after
 * its dongle has answered every poll for `failbackMs`, so a flapping dongle costs one switch,
 * not one per flap. One path at a time: the device's live data and changes follow `pathOf`.
 */
export class PathChoice {
  private readonly entries = new Map<string, Entry>();
  private readonly settings = new Map<string, PathSetting>();

  constructor(private readonly options: PathChoiceOptions) {
    for (const [serial, setting] of Object.entries(options.settings ?? {}))
      this.settings.set(serial.toUpperCase(), setting);
  }

  settingOf(serial: string): PathSetting {
    return this.settings.get(serial.toUpperCase()) ?? "auto";
  }

  /** Whether the device may be carried by this path at all. */
  allows(serial: string, path: DevicePath): boolean {
    const setting = this.settingOf(serial);
    return setting === "auto" || setting === path;
  }

  /**
   * A device with a dongle on the LAN: it starts on the dongle (unless set to the cloud). Known
   * devices keep their path.
   */
  track(serial: string, reachable: boolean): void {
    const key = serial.toUpperCase();
    if (this.entries.has(key)) return;
    const local = this.allows(key, "local") && (reachable || !this.allows(key, "cloud"));
    const entry: Entry = {
      path: local ? "local" : "cloud",
      since: this.options.clock.now(),
      why: local ? "its dongle answers" : reachable ? "set to the cloud" : "its dongle did not answer at discovery",
      switches: 0,
      steadySince: undefined,
    };
    this.entries.set(key, entry);
    this.options.onPath?.({ serial: key, from: undefined, to: entry.path, at: entry.since, why: entry.why });
  }

  /** The path in use; a device without a dongle is on the cloud. */
  pathOf(serial: string): DevicePath {
    return this.entries.get(serial.toUpperCase())?.path ?? (this.settingOf(serial) === "local" ? "local" : "cloud");
  }

  /** The dongle answered a poll: after `failbackMs` of answers in a row, the device goes back to it. */
  lanAnswered(serial: string): void {
    const entry = this.entries.get(serial.toUpperCase());
    if (!entry) return;
    const now = this.options.clock.now();
    entry.steadySince ??= now;
    if (entry.path === "cloud" && this.allows(serial, "local") && now - entry.steadySince >= this.options.failbackMs)
      this.use(
        serial,
        "local",
        `its dongle has answered every poll for ${Math.round((now - entry.steadySince) / 1000)} s`,
      );
  }

  /** The dongle failed a poll: its steady run starts again. */
  lanFailed(serial: string): void {
    const entry = this.entries.get(serial.toUpperCase());
    if (entry) entry.steadySince = undefined;
  }

  /** Moves the device to `path` now (a failover), if it may use it. */
  use(serial: string, path: DevicePath, why: string): void {
    const entry = this.entries.get(serial.toUpperCase());
    if (!entry || entry.path === path || !this.allows(serial, path)) return;
    const at = this.options.clock.now();
    const from = entry.path;
    entry.path = path;
    entry.since = at;
    entry.why = why;
    entry.switches++;
    this.options.onPath?.({ serial: serial.toUpperCase(), from, to: path, at, why });
  }

  /** Every tracked device's state, by serial. */
  states(): Record<string, PathState> {
    const out: Record<string, PathState> = {};
    for (const [serial, entry] of [...this.entries].sort(([a], [b]) => a.localeCompare(b)))
      out[serial] = {
        path: entry.path,
        setting: this.settingOf(serial),
        since: entry.since,
        why: entry.why,
        switches: entry.switches,
      };
    return out;
  }
}
