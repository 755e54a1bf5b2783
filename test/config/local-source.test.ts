import { describe, expect, it } from "vitest";
import { configSchema } from "../../src/config/index.js";

describe("the local dongles and the source in the configuration", () => {
  it("reads a dongle's host with port 8899 and active polling by default; source stays cloud", () => {
    const config = configSchema.parse({
      local: [{ host: "dongle.lan" }, { host: "10.0.0.9", port: "9000", passive: "true" }],
    });
    expect(config.local).toEqual([
      { host: "dongle.lan", port: 8899, passive: false, gap_ms: 250 },
      { host: "10.0.0.9", port: 9000, passive: true, gap_ms: 250 },
    ]);
    expect(config.source).toBe("cloud");
    expect(config.poll.local).toBe(10_000);
  });

  it("takes source: local with dongles, and polls them at poll.local", () => {
    const config = configSchema.parse({ source: "local", local: [{ host: "dongle.lan" }], poll: { local: "5s" } });
    expect(config.source).toBe("local");
    expect(config.poll.local).toBe(5_000);
  });

  it("takes source: auto with dongles, a failback of 5 minutes by default, and a path per device", () => {
    const config = configSchema.parse({
      source: "auto",
      local: [{ host: "dongle.lan" }],
      devices: { SD2024G001: { source: "local" }, EM2024E001: { source: "Cloud" } },
      auto: { failback: "2m" },
    });
    expect(config.source).toBe("auto");
    expect(config.auto.failback).toBe(120_000);
    expect(config.devices).toEqual({ SD2024G001: { source: "local" }, EM2024E001: { source: "cloud" } });
    expect(configSchema.parse({ source: "auto", local: [{ host: "d" }] }).auto.failback).toBe(300_000);
  });

  it("refuses a device's own path without source: auto, an unknown path, and auto with no dongle, saying what to fix", () => {
    const mixed = configSchema.safeParse({ local: [{ host: "d" }], devices: { SD2024G001: { source: "local" } } });
    expect(mixed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["devices.SD2024G001.source", expect.stringContaining("a device picks its own path only with source: auto")],
    ]);
    const unknown = configSchema.safeParse({
      source: "auto",
      local: [{ host: "d" }],
      devices: { X1: { source: "lan" } },
    });
    expect(unknown.error?.issues[0]?.path).toEqual(["devices", "X1", "source"]);
    expect(unknown.error?.issues[0]?.message).toBe("must be cloud, local or auto");
    const bad = configSchema.safeParse({ source: "sometimes" });
    expect(bad.error?.issues[0]?.message).toBe("must be cloud, local or auto");
    const none = configSchema.safeParse({ source: "auto" });
    expect(none.error?.issues.map((issue) => issue.message)).toEqual([
      expect.stringContaining("source is auto but no dongle is listed"),
    ]);
    const short = configSchema.safeParse({ source: "auto", local: [{ host: "d" }], auto: { failback: "1s" } });
    expect(short.error?.issues[0]?.path).toEqual(["auto", "failback"]);
  });

  it("refuses source: local with no dongle listed, and a dongle without a host or with a bad port", () => {
    const none = configSchema.safeParse({ source: "local" });
    expect(none.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["local", expect.stringContaining("no dongle is listed")],
    ]);
    expect(configSchema.safeParse({ local: [{ port: 8899 }] }).error?.issues[0]?.path).toEqual(["local", 0, "host"]);
    expect(configSchema.safeParse({ local: [{ host: "d", port: 70_000 }] }).error?.issues[0]?.path).toEqual([
      "local",
      0,
      "port",
    ]);
    expect(configSchema.safeParse({ local: [{ host: "d", extra: 1 }] }).success).toBe(false);
  });

  it("paces frames to a dongle 250 ms apart unless gap_ms says otherwise, and refuses a gap out of 0-5000 ms", () => {
    expect(configSchema.parse({ local: [{ host: "d" }] }).local[0]?.gap_ms).toBe(250);
    expect(configSchema.parse({ local: [{ host: "d", gap_ms: "400" }] }).local[0]?.gap_ms).toBe(400);
    for (const gap of [-1, 5_001, "soon"]) {
      const bad = configSchema.safeParse({ local: [{ host: "d", gap_ms: gap }] });
      expect(bad.error?.issues[0]?.path).toEqual(["local", 0, "gap_ms"]);
    }
  });

  it("takes the house's time zone from timezone, Europe/London when left out, and refuses a zone Intl does not know", () => {
    expect(configSchema.parse({}).timezone).toBe("Europe/London");
    expect(configSchema.parse({ timezone: "Pacific/Kiritimati" }).timezone).toBe("Pacific/Kiritimati");
    const bad = configSchema.safeParse({ timezone: "Mars/Olympus" });
    expect(bad.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["timezone", expect.stringContaining("use an IANA name like Europe/London")],
    ]);
  });
});
