import { CloudClient } from "../src/cloud/client.js";
import { bridgeDiscoveryMessages } from "../src/health/bridge-discovery.js";
import { startSimulator } from "../src/simulator/index.js";
import { discoverInventory } from "../src/sources/index.js";
import { type Device, devicesOf, type Inventory } from "../src/sources/index.js";
import type { DiscoveryMessage } from "../src/homeassistant/discovery.js";
import { type EntityDef, entitiesFor } from "../src/homeassistant/entities/index.js";
import { rulesDiscoveryMessages } from "../src/homeassistant/rules-discovery.js";
import { Topics } from "../src/homeassistant/topics.js";
import { LAN_GAPS } from "./lan-gaps.js";

/** One line of the reference: an entity, or a numbered family of them (`numbers` set). */
export interface EntityRow {
  readonly component: string;
  readonly key: string;
  readonly name: string;
  readonly unit?: string | undefined;
  readonly device_class?: string | undefined;
  readonly state_class?: string | undefined;
  /** For a family such as `solar_array_{n}_power`: the values of {n}. */
  readonly numbers?: readonly number[];
}

type Kind = "sensors" | "preset" | "setting" | "ev-command" | "clock-sync";

const GROUP_INTRO: Record<Kind, string> = {
  sensors: "",
  preset:
    "Presets: these come from the inverter's own preset listing (`GET /inverter/{serial}/presets`), so another model or firmware shows other ones.",
  setting:
    "Settings: these come from the inverter's own settings listing (`GET /inverter/{serial}/settings`), so another model or firmware shows other ones. Each key is `setting_` and the setting's name in snake case, with its id added when two settings share a name.",
  "ev-command": "Commands: one or more entities for each command the charger says it supports.",
  "clock-sync":
    "The clock: Sync clock sets the device's clock to the house's time now, as `bridge/request/clock/sync` does (docs/clock.md). Only the LAN can write a clock, so it is announced with the Clock drift the LAN reads; a device reached only through the cloud has neither.",
};

/** Rows of a family share everything but one number, which is in both the key and the name. */
function familyOf(row: EntityRow): { id: string; key: string; name: string; n: number } | undefined {
  const numbers = row.key.match(/(?<=_)\d+(?=_|$)/g);
  if (numbers?.length !== 1) return undefined;
  const n = numbers[0] as string;
  const inName = new RegExp(`\\b${n}\\b`, "g");
  if (row.name.match(inName)?.length !== 1) return undefined;
  const key = row.key.replace(new RegExp(`(?<=_)${n}(?=_|$)`), "{n}");
  const name = row.name.replace(inName, "{n}");
  const id = [row.component, key, name, row.unit, row.device_class, row.state_class].join("\u0000");
  return { id, key, name, n: Number(n) };
}

/** Folds numbered families (slots, arrays, modules) into one row each, in order of first appearance. */
export function compactRows(rows: readonly EntityRow[]): EntityRow[] {
  const families = new Map<string, EntityRow[]>();
  for (const row of rows) {
    const id = familyOf(row)?.id ?? `\u0001${row.key}`;
    families.set(id, [...(families.get(id) ?? []), row]);
  }
  return [...families.values()].map((members) => {
    const first = members[0] as EntityRow;
    const family = familyOf(first);
    if (members.length < 2 || !family) return first;
    const numbers = members.map((member) => familyOf(member)?.n ?? 0).sort((a, b) => a - b);
    return { ...first, key: family.key, name: family.name, numbers };
  });
}

function rowOf(entity: EntityDef): EntityRow {
  return {
    component: entity.component,
    key: entity.key,
    name: entity.name,
    unit: entity.unit,
    device_class: entity.device_class,
    state_class: entity.state_class,
  };
}

function numbersText(numbers: readonly number[]): string {
  const first = numbers[0];
  const last = numbers[numbers.length - 1];
  const contiguous = numbers.every((n, index) => index === 0 || n === (numbers[index - 1] as number) + 1);
  return contiguous ? `${first}–${last}` : numbers.join(", ");
}

const cell = (text: string | undefined): string => (text ?? "").replace(/\|/g, "\\|");

export function entityTable(rows: readonly EntityRow[]): string[] {
  return [
    "| component | key | name | unit | device_class | state_class |",
    "|---|---|---|---|---|---|",
    ...compactRows(rows).map((row) => {
      const key = row.numbers ? `\`${row.key}\` ({n} = ${numbersText(row.numbers)})` : `\`${row.key}\``;
      return `| ${row.component} | ${key} | ${cell(row.name)} | ${cell(row.unit)} | ${cell(row.device_class)} | ${cell(row.state_class)} |`;
    }),
  ];
}

function title(device: Device): { heading: string; note?: string } {
  switch (device.kind) {
    case "inverter":
      return device.emsSerial === undefined
        ? { heading: `Inverter (${device.model}, \`${device.serial}\`)` }
        : {
            heading: `Inverter in an EMS plant (${device.model}, \`${device.serial}\`)`,
            note: "Inverters of an EMS plant are controlled through the EMS, so they have sensors only.",
          };
    case "ems":
      return { heading: `EMS (\`${device.serial}\`)` };
    case "ev_charger":
      return { heading: `EV charger (\`${device.serial}\`)` };
    case "smart_device":
      return { heading: `Smart device (${device.alias})` };
  }
}

function deviceSection(device: Device): string[] {
  const { heading, note } = title(device);
  const groups = new Map<Kind, EntityRow[]>();
  for (const entity of entitiesFor(device)) {
    const kind: Kind = entity.command?.target.kind ?? "sensors";
    groups.set(kind, [...(groups.get(kind) ?? []), rowOf(entity)]);
  }
  const lines = [`## ${heading}`, ""];
  if (note) lines.push(note, "");
  for (const [kind, rows] of groups) {
    if (GROUP_INTRO[kind]) lines.push(GROUP_INTRO[kind], "");
    lines.push(...entityTable(rows), "");
  }
  return lines;
}

/** The rules device's entities, read from its discovery configs for one rule named `{rule}`. */
function rulesSection(): string[] {
  const messages = rulesDiscoveryMessages(["{rule}"], {
    topics: new Topics("energy2mqtt", "homeassistant"),
    origin: { name: "energy2mqtt", sw_version: "", support_url: "" },
    currency: "GBP",
  });
  return [
    "## Tariff rules (one device, `energy2mqtt rules`)",
    "",
    "Present when `rules` names a rules file: the tariff sensors, then a switch and a button for each rule (`{rule}` is the rule's name). Prices are in the tariffs' currency, GBP here.",
    "",
    ...entityTable(rowsOf(messages)),
    "",
  ];
}

/** The daemon's own device, read from its discovery configs. */
function bridgeSection(): string[] {
  const messages = bridgeDiscoveryMessages(new Topics("energy2mqtt", "homeassistant"), {
    name: "energy2mqtt",
    sw_version: "",
    support_url: "",
  });
  return [
    "## The bridge (one device, `energy2mqtt bridge`)",
    "",
    "Diagnostics of energy2mqtt itself, read from the retained `energy2mqtt/bridge/health` (published every minute): whether the cloud answers, the requests sent in the last minute (the attributes hold the rate budget's use), and the last warning or error logged (also published as it happens on `energy2mqtt/bridge/logging`).",
    "",
    ...entityTable(rowsOf(messages)),
    "",
  ];
}

function rowsOf(messages: readonly DiscoveryMessage[]): EntityRow[] {
  const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
  return messages.map(({ topic, payload }): EntityRow => {
    const [, component = "", , key = ""] = topic.split("/");
    return {
      component,
      key,
      name: text(payload.name) ?? "",
      unit: text(payload.unit_of_measurement),
      device_class: text(payload.device_class),
      state_class: text(payload.state_class),
    };
  });
}

export const ENTITY_REFERENCE_HEADER =
  "<!-- Generated by `npm run docs:entities` from the simulator's demo house: do not edit by hand. A test fails when it is out of date. -->";

/**
 * Which path carries what: what test/app/two-paths.test.ts finds when two daemons read the demo
 * house, one over the cloud and one over the LAN (`source: local`); keep the two in step.
 */
function pathsSection(): string[] {
  return [
    "## Which path carries what",
    "",
    "With `source: cloud` the daemon reads the vendor's cloud; with `source: local` the dongles on the LAN (`local:` in the configuration). An entity both paths carry has the same discovery config and `unique_id` on either, but for a number's range (below), and the same state within the registers' rounding (energies to 0.1 kWh). The others:",
    "",
    "| entity | only on | why |",
    "|---|---|---|",
    "| settings and presets a model has no register for; preset profiles | cloud | with `source: local` changes go over the LAN (Modbus 0x06 through the dongle, the same gate) for the settings and presets whose registers the model's map holds (`src/local/registers/controls.ts`; `test/local/controls.test.ts` lists each model's); an EMS's inverters take no changes of their own: the EMS's own registers are its controls (plant enable HR 2040 as Plant EMS Control, its three charge, discharge and export slots HR 2044-2070 as the timed presets, its export limit HR 2071 as Grid Settings, which has no switch there). A gateway's controls are its own registers, as GivTCP reads and writes a gateway (HR 0-359 at its 0x11, never the All-in-Ones behind it): the single-phase base (eco, reserve, cut-off, charge target, AC charge and DC discharge enables), ten charge and discharge slots with their limits, pause battery, and its battery charge and discharge power in W as HR 313/314, % of 6000 W per All-in-One it counts (IR 1700). The export limit is offered over the LAN on the EMS and the three-phase models (HR 1102/1103) only: no public single-phase map has an export-limit register known to work; EPS (Enable EPS, HR 317) on AC-coupled units and All-in-Ones only (docs/portal-settings.md lists these and what still needs an installer). Snapshots of a device changed over the LAN are the daemon's own, kept in its store |",
    "| EV charger, smart devices | cloud | the dongle's device chain does not hold them |",
    "| the device's own start and end times of a fault | cloud | an inverter's registers (a single-phase one's HR 223-224 and IR 57, `src/local/registers/faults.ts`; a three-phase one's IR 1300-1307, `src/local/registers/three-phase-faults.ts`, least significant bit first as givenergy-modbus checked them against the installer app, where GivTCP reads them the other way round) hold only the faults active now, in words the public maps give: over the LAN `fault`, `faults` and `latest_fault` come from them, a fault starting when a poll first reads it and ending when one reads it gone. On either path each fault is said on `bridge/logging` (a warning) once when it appears and once when it clears |",
    "| `battery_capacity` of an HV hybrid Gen3, Gen4, three-phase AC-coupled unit or EMS | cloud | the cloud's is the device listing's nominal capacity times its nominal voltage; over the LAN a Gen1-3 hybrid, AC-coupled unit or All-in-One gives the same figure from its battery's nominal Ah (HR 55) times the public map's nominal voltage (51.2 V, the All-in-One's 307.2 V: `src/local/registers/battery-capacity.ts`), a three-phase hybrid (whose HR 55 reads 0 in its capture) from its HV stack's BCU: the nominal Ah (IR 98) times its modules (IR 64) of 24 LFP cells at 3.2 V, and a gateway its All-in-Ones' packs together (52 Ah each at 307.2 V, times the count in IR 1700; the cloud lists a gateway with two at 104 Ah); no capture shows HR 55 or a BCU's capacity on the others |",
    "| live values and counters a kind of device has no register for | cloud | by kind, below |",
    "| `battery_1_capacity` (full capacity, Ah) of an HV stack (All-in-One, HV hybrid, three-phase) | cloud | the public register maps give the stack's BCU a nominal capacity (IR 98, `battery_1_design_capacity` on both paths), the charge remaining (IR 99) and a health percentage (IR 81), but no full capacity; the LAN leaves it null rather than derive one. An LV pack's full capacity is a register (IR 84-85, \"calibrated\") and both paths carry it |",
    "| `solar_array_2_*` on a hybrid | local | its registers hold both strings; the cloud lists one |",
    "| `timed_export_discharge_target_percent` on a model with the battery power limits but no discharge target register (HR 272), e.g. a Gen1 hybrid or an AC-coupled unit | local | the target is the daemon's own (kept in its store, the reserve until set): while a discharge slot runs and the SoC is at or below it, the daemon holds the discharge limit at 0 through the gate until the slot ends, checked once a minute (docs/from-givtcp.md). Where the model has no pause registers (HR 318-320) its Pause Battery is the daemon's too, through the power limits; over the cloud both are the cloud's |",
    "| `calibration`, `calibrating` on a single-phase inverter | local | the battery calibration's stage is HR 29 (read every 2 minutes); the cloud's API shows no calibration |",
    "| live values and counters of an inverter in an EMS plant | local | when its own dongle is configured; the cloud gives it only through the EMS's rollup |",
    "",
    "The live values and counters only the cloud carries, by the kind of device the dongle's registers show (the model detected on the LAN):",
    "",
    "| kind | only on the cloud | why |",
    "|---|---|---|",
    ...LAN_GAPS.map((gap) => `| ${gap.kind} | ${gap.keys.map((key) => `\`${key}\``).join(", ")} | ${gap.why} |`),
    "",
    "Derived over the LAN: `today_consumption_energy` of a single-phase hybrid or All-in-One is in no register (the cloud computes it), so the LAN path balances it from today's counters as GivTCP does: PV + grid import + battery discharge - grid export - battery charge (`src/local/registers/load-balance.ts`). Each counter is its register's 0.1 kWh, so the figure is within 0.25 kWh of the cloud's; it is held rather than let fall within a day (a fall is a meter reset to Home Assistant) and starts again when the counters do. An AC-coupled unit has no PV counter, and the PV that reaches its home through another inverter is not in its registers, so it gets none.",
    "",
    "Signs are the daemon's on either path: `battery_power` discharge positive, `grid_power` export positive. The EMS keeps its grid figure (IR 2089) and its grid meter's power the other way round, positive into the house (the captured EMS read -1869 W there at night while its batteries discharged 2507 W into a 638 W load, and its own inverter-style IR 30 read +1873 W), so the LAN path flips them; its battery figure (IR 2090, the sum of its inverters') is already discharge positive. On an EMS `meter_{n}_power` of a `GRID` meter is export positive like `grid_power`; a `GENERATION` meter's is positive while generating. The gateway keeps its battery powers charge positive; the LAN path flips them too.",
    "",
    "Counters differ in timing, not meaning: the cloud's are its last 5-minute data point, the registers' the moment of the poll.",
    "",
    "A number's `min` and `max` are the device's own listing's on the cloud; over the LAN they are the register's on the model (`src/local/registers/ranges.ts`, from the vendor's register list and app), since Home Assistant drops a state outside them and the cloud's listing (a Gen3 hybrid's) does not fit every model. Most are the cloud's; these differ:",
    "",
    "| number | model | LAN range | cloud's | why |",
    "|---|---|---|---|---|",
    "| `grid_settings_export_limit_watts` | EMS (HR 2071) | 0-65535 W | 0-3600 W | the limit is the site's export allowance, not what its inverters can export (the captured EMS holds 9500 W with two 3 kW inverters); neither the register list nor the app bounds it, and what the plant's inverters can export together is not known, so the register's whole range |",
    "| `grid_settings_export_limit_watts` | three-phase (HR 1102) | 0-60000 W | 0-3600 W | the register list's range: it limits the flow back into the grid at the meter, the connection's allowance, not the inverter's rating (the captured 11 kW GIV-3HY-11 holds 17000 W) |",
    "| `setting_battery_reserve_percent_limit`, `battery_operating_range_reserve_percent`, `setting_ac_charge_upper_percent_limit` | three-phase (HR 1109, 1111) | 1-100 % | 4-100 %, 0-100 % | the vendor's app writes 1-100 % there (its register list says 5-100 %) |",
    "| `setting_battery_charge_power`, `setting_battery_discharge_power`, `battery_operating_range_max_charge_watts`, `battery_operating_range_max_discharge_watts` | three-phase (HR 1110, 1108) | 1-100 % of 2000 W a module (120-12000 W in steps of 120 W on six modules) | 0-3600 W | the registers hold 1-100 % (ChargePowerRate, DischargePowerRate in the register list and both apps); GivTCP makes watts of them as a share of 25 A x 80 V a module (its read.py), so the same watts give the word GivTCP writes |",
    "",
    "The three-phase over the LAN, where the public sources and the captured GIV-3HY-11 (`three_phase_hv_a`, its HR 0-179 and HR 1000-1124 and its BCU) disagree, the capture decides:",
    "",
    "- Battery size: its HR 55 reads 0, so neither HR 55 nor GivTCP's `battery_nominal_capacity` (HR 55 times a voltage) gives it. Its BCU reads 52.0 Ah nominal (IR 98; its owner's 52 Ah modules; the remaining Ah, IR 99, follow nominal x health x charge in all three captures) over 6 modules (IR 64), 144 cells (IR 67) at 470-478 V: 52.0 x 144 x 3.2 V = 24.0 kWh. GivTCP's `battery_capacity_hv` multiplies IR 98 by one module's 76.8 V, which is one module's 4.0 kWh, not the stack's.",
    "- Power rates: HR 1110/1108 read 1 (1 %, 120 W of six modules' 12 kW) while the same capture's battery gave 1.5-1.7 kW to the home's load (IR 1136-1137, with no discharge slot running): the rates do not hold back the battery covering demand. They are documented as the rates of charging and forced discharge (the register list, the apps); what they hold back on hardware is not shown by any capture.",
    "- Mode: GivTCP reads a three-phase's mode from HR 27 (the single-phase eco switch) and HR 1122. The three-phase's register list has no eco switch among HR 1000-1124, and its capture reads HR 27 = 0 (storage mode on a single-phase unit) while its battery covers the home's demand outside any slot, so HR 27 is not its eco switch. Here the three-phase has no eco switch: it covers demand whenever no timed export runs. HR 1122 (ForceDischargeEn; GivTCP's `enable_discharge`) with discharge slot 1 (HR 1118/1119) is its timed export, so GivTCP's mode is Timed Export while HR 1122 is 1 and Eco while it is 0 (GivTCP reads the capture as Timed Export too). Eco (Paused) and Timed Demand need an eco switch and are refused there.",
    "",
    "With `source: auto` an inverter or EMS whose dongle answers takes its live values and counters from the dongle, and from the cloud in the same poll when the dongle fails; it goes back to the dongle once that has answered every poll for `auto.failback` (5 minutes). One path at a time: each value comes once per poll. Its diagnostic `path` sensor (`local` or `cloud`, announced only with `source: auto`) says which path carries it now; an entity only the other path carries keeps its last value until the device is back on that path. Changes follow the same path: a device on its dongle is changed over the LAN, one on the cloud through the cloud, always through the one gate (its audit, write budget and restores). Fault events, EV chargers without a path of their own, smart devices, preset profiles and the long history stay on the cloud.",
    "",
    "An EV charger has the same entities (the same `unique_id`s) over the cloud, OCPP and Modbus. Its own paths come first, OCPP while its charge point is connected to the daemon's central system, then Modbus (`ev_chargers[].modbus`) while its registers answer, the cloud last; its `path` sensor says `local` while one of its own carries it. With `source: local` a charger on OCPP or Modbus is named by the configuration (with the cloud's `uuid`, its entities stay the ones it had) and its `path` is `local`.",
    "",
  ];
}

/** docs/entities.md for an inventory. */
export function entityReference(inventory: Inventory): string {
  return [
    ENTITY_REFERENCE_HEADER,
    "",
    "# Home Assistant entities",
    "",
    "Every entity energy2mqtt announces by MQTT discovery, device by device, for the simulator's demo house (`energy2mqtt simulate`, or `energy2mqtt run` with no cloud configured). A real account's devices get the same entities, except the controls that come from a device's own listings, as noted below. Numbered families such as solar arrays, battery modules, EMS meters and preset slots follow what the device reports; `{n}` stands for the number. Each entity's state is the key of the same name in the device's state JSON (`energy2mqtt/<device>`), and controls take commands on `energy2mqtt/<device>/set/<key>`.",
    "",
    ...devicesOf(inventory).flatMap(deviceSection),
    ...rulesSection(),
    ...bridgeSection(),
    ...pathsSection(),
  ]
    .join("\n")
    .replace(/\n+$/, "\n");
}

/** Starts the demo simulator on a free port, discovers its inventory as the daemon does, and renders it. */
export async function demoEntityReference(): Promise<string> {
  // A fixed seed and start time, so that nothing in the inventory depends on when this runs.
  const simulator = await startSimulator({ port: 0, scenario: "demo", seed: 1, start: Date.UTC(2025, 0, 1) });
  try {
    const token = simulator.tokens.owner;
    if (!token) throw new Error("the demo scenario has no owner actor");
    const inventory = await discoverInventory(new CloudClient({ baseUrl: simulator.url, token }));
    return entityReference(inventory);
  } finally {
    await simulator.stop();
  }
}
