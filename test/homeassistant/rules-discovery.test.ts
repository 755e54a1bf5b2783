import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EntityDef } from "../../src/homeassistant/entities/index.js";
import type { RuleStatus } from "../../src/rules-runtime/rules.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { sensorProblems } from "./entities/rules.js";
import { baseTopic, FakeRuntime, ManualClock, ORIGIN, retainedUnder, startBridge } from "./rules-harness.js";

const NOW = Date.parse("2026-01-15T12:10:00Z");
const RULES: RuleStatus[] = [
  {
    name: "overnight-top-up",
    enabled: true,
    dryRun: false,
    priority: 10,
    nextWindow: {
      start: Date.parse("2026-01-16T01:00:00Z"),
      end: Date.parse("2026-01-16T04:00:00Z"),
      readable: ["Timed charge to 100% 01:00–04:00 on the default inverter"],
    },
  },
  {
    name: "sunday-snapshot",
    enabled: false,
    dryRun: true,
    priority: 0,
    lastRun: { at: Date.parse("2026-01-11T03:00:00Z"), ok: true, message: "snapshot taken" },
  },
];

let broker: TestBroker;
beforeAll(async () => {
  broker = await startTestBroker();
});
afterAll(async () => {
  await broker.stop();
});

const prices = () => ({ import: 0.245, export: 0.15 });

async function setup(base = baseTopic()) {
  const clock = new ManualClock(NOW);
  const runtime = new FakeRuntime(structuredClone(RULES), prices, clock);
  const harness = await startBridge(broker, base);
  await harness.bridge.attachRules(runtime, { clock });
  return { ...harness, runtime, clock, base, prefix: `${base}-ha`, node: `${base}_rules` };
}

const payloadOf = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;

describe("rules in Home Assistant: discovery", () => {
  it("publishes a switch, a button and the tariff sensors exactly so, on one rules device", async () => {
    const { observer, stop } = await setup("energy2mqtt");
    try {
      const config = async (component: string, key: string) =>
        (await observer.waitFor((m) => m.topic === `energy2mqtt-ha/${component}/energy2mqtt_rules/${key}/config`))
          .payload;
      const availability = [
        {
          topic: "energy2mqtt/bridge/state",
          value_template: "{{ value_json.state }}",
          payload_available: "online",
          payload_not_available: "offline",
        },
        { topic: "energy2mqtt/rules/availability", payload_available: "online", payload_not_available: "offline" },
      ];
      const device = {
        identifiers: ["energy2mqtt_rules"],
        name: "energy2mqtt rules",
        manufacturer: "energy2mqtt",
        model: "Tariff rules",
        sw_version: "0.1.0",
      };
      const tail = { availability, availability_mode: "all", device, origin: ORIGIN };

      expect(await config("switch", "enabled_overnight-top-up")).toBe(
        JSON.stringify({
          name: "overnight-top-up",
          unique_id: "energy2mqtt_rules_enabled_overnight-top-up",
          default_entity_id: "switch.energy2mqtt_rules_overnight_top_up",
          icon: "mdi:script-text-outline",
          state_topic: "energy2mqtt/rules",
          value_template: "{{ value_json['enabled_overnight-top-up'] | default(none) }}",
          json_attributes_topic: "energy2mqtt/rules",
          json_attributes_template: "{{ value_json.rules['overnight-top-up'] | tojson }}",
          command_topic: "energy2mqtt/rules/set/enabled_overnight-top-up",
          payload_on: "ON",
          payload_off: "OFF",
          state_on: "ON",
          state_off: "OFF",
          ...tail,
        }),
      );
      expect(await config("button", "run_overnight-top-up")).toBe(
        JSON.stringify({
          name: "Run overnight-top-up",
          unique_id: "energy2mqtt_rules_run_overnight-top-up",
          default_entity_id: "button.energy2mqtt_rules_run_overnight_top_up",
          icon: "mdi:play-circle-outline",
          command_topic: "energy2mqtt/rules/set/run_overnight-top-up",
          payload_press: "PRESS",
          ...tail,
        }),
      );
      expect(await config("sensor", "import_price")).toBe(
        JSON.stringify({
          name: "Import price",
          unique_id: "energy2mqtt_rules_import_price",
          default_entity_id: "sensor.energy2mqtt_rules_import_price",
          unit_of_measurement: "GBP/kWh",
          state_class: "measurement",
          icon: "mdi:cash-minus",
          suggested_display_precision: 4,
          state_topic: "energy2mqtt/rules",
          value_template: "{{ value_json['import_price'] | default(none) }}",
          ...tail,
        }),
      );
      expect(await config("sensor", "next_cheap_window_start")).toBe(
        JSON.stringify({
          name: "Next cheap window",
          unique_id: "energy2mqtt_rules_next_cheap_window_start",
          default_entity_id: "sensor.energy2mqtt_rules_next_cheap_window_start",
          device_class: "timestamp",
          icon: "mdi:clock-start",
          state_topic: "energy2mqtt/rules",
          value_template: "{{ value_json['next_cheap_window_start'] | default(none) }}",
          json_attributes_topic: "energy2mqtt/rules",
          json_attributes_template:
            "{{ {'end': value_json.next_cheap_window_end, 'price': value_json.next_cheap_window_price} | tojson }}",
          ...tail,
        }),
      );
      expect(await config("sensor", "today_cost")).toBe(
        JSON.stringify({
          name: "Today's cost",
          unique_id: "energy2mqtt_rules_today_cost",
          default_entity_id: "sensor.energy2mqtt_rules_today_cost",
          device_class: "monetary",
          unit_of_measurement: "GBP",
          state_class: "total",
          suggested_display_precision: 2,
          state_topic: "energy2mqtt/rules",
          value_template: "{{ value_json['today_cost'] | default(none) }}",
          last_reset_value_template: "{{ value_json['today_cost_last_reset'] | default('', true) }}",
          availability: [
            ...availability,
            {
              topic: "energy2mqtt/rules/cost/availability",
              payload_available: "online",
              payload_not_available: "offline",
            },
          ],
          availability_mode: "all",
          device,
          origin: ORIGIN,
        }),
      );
      expect(await config("sensor", "saved_month_vs_eco_only")).toBe(
        JSON.stringify({
          name: "Saved this month vs eco only",
          unique_id: "energy2mqtt_rules_saved_month_vs_eco_only",
          default_entity_id: "sensor.energy2mqtt_rules_saved_month_vs_eco_only",
          device_class: "monetary",
          unit_of_measurement: "GBP",
          state_class: "total",
          icon: "mdi:piggy-bank-outline",
          suggested_display_precision: 2,
          state_topic: "energy2mqtt/rules",
          value_template: "{{ value_json['saved_month_vs_eco_only'] | default(none) }}",
          last_reset_value_template: "{{ value_json['saved_month_last_reset'] | default('', true) }}",
          json_attributes_topic: "energy2mqtt/rules",
          json_attributes_template:
            "{{ {'prices': value_json.saved_month_prices, 'estimated_half_hours': value_json.saved_month_estimated_half_hours, 'unpriced_half_hours': value_json.saved_month_unpriced_half_hours} | tojson }}",
          ...tail,
        }),
      );
      const retained = await retainedUnder(broker.url, "energy2mqtt-ha/#");
      expect([...retained.keys()].sort()).toEqual(
        [
          "button/energy2mqtt_rules/run_overnight-top-up",
          "button/energy2mqtt_rules/run_sunday-snapshot",
          "sensor/energy2mqtt_rules/export_price",
          "sensor/energy2mqtt_rules/import_price",
          "sensor/energy2mqtt_rules/next_cheap_window_end",
          "sensor/energy2mqtt_rules/next_cheap_window_start",
          "sensor/energy2mqtt_rules/saved_month_vs_eco_only",
          "sensor/energy2mqtt_rules/saved_month_vs_no_battery",
          "sensor/energy2mqtt_rules/saved_yesterday_vs_eco_only",
          "sensor/energy2mqtt_rules/saved_yesterday_vs_no_battery",
          "sensor/energy2mqtt_rules/today_cost",
          "switch/energy2mqtt_rules/enabled_overnight-top-up",
          "switch/energy2mqtt_rules/enabled_sunday-snapshot",
        ].map((path) => `energy2mqtt-ha/${path}/config`),
      );
    } finally {
      await stop();
    }
  });

  it("gives every sensor a device class, unit and state class Home Assistant accepts", async () => {
    const { observer, prefix, node, stop } = await setup();
    try {
      await observer.waitFor((m) => m.topic === `${prefix}/sensor/${node}/today_cost/config`);
      const sensors = observer.messages
        .filter((m) => m.topic.startsWith(`${prefix}/sensor/`))
        .map((m) => payloadOf(m.payload));
      expect(sensors.map((s) => s.name).sort()).toEqual([
        "Export price",
        "Import price",
        "Next cheap window",
        "Next cheap window end",
        "Saved this month vs eco only",
        "Saved this month vs no battery",
        "Saved yesterday vs eco only",
        "Saved yesterday vs no battery",
        "Today's cost",
      ]);
      for (const sensor of sensors) {
        const shape = {
          device_class: sensor.device_class as string | undefined,
          unit: sensor.unit_of_measurement as string | undefined,
          state_class: sensor.state_class as EntityDef["state_class"],
        };
        expect({ name: sensor.name, problems: sensorProblems(shape) }).toEqual({ name: sensor.name, problems: [] });
      }
      // The fixture is what keeps prices off "monetary": that class allows no measurement.
      expect(sensorProblems({ device_class: "monetary", unit: "GBP/kWh", state_class: "measurement" })).not.toEqual([]);
    } finally {
      await stop();
    }
  });

  it("publishes the state: switches, rule attributes, prices and the next cheap window", async () => {
    const { observer, base, stop } = await setup();
    try {
      const state = await observer.waitFor((m) => m.topic === `${base}/rules`);
      expect((await retainedUnder(broker.url, `${base}/#`)).get(`${base}/rules`)).toBe(state.payload);
      expect(payloadOf(state.payload)).toEqual({
        import_price: 0.245,
        export_price: 0.15,
        currency: "GBP",
        next_cheap_window_start: null,
        next_cheap_window_end: null,
        next_cheap_window_price: null,
        today_cost: null,
        today_cost_last_reset: null,
        saved_yesterday_vs_no_battery: null,
        saved_yesterday_vs_eco_only: null,
        saved_yesterday_last_reset: null,
        saved_yesterday_prices: null,
        saved_yesterday_estimated_half_hours: null,
        saved_yesterday_unpriced_half_hours: null,
        saved_month_vs_no_battery: null,
        saved_month_vs_eco_only: null,
        saved_month_last_reset: null,
        saved_month_prices: null,
        saved_month_estimated_half_hours: null,
        saved_month_unpriced_half_hours: null,
        "enabled_overnight-top-up": "ON",
        "enabled_sunday-snapshot": "OFF",
        rules: {
          "overnight-top-up": {
            enabled: true,
            dry_run: false,
            priority: 10,
            next_window_start: "2026-01-16T01:00:00.000Z",
            next_window_end: "2026-01-16T04:00:00.000Z",
            last_run_at: null,
            last_run_ok: null,
            last_run_message: null,
            plan_action: null,
            plan_reason: null,
            plan_slot_start: null,
            import_guard: null,
            import_guard_since: null,
          },
          "sunday-snapshot": {
            enabled: false,
            dry_run: true,
            priority: 0,
            next_window_start: null,
            next_window_end: null,
            last_run_at: "2026-01-11T03:00:00.000Z",
            last_run_ok: true,
            last_run_message: "snapshot taken",
            plan_action: null,
            plan_reason: null,
            plan_slot_start: null,
            import_guard: null,
            import_guard_since: null,
          },
        },
      });
      expect((await observer.waitFor((m) => m.topic === `${base}/rules/availability`)).payload).toBe("online");
      // Nothing counted yet: today's cost is unavailable, not 0.
      expect((await observer.waitFor((m) => m.topic === `${base}/rules/cost/availability`)).payload).toBe("offline");
    } finally {
      await stop();
    }
  });

  it("re-publishes the prices when they change, and every half hour", async () => {
    const { observer, runtime, clock, base, seen, flush, stop } = await setup();
    try {
      await observer.waitFor((m) => m.topic === `${base}/rules`);
      runtime.priceAt = () => ({ import: 0.085, export: 0.15 });
      runtime.window = {
        start: Date.parse("2026-01-16T01:30:00Z"),
        end: Date.parse("2026-01-16T03:00:00Z"),
        price: 0.0712,
      };
      await clock.tick();
      const changed = await observer.waitFor(
        (m) => m.topic === `${base}/rules` && payloadOf(m.payload).import_price === 0.085,
      );
      expect(payloadOf(changed.payload)).toMatchObject({
        next_cheap_window_start: "2026-01-16T01:30:00.000Z",
        next_cheap_window_end: "2026-01-16T03:00:00.000Z",
        next_cheap_window_price: 0.0712,
      });
      const states = (from: number) => observer.messages.slice(from).filter((m) => m.topic === `${base}/rules`);

      const quiet = observer.messages.length;
      await clock.tick(); // same prices, same half hour
      await flush();
      expect(states(quiet)).toEqual([]);

      const mark = observer.messages.length;
      clock.at = Date.parse("2026-01-15T12:30:00Z");
      await clock.tick(); // a new half hour: published again though nothing changed
      await seen(mark, (m) => m.topic === `${base}/rules`);
      await flush();
      expect(states(mark).map((m) => m.payload)).toEqual([changed.payload]);
    } finally {
      await stop();
    }
  });

  it("publishes everything again when Home Assistant comes online", async () => {
    const { observer, prefix, node, base, seen, stop } = await setup();
    try {
      const switchTopic = `${prefix}/switch/${node}/enabled_overnight-top-up/config`;
      const first = await observer.waitFor((m) => m.topic === switchTopic);
      await observer.waitFor((m) => m.topic === `${base}/rules`);
      const mark = observer.messages.length;
      await observer.publish(`${prefix}/status`, "online");
      expect((await seen(mark, (m) => m.topic === switchTopic)).payload).toBe(first.payload);
      await seen(mark, (m) => m.topic === `${prefix}/sensor/${node}/today_cost/config`);
      await seen(mark, (m) => m.topic === `${base}/rules`);
    } finally {
      await stop();
    }
  });

  it("publishes the rules' configs once when the rules start before the devices' first round is in", async () => {
    const base = baseTopic();
    const prefix = `${base}-ha`;
    const clock = new ManualClock(NOW);
    const harness = await startBridge(broker, base, { holdFirstRound: true });
    try {
      await harness.bridge.attachRules(new FakeRuntime(structuredClone(RULES), prices, clock), { clock });
      await harness.flush();
      const isConfig = (topic: string) => topic.startsWith(`${prefix}/`) && topic.endsWith("/config");
      expect(harness.observer.messages.filter((m) => isConfig(m.topic))).toEqual([]);
      await harness.firstRound();
      await harness.flush();
      const configs = harness.observer.messages.filter((m) => isConfig(m.topic)).map((m) => m.topic);
      expect(configs).toContain(`${prefix}/switch/${base}_rules/enabled_overnight-top-up/config`);
      expect(configs.length).toBe(new Set(configs).size);
    } finally {
      await harness.stop();
    }
  });

  it("removes the switch and button of a rule that went away, and keeps the others", async () => {
    const { observer, runtime, clock, prefix, node, flush, stop } = await setup();
    try {
      await observer.waitFor((m) => m.topic === `${prefix}/button/${node}/run_sunday-snapshot/config`);
      await flush(); // the bridge has seen its own configs come back
      runtime.rules = runtime.rules.filter((rule) => rule.name !== "sunday-snapshot");
      await clock.tick();
      await flush();
      const emptied = observer.messages.filter((m) => m.payload === "").map((m) => m.topic);
      expect(emptied.sort()).toEqual([
        `${prefix}/button/${node}/run_sunday-snapshot/config`,
        `${prefix}/switch/${node}/enabled_sunday-snapshot/config`,
      ]);
      const retained = [...(await retainedUnder(broker.url, `${prefix}/#`)).keys()];
      expect(retained.filter((topic) => topic.includes("sunday-snapshot"))).toEqual([]);
      expect(retained).toContain(`${prefix}/switch/${node}/enabled_overnight-top-up/config`);
    } finally {
      await stop();
    }
  });

  it("removes the entities of a rule deleted from rules.yaml while the daemon was down", async () => {
    const base = baseTopic();
    const prefix = `${base}-ha`;
    const node = `${base}_rules`;
    const first = await setup(base);
    await first.observer.waitFor((m) => m.topic === `${prefix}/button/${node}/run_sunday-snapshot/config`);
    await first.stop();

    const clock = new ManualClock(NOW);
    const runtime = new FakeRuntime(structuredClone(RULES).slice(0, 1), prices, clock);
    const second = await startBridge(broker, base);
    try {
      await second.bridge.attachRules(runtime, { clock });
      await second.observer.waitFor(
        (m) => m.topic === `${prefix}/switch/${node}/enabled_sunday-snapshot/config` && m.payload === "",
      );
      await second.observer.waitFor(
        (m) => m.topic === `${prefix}/button/${node}/run_sunday-snapshot/config` && m.payload === "",
      );
      await second.flush();
      const emptied = second.observer.messages.filter((m) => m.payload === "").map((m) => m.topic);
      expect(emptied.sort()).toEqual([
        `${prefix}/button/${node}/run_sunday-snapshot/config`,
        `${prefix}/switch/${node}/enabled_sunday-snapshot/config`,
      ]);
    } finally {
      await second.stop();
    }
  });
});
