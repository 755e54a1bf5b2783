import { once } from "node:events";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { runCheckCommand } from "../../src/commands/check.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { capture } from "../helpers/capture.js";
import { type DaemonProcess, killDaemon, startDaemonProcess } from "../helpers/daemon-process.js";
import { startTestSimulator } from "../helpers/simulator.js";

const TARIFFS = ["tariffs:", "  import: { type: fixed, price: 0.25 }"];
const zones = (hours: string) => [
  "tariffs:",
  "  import:",
  "    type: zones",
  "    price: 0.27",
  "    zones:",
  `      - { hours: "${hours}", price: 0.085 }`,
];

/**
 * Broken rules files, each with a piece of the message both commands must give: what the schema
 * refuses, and what only the account's devices can refuse.
 */
const BROKEN: Readonly<Record<string, { lines: readonly string[]; says: string }>> = {
  "a cron rule naming window.start": {
    lines: [
      ...TARIFFS,
      "rules:",
      "  - name: discharge-at-dawn",
      '    when: { cron: "59 7 * * *" }',
      "    do:",
      "      - preset: timed-discharge",
      '        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}" }] }',
    ],
    says: 'rules.0.do.0.with.slots.0.start_time: rule "discharge-at-dawn" uses {{ window.start }}, but its cron trigger has no window',
  },
  "a state rule naming window.hours in a notification": {
    lines: [
      ...TARIFFS,
      "rules:",
      "  - name: sunny",
      "    when: { pv_power_above: 2000 }",
      '    do: [{ notify: { title: "The sun is out today", body: "for {{ window.hours }} hours, probably" } }]',
    ],
    says: 'rules.0.do.0.notify.body: rule "sunny" uses {{ window.hours }}, but its pv_power_above trigger has no window',
  },
  "zone hours of three minutes": {
    lines: zones("08:01-08:04"),
    says: 'tariffs.import.zones.0.hours: "08:01-08:04" is not on the tariff\'s half-hour grid (prices change only at :00 and :30): use 08:00-08:30',
  },
  "zone hours of two minutes": {
    lines: zones("20:00-20:02"),
    says: 'tariffs.import.zones.0.hours: "20:00-20:02" is not on the tariff\'s half-hour grid (prices change only at :00 and :30): use 20:00-20:30',
  },
  "a cron that is not one": {
    lines: [
      ...TARIFFS,
      "rules:",
      "  - name: night",
      '    when: { cron: "not a cron" }',
      "    do: [{ snapshot: take }]",
    ],
    says: 'rules.0.when.cron: "not a cron" is not a cron expression',
  },
  "a setting value the device refuses": {
    lines: [
      ...TARIFFS,
      "rules:",
      "  - name: reserve-high",
      '    when: { cron: "0 3 * * *" }',
      "    do:",
      "      - setting: 71",
      "        value: 101",
    ],
    says: "rules.0.do.0.value: Battery Reserve % Limit must be between 4 and 100",
  },
  "a preset field the device refuses": {
    lines: [
      ...TARIFFS,
      "rules:",
      "  - name: reserve-low",
      '    when: { cron: "0 3 * * *" }',
      "    do: [{ preset: battery-operating-range, with: { reserve_percent: 2 } }]",
    ],
    says: "rules.0.do.0.with: reserve_percent must be",
  },
  "a setting the inverter does not list": {
    lines: [
      ...TARIFFS,
      "rules:",
      "  - name: no-such",
      '    when: { cron: "0 3 * * *" }',
      "    do: [{ setting: 9999, value: 1 }]",
    ],
    says: "rules.0.do.0.setting: inverter SD2024G001 lists no setting 9999",
  },
};

/** `check` in-process and `run` as a child process, on the same configuration and rules file. */
describe("check and run agree on broken rules files", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let broker: TestBroker;
  let daemon: DaemonProcess | undefined;

  beforeAll(async () => {
    sim = await startTestSimulator({ speed: 0, start: Date.UTC(2025, 5, 15, 11, 0, 0), requestsPerMinute: 100_000 });
    broker = await startTestBroker();
  });
  afterAll(async () => {
    await broker?.stop();
    await sim?.stop();
  });
  beforeEach(() => {
    for (const key of ["CONFIG", "CLOUD_URL", "CLOUD_TOKEN", "MQTT_URL"]) vi.stubEnv(`ENERGY2MQTT_${key}`, "");
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    killDaemon(daemon);
    if (daemon) rmSync(daemon.dir, { recursive: true, force: true });
    daemon = undefined;
  });

  it.each(Object.entries(BROKEN))("%s: both refuse it with the same message, exit 2", async (_name, broken) => {
    const yaml = [
      "cloud:",
      `  url: ${sim.simulator.url}`,
      `  token: ${sim.simulator.tokens.owner}`,
      "  requests_per_minute: 10000",
      "mqtt:",
      `  url: ${broker.url}`,
      "store:",
      "  path: DIR/e2m.db",
      "rules: rules.yaml",
      "log:",
      "  level: silent",
      "",
    ].join("\n");
    daemon = startDaemonProcess(yaml, { "rules.yaml": `${broken.lines.join("\n")}\n` });
    const [runCode] = (await once(daemon.child, "close")) as [number | null];

    const out = capture();
    const err = capture();
    const checkCode = await runCheckCommand({ config: join(daemon.dir, "configuration.yaml") }, out.stream, err.stream);
    const message = err.text().trimEnd();

    expect(checkCode).toBe(2);
    expect(message).toContain(`${join(daemon.dir, "rules.yaml")}:`);
    expect(message).toContain(broken.says);
    expect(runCode).toBe(2);
    expect(daemon.stderr.join("\n")).toBe(`energy2mqtt could not start: ${message}`);
  });
});
