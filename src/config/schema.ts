import { z } from "zod";
import { DONGLE_GAP_MS } from "../local/index.js";
import { duration, durationBetween, isoInstant, isTimeZone } from "../time/index.js";
// The history's kinds are part of the store's public shape, a file of plain constants.
import { DOWNSAMPLED_KINDS, HISTORY_KINDS } from "../vocabulary/history-kinds.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Numbers and booleans may arrive as text from environment overrides. */
const integer = () =>
  z.preprocess((v) => (typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v) : v), z.number().int());
const boolean = () => z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean());

const url = (protocols: readonly string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}`,
  );

const topic = z
  .string()
  .min(1)
  .regex(/^[^#+\s]+$/, "must be an MQTT topic without spaces, # or +")
  .refine((value) => !value.startsWith("/") && !value.endsWith("/"), "must not start or end with /");

export const cloudConfig = z.strictObject({
  /** Left out: the built-in simulator runs in-process. */
  url: url(["http:", "https:"])
    .optional()
    .describe("The cloud API's base URL (http:// or https://); left out, the built-in simulator's demo house runs"),
  token: z.string().min(1).optional().describe("API token from the cloud portal; best as `!secret` or the environment"),
  requests_per_minute: integer()
    .pipe(z.number().min(1).max(10_000))
    .default(300)
    .describe("The token's rate limit; everything the daemon sends shares it"),
  context: z
    .string()
    .min(1)
    .max(64)
    .default("energy2mqtt")
    .describe("Sent with each setting change, for the portal's log"),
  page_size: integer()
    .pipe(z.number().min(1).max(5000))
    .default(100)
    .describe("Items per page when reading lists and history"),
  timeout: durationBetween(SECOND, 10 * MINUTE, 30_000)
    .default(30_000)
    .describe(
      "How long one request may take (1s to 10m: 0 would wait for ever, and a change is read back only after its write timed out)",
    ),
});

const TLS_FILES = ["ca", "cert", "key"] as const;

export const mqttConfig = z
  .strictObject({
    /** Left out: the embedded broker. */
    url: url(["mqtt:", "mqtts:", "ws:", "wss:"])
      .optional()
      .describe("The broker (mqtt://, mqtts://, ws:// or wss://); left out, the embedded broker on 127.0.0.1:1883"),
    username: z
      .string()
      .optional()
      .describe("Broker user name; without `url`, the embedded broker then refuses clients that do not give it"),
    password: z.string().optional().describe("Broker password; best as `!secret` or the environment"),
    client_id: z.string().min(1).max(64).optional().describe("MQTT client id; a random one when left out"),
    base_topic: topic.default("energy2mqtt").describe("First level of every topic the daemon publishes"),
    ca: z
      .string()
      .min(1)
      .optional()
      .describe(
        "TLS (mqtts:// or wss://): the CA certificate file (PEM) that signed the broker's certificate, when the system does not trust it; relative to the configuration file",
      ),
    cert: z
      .string()
      .min(1)
      .optional()
      .describe("TLS: a client certificate file (PEM), for a broker that asks for one; needs `key`"),
    key: z.string().min(1).optional().describe("TLS: the client certificate's private key file (PEM); needs `cert`"),
    reject_unauthorized: boolean()
      .default(true)
      .describe("TLS: refuse a broker whose certificate is not trusted or not for its host name; false only to test"),
  })
  .superRefine((mqtt, ctx) => {
    if ((mqtt.cert === undefined) !== (mqtt.key === undefined)) {
      const missing = mqtt.cert === undefined ? "cert" : "key";
      ctx.addIssue({
        code: "custom",
        path: [missing],
        message: `a client certificate needs both cert and key; ${missing} is missing`,
      });
    }
    const tls: string[] = TLS_FILES.filter((name) => mqtt[name] !== undefined);
    if (!mqtt.reject_unauthorized) tls.push("reject_unauthorized");
    const protocol = mqtt.url === undefined ? undefined : new URL(mqtt.url).protocol;
    if (tls.length > 0 && protocol !== "mqtts:" && protocol !== "wss:") {
      ctx.addIssue({
        code: "custom",
        path: [tls[0] ?? "url"],
        message:
          mqtt.url === undefined
            ? "is for TLS, and the embedded broker has none: set url to your broker's mqtts:// or wss:// address, or remove it"
            : "is for TLS: use an mqtts:// (or wss://) url, or remove it",
      });
    }
    if (mqtt.password !== undefined && mqtt.username === undefined) {
      ctx.addIssue({ code: "custom", path: ["username"], message: "a password needs a user name: set username too" });
    }
  });

export const homeAssistantConfig = z.strictObject({
  discovery: boolean().default(true).describe("Publish Home Assistant MQTT discovery configs"),
  discovery_prefix: topic.default("homeassistant").describe("Home Assistant's discovery prefix"),
  status_topic: topic
    .default("homeassistant/status")
    .describe("Where Home Assistant announces `online`; discovery is sent again then"),
  naming: z
    .enum(["own", "givtcp"], { error: "must be own or givtcp" })
    .default("own")
    .describe(
      "`givtcp` also announces each inverter's entities under GivTCP's entity IDs (`select.givtcp_<serial>_mode`...), as Predbat's GivTCP template and GivTCP's users expect (docs/from-givtcp.md); the daemon's own entities stay beside them",
    ),
  stale_after: durationBetween(MINUTE, 24 * HOUR, 600_000)
    .default(600_000)
    .describe(
      "A device whose last values are older than this shows unavailable in Home Assistant until fresh ones come (never sooner than twice its poll interval)",
    ),
});

/**
 * Polls run from 1s (0 or less would poll in a tight loop and spend the shared rate budget on
 * nothing new) to 24h (beyond that a value is no longer live, and Node's timers overflow at 24.8 days).
 */
const pollEvery = (fallback: number, what: string) =>
  durationBetween(SECOND, 24 * HOUR, fallback)
    .default(fallback)
    .describe(`${what} (faster spends the shared rate budget on nothing new; slower is no longer live)`);

export const pollConfig = z.strictObject({
  inverter: pollEvery(60_000, "Live inverter and battery data"),
  meter: pollEvery(300_000, "Energy totals (kWh)"),
  ems: pollEvery(60_000, "Energy management system data"),
  ev_charger: pollEvery(30_000, "EV charger status and meter"),
  events: pollEvery(300_000, "Inverter fault events"),
  smart_device: pollEvery(300_000, "Smart device data"),
  local: durationBetween(SECOND, 24 * HOUR, 10_000)
    .default(10_000)
    .describe(
      "Live data read from the dongles on the LAN with `source: local`, and with `source: auto` while a device is on its dongle (no rate limit; a dongle answers in a second)",
    ),
  /** How often the account's device lists are read again, to find new and removed devices. */
  inventory: durationBetween(SECOND, 7 * 24 * HOUR, 1_800_000)
    .default(1_800_000)
    .describe(
      "The account's device lists, to find new and removed devices (each refresh reads every list; a new device should show within the week)",
    ),
});

/** A duration that may also be given in days, as retention periods are: "90d". */
const longDuration = z.preprocess((value) => {
  const days = typeof value === "string" ? /^\s*(\d+(?:\.\d+)?)\s*d\s*$/.exec(value) : null;
  return days ? `${Number(days[1]) * 24}h` : value;
}, duration);

const retentionRule = z.strictObject({
  /** Rows older than this are deleted; left out: kept for ever. */
  keep: longDuration.optional(),
  /** Rows older than this are merged to one per half hour. */
  downsample_after: longDuration.optional(),
});

export const storeConfig = z.strictObject({
  path: z
    .string()
    .min(1)
    .default("data/energy2mqtt.db")
    .describe("The SQLite file for history, the audit log and the rules' restore promises"),
  /** Per history kind; a kind left out keeps everything at full resolution. */
  retention: z
    .partialRecord(z.enum(HISTORY_KINDS), retentionRule)
    .default({})
    .superRefine((rules, ctx) => {
      for (const [kind, rule] of Object.entries(rules)) {
        if (rule?.downsample_after !== undefined && !(DOWNSAMPLED_KINDS as readonly string[]).includes(kind)) {
          ctx.addIssue({
            code: "custom",
            path: [kind, "downsample_after"],
            message: `${kind} is not downsampled; downsample_after applies to ${DOWNSAMPLED_KINDS.join(", ")}`,
          });
        }
        if (rule?.keep !== undefined && rule.downsample_after !== undefined && rule.keep <= rule.downsample_after) {
          ctx.addIssue({
            code: "custom",
            path: [kind, "keep"],
            message: "keep must be longer than downsample_after, or nothing is left to downsample",
          });
        }
      }
    })
    .describe(
      "Per history kind (e.g. inverter.point): `keep` (delete older rows) and `downsample_after` (merge older rows to one per half hour), as durations such as 90d; left out, everything is kept",
    ),
});

export const logConfig = z.strictObject({
  level: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .default("info")
    .describe("How much the daemon logs"),
  format: z
    .enum(["auto", "pretty", "json"])
    .default("auto")
    .describe(
      "`pretty`: one readable line per event (time, level, message, fields); `json`: one JSON object per line, for log collectors; `auto`: pretty on a terminal, JSON otherwise (the add-on sets pretty)",
    ),
});

/** Addresses that only this machine reaches: the page may be served there without a token. */
const LOOPBACK = /^(127(\.\d{1,3}){3}|::1|localhost)$/;

export const webConfig = z
  .strictObject({
    enabled: boolean().default(true).describe("Serve the web page (live flows, plan, history, changes, health)"),
    host: z
      .string()
      .min(1)
      .default("127.0.0.1")
      .describe("The address the page is served on; anything but loopback needs web.token"),
    port: integer()
      .pipe(z.number().min(0).max(65_535))
      .default(8099)
      .describe("The page's port; when it is taken the next free one is used, and the log says which"),
    token: z
      .string()
      .min(16, "must be at least 16 characters")
      .optional()
      .describe("Required when web.host is not loopback: the browser sends it as a Bearer token or ?token="),
    ingress: boolean()
      .default(false)
      .describe(
        "Behind Home Assistant's ingress (the add-on sets it): only the Supervisor's address 172.30.32.2 is answered, and it authenticates",
      ),
  })
  .superRefine((web, ctx) => {
    if (web.enabled && !web.ingress && !LOOPBACK.test(web.host) && web.token === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["token"],
        message: `web.host is ${web.host}, reachable from other machines: set web.token (16 characters or more) or bind to 127.0.0.1`,
      });
  });

/**
 * GivTCP's REST API for Predbat (docs/givtcp-rest.md): off unless the block is set. Each
 * stand-alone inverter answers on a port of its own, as GivTCP does.
 */
export const givtcpRestConfig = z.strictObject({
  host: z
    .string()
    .min(1)
    .default("127.0.0.1")
    .describe(
      "The address GivTCP's REST API is served on; it takes changes without a token, so keep it on loopback or a trusted network",
    ),
  port: integer()
    .pipe(z.number().min(0).max(65_535))
    .default(6345)
    .describe(
      "The first inverter's port, as GivTCP's 6345: the second stand-alone inverter (in serial order) answers on port+1, and so on; 0 takes free ports",
    ),
  ports: z
    .record(
      z.string().regex(/^[A-Za-z0-9]+$/, "an inverter's serial: letters and digits only"),
      integer().pipe(z.number().min(1).max(65_535)),
    )
    .default({})
    .describe("A port per inverter serial, for an inverter whose port must not follow the serial order"),
});

/** The built-in demo house, which runs when no cloud is configured. */
export const demoConfig = z.strictObject({
  start: isoInstant
    .optional()
    .describe(
      "Show the demo house from this instant on (ISO 8601 with its offset), e.g. a sunny midday at night; the daemon's clock runs from it. Ignored when cloud.url is set",
    ),
});

/**
 * 400 writes per device per day by default. People fear for an EMS's flash at about 1,000 a day
 * (Predbat #4053, #4232: some 30k a month); this stays 2.5 times below that. The optimiser's busy
 * Agile day on the demo house writes 232 values (each half-hour window sets a preset's slot and
 * puts it back: test/rules/engine/optimise-day.test.ts), so 400 leaves it below the 80% warning
 * with room for a person's changes; 100 would refuse its windows from about 08:00.
 */
const DEFAULT_WRITE_BUDGET = 400;

/** How the daemon changes devices. */
export const controlConfig = z.strictObject({
  write_budget: integer()
    .pipe(
      z
        .number()
        .min(1, "must be at least 1 write per device per day")
        .max(100_000, "must be at most 100000 writes per device per day"),
    )
    .default(DEFAULT_WRITE_BUDGET)
    .describe(
      "Writes per device per local day (a setting is one, a preset one per value it sends; EV charger commands do not count). At 80% a warning goes to bridge/logging; at 100% further changes are refused until local midnight, except the restores that put the house back",
    ),
});

/** One inverter's (or EMS's, or gateway's) Wi-Fi/LAN dongle, read over its local protocol. */
export const localDongleConfig = z.strictObject({
  host: z.string().min(1).describe("The dongle's LAN address or name"),
  port: integer().pipe(z.number().min(1).max(65_535)).default(8899).describe("The dongle's TCP port"),
  passive: boolean()
    .default(false)
    .describe(
      "Only listen: decode the answers the dongle sends to another client that already polls it (two clients asking at once confuse some dongles)",
    ),
  gap_ms: integer()
    .pipe(z.number().min(0).max(5_000))
    .default(DONGLE_GAP_MS)
    .describe(
      `Least time between two frames sent to the dongle, ms (${DONGLE_GAP_MS}, plus up to 100 at random): a real dongle drops frames that come faster, so raise it if the log shows timeouts and lower it only for one that keeps up (the simulator's does)`,
    ),
});

/** The paths live data comes by: the cloud, the dongles on the LAN, or each device's dongle with the cloud as fallback. */
export const SOURCES = ["cloud", "local", "auto"] as const;

const source = z.preprocess(
  (value) => (typeof value === "string" ? value.trim().toLowerCase() : value),
  z.enum(SOURCES, { error: "must be cloud, local or auto" }),
);

/** One device's own choice of path, by its serial (inverter, EMS or gateway). */
export const deviceConfig = z.strictObject({
  source: source.describe(
    "This device's path with `source: auto`: `local` (its dongle only), `cloud` (the cloud only) or `auto` (its dongle, the cloud when the dongle does not answer)",
  ),
});

/** How `source: auto` moves a device between its dongle and the cloud. */
export const autoConfig = z.strictObject({
  failback: durationBetween(10 * SECOND, 24 * HOUR, 300_000)
    .default(300_000)
    .describe(
      "With `source: auto`, how long a device's dongle must answer every poll before its live data and control move back to it from the cloud (no flapping)",
    ),
});

/** An EV charger's Modbus TCP registers, once "Enable Local Control" is on in the vendor's portal. */
export const evChargerModbusConfig = z.strictObject({
  host: z.string().min(1).describe("The charger's LAN address or name"),
  port: integer().pipe(z.number().min(1).max(65_535)).default(502).describe("Its Modbus TCP port"),
  unit_id: integer().pipe(z.number().min(0).max(255)).default(1).describe("Its Modbus unit id"),
});

/** An EV charger the daemon reaches on the LAN (Modbus), or names without the cloud (source: local). */
export const evChargerConfig = z.strictObject({
  serial: z
    .string()
    .regex(/^[A-Za-z0-9]+$/, "the charger's serial: letters and digits only")
    .describe("The charger's serial, as on its label and in the cloud's list: what pairs it with OCPP and the cloud"),
  uuid: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, "the charger's id as the cloud lists it: letters, digits and -")
    .optional()
    .describe(
      "With `source: local`: the charger's id as the cloud listed it (its entities' unique_ids are `energy2mqtt_<uuid>_...`), so that Home Assistant keeps the same entities; left out, they are the serial's",
    ),
  alias: z.string().min(1).optional().describe("With `source: local`: the charger's name in Home Assistant"),
  modbus: evChargerModbusConfig
    .optional()
    .describe(
      "Read and command the charger over Modbus TCP (`{host, port, unit_id}`; with `source: local` or `auto`; off when left out): status, power, energy, current limits and session energy; writes only the current limit, start and stop, each read back. Chargers are reported to revert local writes, so OCPP is the reliable path: with both, OCPP carries the charger while its charge point is connected",
    ),
});

/** A charge point's identity: the last part of its URL, as OCPP's identifier strings allow. */
const CHARGE_POINT_ID = /^[A-Za-z0-9*\-_=:+|@.]{1,48}$/;

/** One EV charge point allowed to connect to the OCPP central system. */
export const ocppChargePointConfig = z.strictObject({
  id: z
    .string()
    .regex(
      CHARGE_POINT_ID,
      "must be the charge point's identity as it puts it at the end of its URL: 1 to 48 letters, digits or * - _ = : + | @ .",
    )
    .describe("The charge point's identity, the last part of the URL it connects to (`ws://<host>:<port>/<id>`)"),
  password: z
    .string()
    .min(8, "must be at least 8 characters (the charge point sends it with HTTP Basic auth)")
    .describe("The password the charge point sends with HTTP Basic auth (OCPP security profile 1); best as `!secret`"),
  charger: z
    .string()
    .min(1)
    .optional()
    .describe(
      "The EV charger this charge point is, by its serial as the cloud lists it: with `source: auto` its status, meter and sessions come over OCPP while it is connected, over the cloud otherwise",
    ),
});

export const ocppConfig = z
  .strictObject({
    enabled: boolean()
      .default(false)
      .describe("Run the OCPP 1.6J central system that EV charge points connect to (off by default)"),
    host: z
      .string()
      .min(1)
      .default("127.0.0.1")
      .describe("The address the central system listens on; 0.0.0.0 for charge points on the LAN"),
    port: integer()
      .pipe(z.number().min(1).max(65_535))
      .default(9000)
      .describe("The central system's port: charge points connect to `ws://<host>:<port>/<id>` (`wss://` with tls)"),
    charge_points: z
      .array(ocppChargePointConfig)
      .default([])
      .describe("The charge points allowed to connect, each `{id, password}`; any other is refused (401)"),
    authorisation: z
      .strictObject({
        policy: z
          .enum(["accept_all", "id_tags"], { error: "must be accept_all or id_tags" })
          .default("accept_all")
          .describe("Who may charge: `accept_all` (any RFID card or app), or `id_tags` (only those listed)"),
        id_tags: z
          .array(z.string().min(1).max(20, "an OCPP 1.6 idTag is at most 20 characters"))
          .default([])
          .describe("With `policy: id_tags`: the RFID tags (idTag) that may start a charge"),
      })
      .default({ policy: "accept_all", id_tags: [] })
      .describe("Which idTags Authorize and StartTransaction accept"),
    tls: z
      .strictObject({
        cert_file: z
          .string({ error: "TLS needs both files: set cert_file to the server certificate (PEM)" })
          .min(1)
          .describe("The server certificate (PEM), relative to the configuration file"),
        key_file: z
          .string({ error: "TLS needs both files: set key_file to the certificate's private key (PEM)" })
          .min(1)
          .describe("Its private key (PEM), relative to the configuration file"),
      })
      .optional()
      .describe(
        "TLS (wss://, OCPP security profile 2): `{cert_file, key_file}`; left out, plain ws:// with Basic auth (profile 1)",
      ),
    heartbeat: durationBetween(10 * SECOND, 24 * HOUR, 60_000)
      .default(60_000)
      .describe("The heartbeat interval the charge points are told at boot (BootNotification)"),
  })
  .superRefine((ocpp, ctx) => {
    const seen = new Set<string>();
    ocpp.charge_points.forEach((cp, index) => {
      if (seen.has(cp.id))
        ctx.addIssue({
          code: "custom",
          path: ["charge_points", index, "id"],
          message: `${cp.id} is listed twice: give each charge point one entry`,
        });
      seen.add(cp.id);
    });
    if (ocpp.enabled && ocpp.charge_points.length === 0)
      ctx.addIssue({
        code: "custom",
        path: ["charge_points"],
        message:
          "ocpp.enabled is true but no charge point is listed: add charge_points: [{ id: <its identity>, password: <8+ characters> }]",
      });
    if (ocpp.authorisation.policy === "id_tags" && ocpp.authorisation.id_tags.length === 0)
      ctx.addIssue({
        code: "custom",
        path: ["authorisation", "id_tags"],
        message: "policy is id_tags but none is listed: add the RFID tags that may charge, or set policy: accept_all",
      });
  });

/** What the daemon does about a device's clock (docs/clock.md). */
export const clockConfig = z.strictObject({
  sync: z
    .enum(["auto", "warn", "off"])
    .optional()
    .describe(
      "What to do when an inverter's or EMS's clock is more than a minute off, or the zone's GMT/BST change comes: `auto` sets it (over the LAN, through the control gate, audited, at most once a day per device besides the zone's changes, and only while the daemon's own clock is trusted), `warn` only warns on bridge/logging and the web page's Now, and raises its Clock problem entity, `off` does neither. Left out: `auto` for a device on the LAN (since the vendor's portal stopped moving clocks, nothing else will), `warn` for one on the cloud alone (which cannot set a clock)",
    ),
});

/** The whole configuration: one schema, every section optional with defaults. */
export const configSchema = z
  .strictObject({
    cloud: cloudConfig.default(cloudConfig.parse({})),
    mqtt: mqttConfig.default(mqttConfig.parse({})),
    homeassistant: homeAssistantConfig.default(homeAssistantConfig.parse({})),
    poll: pollConfig.default(pollConfig.parse({})),
    store: storeConfig.default(storeConfig.parse({})),
    rules: z.string().min(1).optional().describe("The tariff rules file (rules.yaml), relative to this file"),
    dry_run: boolean()
      .default(false)
      .describe(
        "Rules only log and publish what they would do; nothing is written (Home Assistant's own commands still apply)",
      ),
    log: logConfig.default(logConfig.parse({})),
    web: webConfig.default(webConfig.parse({})),
    givtcp_rest: givtcpRestConfig
      .optional()
      .describe("GivTCP's REST API (readData and its writes) for Predbat, through the control gate; off unless set"),
    demo: demoConfig.default(demoConfig.parse({})),
    control: controlConfig.default(controlConfig.parse({})),
    clock: clockConfig.default(clockConfig.parse({})),
    local: z
      .array(localDongleConfig)
      .default([])
      .describe(
        "The dongles on the LAN, each `{host, port, passive, gap_ms}`: read and written with `source: local` or `auto` (a passive one only listens), and reported by `check`",
      ),
    timezone: z
      .string()
      .refine(isTimeZone, "not a time zone Intl knows: use an IANA name like Europe/London")
      .default("Europe/London")
      .describe(
        "The house's time zone (an IANA name such as Europe/London): with `source: local` it sets the days of the history, the counters' day and the rules' default zone (the LAN does not tell it, and the machine's own zone is never used); with `source: cloud` the account's zone is used instead",
      ),
    source: source
      .default("cloud")
      .describe(
        "Where live data comes from: `cloud` (the vendor's API), `local` (the dongles under `local`, no cloud needed: live data and changes over the LAN) or `auto` (each device's dongle while it answers, the cloud otherwise, for live data and changes; the cloud still gives history, EV chargers, smart devices and the account)",
      ),
    devices: z
      .record(z.string().regex(/^[A-Za-z0-9]+$/, "a device serial: letters and digits only"), deviceConfig)
      .default({})
      .describe("Per device, by serial: `{source}` to pin one device to a path with `source: auto`"),
    auto: autoConfig.default(autoConfig.parse({})),
    ocpp: ocppConfig.default(ocppConfig.parse({})),
    ev_chargers: z
      .array(evChargerConfig)
      .default([])
      .describe(
        "EV chargers by serial, each `{serial, uuid, alias, modbus}`: their Modbus link, and with `source: local` the chargers the house has (with OCPP's `charge_points[].charger` naming the same serial)",
      ),
  })
  .superRefine((config, ctx) => {
    if (config.source !== "cloud" && config.local.length === 0)
      ctx.addIssue({
        code: "custom",
        path: ["local"],
        message: `source is ${config.source} but no dongle is listed: add local: [{ host: <the dongle's address> }], or set source: cloud`,
      });
    const chargers = new Set<string>();
    config.ev_chargers.forEach((charger, index) => {
      const serial = charger.serial.toUpperCase();
      if (chargers.has(serial))
        ctx.addIssue({
          code: "custom",
          path: ["ev_chargers", index, "serial"],
          message: `${charger.serial} is listed twice: give each charger one entry`,
        });
      chargers.add(serial);
      const onOcpp = config.ocpp.charge_points.some((cp) => cp.charger?.toUpperCase() === serial);
      if (config.source === "local" && !charger.modbus && !(config.ocpp.enabled && onOcpp))
        ctx.addIssue({
          code: "custom",
          path: ["ev_chargers", index],
          message: `with source: local ${charger.serial} needs a path of its own: give it modbus: { host: <its address> }, or name it in an enabled ocpp.charge_points[].charger`,
        });
      if (charger.modbus && config.source === "cloud")
        ctx.addIssue({
          code: "custom",
          path: ["ev_chargers", index, "modbus"],
          message: "is read over the LAN, which source: cloud does not use: set source: local or auto, or remove it",
        });
    });
    for (const [serial, device] of Object.entries(config.devices)) {
      if (config.source !== "auto" && device.source !== config.source)
        ctx.addIssue({
          code: "custom",
          path: ["devices", serial, "source"],
          message: `is ${device.source} but source is ${config.source}: a device picks its own path only with source: auto (set source: auto, or remove this line)`,
        });
    }
  });

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;
