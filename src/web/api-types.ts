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
  /** Its clock is off and left so (docs/clock.md: `clock.sync: warn`, or `auto` that could not set it); undefined otherwise. */
  readonly clockProblem?: {
    /** The device's serial, as the bridge request names it. */
    readonly serial: string;
    /** How far its clock is ahead of the house's time, s (negative: behind), as last read. */
    readonly driftSeconds: number | null;
    /** The daemon's warning, as on bridge/logging. */
    readonly message: string;
  };
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
  /** The whole house: each figure the sum of the systems' that have it. */
  readonly house: LiveHouseFlows;
  /** The tariffs' import and export price now; null without running rules. */
  readonly prices: LivePrices | null;
  /** Each EV charger and the car on it. */
  readonly cars: readonly LiveCar[];
  /** The house's IANA zone: the page shows times in it, and names it. */
  readonly timeZone: string;
  /** The daemon's clock, epoch ms, when the snapshot was made. */
  readonly now: number;
}

/** What one flow diagram draws: power signed as `LiveFlows`, the battery's SoC, and who the EV figure is. */
export interface FlowFigures {
  readonly solar: number | null;
  readonly battery: number | null;
  /** %. */
  readonly soc: number | null;
  readonly grid: number | null;
  readonly home: number | null;
  readonly ev: number | null;
  /** Who the EV figure is: the chargers' names, or the plant's car meter. */
  readonly evName: string | null;
}

/** The house-wide flows: every stand-alone inverter and EMS plant added up. */
export interface LiveHouseFlows extends FlowFigures {
  /** The systems added up, and how many of them have given a reading (the sums leave the others out). */
  readonly systems: number;
  readonly reading: number;
  /** Every battery of every system, by the inverter it is on; `soc` above is their mean. */
  readonly batteries: readonly { readonly serial: string; readonly soc: number | null }[];
  /** Epoch ms of the oldest reading in the sums; null before any. */
  readonly at: number | null;
}

/** Price per kWh now, in the tariffs' currency; null where the tariff gives none now. */
export interface LivePrices {
  readonly import: number | null;
  readonly export: number | null;
  readonly currency: string;
}

/** An EV charger and its car as the daemon last read them. */
export interface LiveCar {
  readonly id: string;
  readonly name: string;
  /** The charger's status word (e.g. Charging, Preparing, Available); null before its first. */
  readonly status: string | null;
  /** Whether a car is plugged in; null when the status does not say. */
  readonly plugged: boolean | null;
  readonly power: number | null;
  /** The car's SoC (%) when the charger or a rule's topic knows it. */
  readonly soc: number | null;
  /** kWh delivered in the open (or last) session. */
  readonly sessionKwh: number | null;
  /** Whether that session is still open; null without one. */
  readonly sessionOpen: boolean | null;
  /** The optimiser's car target and deadline, when a rule plans this car. */
  readonly target: { readonly soc: number | null; readonly kwh: number | null; readonly by: string | null } | null;
  /** The charger's own mode (e.g. Eco, Boost) and its evcc word. */
  readonly mode: { readonly own: string; readonly evcc: "PV" | "Min+PV" | "Fast" | null } | null;
  /** The path its data and commands go by now: the charger's own OCPP or Modbus, else the device's (the cloud or the LAN). */
  readonly path: "OCPP" | "Modbus" | "cloud" | "LAN";
}

/** One stand-alone inverter or one EMS plant: its own power flows, signed as `LiveFlows`. */
export interface LiveSystem extends Omit<LiveFlows, "ems">, FlowFigures {
  readonly id: string;
  readonly kind: "inverter" | "ems";
  readonly serial: string;
  readonly model: string;
  /** A plant's inverters; empty for a stand-alone inverter. */
  readonly members: readonly { readonly serial: string; readonly model: string }[];
  readonly path: "local" | "cloud";
  readonly mode: BatteryMode | null;
  /** Each battery's SoC (%), by the inverter it is on: one for a stand-alone inverter, one per member of a plant. */
  readonly batteries: readonly { readonly serial: string; readonly soc: number | null }[];
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
  /** The scope's id, as asked: an inverter's serial, `plant:<EMS serial>` or `house`. */
  readonly device: string;
  /** What the figures add up: the inverters whose metered rows are summed. */
  readonly scope: HistoryScopeName;
  /** How many of the scope's inverters each day's figures sum (fewer when some have no row that day). */
  readonly inverters: readonly number[];
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
 * Savings in the tariffs' currency: the metered cost against the same inverters with no battery
 * (the grid carrying their load less their solar each half-hour), and for the house also against
 * the battery in eco only. All metered from the inverters' lifetime counters (5-minute points).
 */
export interface HistorySavings {
  /**
   * The house's: every inverter's counters together, whichever scope the page shows; `actual` is
   * its metered cost with the standing charge. The only eco-only figure: the rules' one battery
   * is the house's.
   */
  readonly house: {
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
  };
  /**
   * The scope shown's own (an inverter's, a plant's; the house's too, there): its inverters'
   * counters summed, `actual` without the standing charge (the house's connection's).
   */
  readonly scope: {
    readonly kind: HistoryScopeName["kind"];
    readonly days: readonly {
      readonly day: string;
      readonly actual: number;
      readonly noBattery: number;
      readonly savedVsNoBattery: number;
    }[];
    readonly months: readonly {
      readonly month: string;
      readonly days: number;
      readonly actual: number;
      readonly savedVsNoBattery: number;
    }[];
  };
  /**
   * A plant's or the house's months against its inverters' own, each alone: the parts' sum differs
   * from the whole where, in a half-hour, one inverter's load outran its solar while another's
   * solar outran its load (the whole nets them, each part alone does not). Null for one inverter.
   */
  readonly parts:
    | readonly {
        readonly month: string;
        readonly inverters: readonly { readonly device: string; readonly savedVsNoBattery: number }[];
        /** The inverters' own savings added up. */
        readonly sum: number;
        /** The scope's own saving less the sum. */
        readonly difference: number;
      }[]
    | null;
}

export interface HistoryDevice {
  readonly device: string;
  readonly first: number;
  readonly last: number;
  readonly count: number;
}

/** A History scope by name: one inverter, an EMS plant (its inverters summed) or the house (every inverter summed). */
export interface HistoryScopeName {
  /** An inverter's serial, `plant:<EMS serial>` or `house`. */
  readonly id: string;
  readonly kind: "inverter" | "plant" | "house";
  /** What the page and the CSV call it, saying what is summed. */
  readonly label: string;
  /** The inverters whose rows make it up. */
  readonly members: readonly string[];
}

/** A History scope with the range of its inverters' 5-minute points. */
export interface HistoryScope extends HistoryScopeName {
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
