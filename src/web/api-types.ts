/**
 * The JSON the page reads: shared by the server and the browser code, so it imports nothing.
 */

/** One device as the Now page lists it. */
export interface LiveDevice {
  readonly id: string;
  readonly kind: string;
  readonly name: string;
  /** Undefined until the first verdict. */
  readonly available: boolean | undefined;
  readonly reason: string;
  /** Epoch ms of the last reading, if any. */
  readonly lastUpdate: number | undefined;
  /** Its values are older than twice its poll interval: what the page shows is not live. */
  readonly stale: boolean;
  /** The path its data comes over now: its dongle on the LAN, or the cloud. */
  readonly path: "local" | "cloud";
  /** An inverter's active faults in words, oldest first; undefined until its faults were read. */
  readonly faults?: readonly string[];
}

/** Power in W, signed as the MQTT entities: solar producing, battery discharging (+) or charging (-), grid exporting (+) or importing (-), home and EV using. */
export interface LiveFlows {
  readonly solar: number | null;
  readonly battery: number | null;
  /** %. */
  readonly soc: number | null;
  readonly grid: number | null;
  readonly home: number | null;
  readonly ev: number | null;
  /** The EMS plant's load. */
  readonly ems: number | null;
  /** Epoch ms of the newest reading behind these flows. */
  readonly at: number | null;
}

export interface LiveSnapshot {
  readonly devices: readonly LiveDevice[];
  readonly flows: LiveFlows;
  /** Each stand-alone inverter and each EMS plant with its own flows, as the flow diagrams draw them. */
  readonly systems: readonly LiveSystem[];
  /** The house's IANA zone: the page shows times in it, and names it. */
  readonly timeZone: string;
  /** The daemon's clock, epoch ms, when the snapshot was made. */
  readonly now: number;
}

/** One stand-alone inverter or one EMS plant: its own power flows, signed as `LiveFlows`. */
export interface LiveSystem extends Omit<LiveFlows, "ems"> {
  readonly id: string;
  readonly kind: "inverter" | "ems";
  readonly serial: string;
  readonly model: string;
  /** A plant's inverters; empty for a stand-alone inverter. */
  readonly members: readonly { readonly serial: string; readonly model: string }[];
  /** Who the EV figure is: the chargers' names, or the plant's car meter. */
  readonly evName: string | null;
  readonly path: "local" | "cloud";
  readonly mode: BatteryMode | null;
}

/** What the battery does by the settings the daemon last read or wrote, and who set that. */
export interface BatteryMode {
  readonly mode: "eco" | "timed-charge" | "timed-discharge" | "timed-export" | "paused" | "other";
  /** e.g. "timed charge until 05:30 (limit 95%)". */
  readonly words: string;
  /** "rule battery-by-morning" or "your setting". */
  readonly why: string;
  readonly rule: string | null;
}

/** GET api/history: one inverter's 5-minute points as columns, times in epoch seconds; grid W positive exporting (as on MQTT). */
export interface HistoryColumns {
  readonly device: string;
  readonly from: number;
  readonly to: number;
  /** Points in the range before any downsampling. */
  readonly points: number;
  /** Set when buckets were averaged to fit the screen. */
  readonly bucketSeconds: number | null;
  readonly time: readonly number[];
  readonly solar: readonly (number | null)[];
  readonly battery: readonly (number | null)[];
  readonly grid: readonly (number | null)[];
  readonly home: readonly (number | null)[];
  readonly soc: readonly (number | null)[];
}

/** GET api/history/days: energy per day in kWh by flow name, days as epoch seconds. */
export interface DailyEnergy {
  readonly device: string;
  readonly time: readonly number[];
  readonly flows: Readonly<Record<string, readonly (number | null)[]>>;
  /** kWh from the grid (to the home and the battery) and to it (from solar and the battery), per day. */
  readonly importKwh: readonly (number | null)[];
  readonly exportKwh: readonly (number | null)[];
  /** Import cost less export income per day, from the half-hourly flows and the tariffs' prices; null when either is missing. */
  readonly cost: readonly (number | null)[];
  readonly currency: string | null;
  /** The daemon's zone (IANA): the days are its local days, and the page names it. */
  readonly timeZone: string | null;
  /** What the battery saved each local day and month (from the rules' savings); null without running rules. */
  readonly savings: HistorySavings | null;
}

/**
 * Savings in the tariffs' currency: the cost against the same house with no battery, and with the
 * battery in eco only. The house's: metered from every inverter's counters together, whichever
 * inverter the page shows; `actual` is the house's metered cost with the standing charge.
 */
export interface HistorySavings {
  readonly scope: "house";
  readonly days: readonly {
    /** YYYY-MM-DD. */
    readonly day: string;
    readonly actual: number;
    readonly noBattery: number;
    readonly ecoOnly: number | null;
    readonly savedVsNoBattery: number;
    readonly savedVsEcoOnly: number | null;
  }[];
  readonly months: readonly {
    /** YYYY-MM: the whole month, to the last complete half-hour (this month's is MQTT's saved_month). */
    readonly month: string;
    readonly days: number;
    readonly actual: number;
    readonly savedVsNoBattery: number;
    readonly savedVsEcoOnly: number;
  }[];
}

export interface HistoryDevice {
  readonly device: string;
  readonly first: number;
  readonly last: number;
  readonly count: number;
}

export interface WebHealth {
  readonly version: string;
  readonly node: string;
  readonly startedAt: number;
  readonly cloud: {
    readonly simulated: boolean;
    readonly lastStatus: number | null;
    readonly lastSuccess: number | null;
    readonly requests: number;
    readonly failures: number;
  };
  readonly budget: { readonly used: number; readonly limit: number } | null;
  readonly store: { readonly path: string; readonly bytes: number | null; readonly status: string };
  readonly rules: boolean;
  /** With `source: auto`: the path carrying each device's live data. */
  readonly paths: readonly WebDevicePath[];
  /** While the cloud refuses the daemon (401/403): why that is likelier, and what carries on. */
  readonly refused: {
    readonly status: number;
    readonly likelier: "subscription" | "token";
    readonly message: string;
    readonly carrying_on: string | null;
  } | null;
  /** Changes sent today per device against the daily write budget; null without a budget. */
  readonly writes: { readonly budget: number; readonly devices: Readonly<Record<string, number>> } | null;
  /** Where live data comes from by configuration. */
  readonly source: "cloud" | "local" | "auto";
}

export interface WebDevicePath {
  readonly device: string;
  readonly path: "local" | "cloud";
  readonly setting: "auto" | "local" | "cloud";
  /** ISO 8601. */
  readonly since: string;
  readonly why: string;
  readonly switches: number;
}

/** What every SSE message carries, by event name. */
export interface StreamEvents {
  readonly live: LiveSnapshot;
  readonly change: unknown;
  readonly rule: unknown;
  readonly rules: unknown;
}

/** The daemon's daily settings backups, newest first, for the Health page's downloads. */
export interface SettingsBackupsView {
  readonly backups: readonly {
    readonly id: number;
    readonly serial: string;
    /** Epoch ms. */
    readonly takenAt: number;
    readonly settings: number;
  }[];
}
