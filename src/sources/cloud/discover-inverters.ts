import type { CommunicationDevice, Inverter, PresetDescriptor, SettingDescriptor } from "../../cloud/index.js";
import { type CallOptions, type CloudClient, CloudError } from "../../cloud/index.js";
import type { Logger } from "../../log/log.js";
import type { EmsDevice, Inventory, InverterDevice } from "../inventory.js";
import { orEmpty } from "./tolerate.js";

const CONTROLLABLE = "is-controllable";

interface Found {
  readonly device: CommunicationDevice;
  readonly inverter: Inverter;
}

/** An EMS shows up in the device listing as an inverter whose model (e.g. GIV-EMS) or serial says so. */
export function isEms(inverter: Inverter): boolean {
  return /EMS/i.test(inverter.info?.model ?? "") || /EMS/i.test(inverter.serial);
}

/**
 * Inverters and EMS plants behind the communication devices. An EMS's children are the
 * inverters its system data lists, or failing that those whose dongle serial starts with the
 * EMS serial. Controllable stand-alone inverters get their settings and presets listings.
 */
export async function discoverInverters(
  client: CloudClient,
  devices: readonly CommunicationDevice[],
  call: CallOptions,
  logger?: Logger,
  previous?: Inventory,
): Promise<{ inverters: InverterDevice[]; ems: EmsDevice[] }> {
  const found: Found[] = devices.flatMap((device) => (device.inverter ? [{ device, inverter: device.inverter }] : []));
  const plants = found.filter((f) => isEms(f.inverter));
  const knownEms = new Map(previous?.ems.map((e) => [e.serial, e]));
  const knownInverters = new Map(previous?.inverters.map((i) => [i.serial, i]));
  const ems = await Promise.all(
    plants.map((plant) => knownEms.get(plant.inverter.serial) ?? emsOf(client, plant, found, call, logger)),
  );
  const parentOf = new Map<string, string>();
  for (const plant of ems) for (const serial of plant.inverterSerials) parentOf.set(serial, plant.serial);
  const listings = new Listings(client, call, logger);

  const inverters = await Promise.all(
    found
      .filter((f) => !isEms(f.inverter))
      .map(async ({ device, inverter }) => {
        const emsSerial = parentOf.get(inverter.serial);
        const controllable = emsSerial === undefined && inverter.flags.includes(CONTROLLABLE);
        const known = knownInverters.get(inverter.serial);
        const { settings, presets } =
          known?.controllable === controllable
            ? known
            : controllable
              ? await listings.of(inverter)
              : { settings: [], presets: [] };
        return inverterDevice(device, inverter, { emsSerial, controllable, settings, presets });
      }),
  );
  return { inverters, ems };
}

interface Listing {
  readonly settings: readonly SettingDescriptor[];
  readonly presets: readonly PresetDescriptor[];
}

/**
 * The settings and presets listings, read once per model and firmware: the listing depends on
 * those (API notes), so a fleet of one model costs two requests rather than two per inverter,
 * and its inverters share one copy. An inverter whose model or firmware is unknown is read alone.
 */
class Listings {
  private readonly byKind = new Map<string, Promise<Listing>>();

  constructor(
    private readonly client: CloudClient,
    private readonly call: CallOptions,
    private readonly logger: Logger | undefined,
  ) {}

  of(inverter: Inverter): Promise<Listing> {
    const model = inverter.info?.model;
    const { ARM: arm, DSP: dsp } = inverter.firmware_version ?? {};
    if (!model || arm == null || dsp == null) return this.read(inverter.serial);
    const kind = `${model}|${arm}|${dsp}`;
    let listing = this.byKind.get(kind);
    if (!listing) {
      listing = this.read(inverter.serial);
      this.byKind.set(kind, listing);
    }
    return listing;
  }

  async read(serial: string): Promise<Listing> {
    const { client, call, logger } = this;
    const [settings, presets] = await Promise.all([
      orEmpty(client.inverterControl.settings(serial, call), `settings of ${serial}`, logger),
      orEmpty(client.inverterControl.presets(serial, call), `presets of ${serial}`, logger),
    ]);
    return { settings, presets };
  }
}

async function emsOf(
  client: CloudClient,
  plant: Found,
  found: readonly Found[],
  call: CallOptions,
  logger?: Logger,
): Promise<EmsDevice> {
  const serial = plant.inverter.serial;
  let listed: string[] = [];
  try {
    const data = await client.ems.systemDataLatest(serial, call);
    listed = data.inverters.flatMap((child) => (child.serial_number ? [child.serial_number] : []));
  } catch (error) {
    if (!(error instanceof CloudError)) throw error;
    logger?.warn(`EMS ${serial}: system data not readable, children taken from dongle serials (${error.message})`);
  }
  const byDongle = found
    .filter((f) => f !== plant && !isEms(f.inverter) && f.device.serial_number.startsWith(serial))
    .map((f) => f.inverter.serial);
  const controllable = plant.inverter.flags.includes(CONTROLLABLE);
  const { settings, presets } = controllable
    ? await new Listings(client, call, logger).read(serial)
    : { settings: [], presets: [] };
  return {
    kind: "ems",
    serial,
    model: plant.inverter.info?.model ?? "EMS",
    inverterSerials: listed.length > 0 ? listed : byDongle,
    flags: plant.inverter.flags,
    controllable,
    settings,
    presets,
  };
}

function inverterDevice(
  device: CommunicationDevice,
  inverter: Inverter,
  extra: Pick<InverterDevice, "controllable" | "settings" | "presets"> & { emsSerial: string | undefined },
): InverterDevice {
  const battery = inverter.info?.battery;
  const capacityKwh =
    typeof battery?.nominal_capacity === "number" && typeof battery.nominal_voltage === "number"
      ? Math.round((battery.nominal_capacity * battery.nominal_voltage) / 100) / 10
      : undefined;
  const { emsSerial, ...rest } = extra;
  return {
    kind: "inverter",
    serial: inverter.serial,
    model: inverter.info?.model ?? "unknown",
    dongleSerial: device.serial_number,
    ...(device.type ? { dongleType: device.type } : {}),
    ...(inverter.status ? { status: inverter.status } : {}),
    firmware: {
      arm: inverter.firmware_version?.ARM,
      dsp: inverter.firmware_version?.DSP,
      dongle: device.firmware_version,
    },
    ...(emsSerial !== undefined ? { emsSerial } : {}),
    ...(capacityKwh !== undefined && capacityKwh > 0 ? { batteryCapacityKwh: capacityKwh } : {}),
    batteries: inverter.connections?.batteries ?? [],
    meters: inverter.connections?.meters ?? [],
    flags: inverter.flags,
    ...rest,
  };
}
