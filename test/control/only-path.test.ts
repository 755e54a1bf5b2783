import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { CloudClient } from "../../src/cloud/client.js";

/**
 * The design's one rule: nothing outside control/ calls a writing endpoint of the cloud client.
 * (The client itself and the simulator, which serves the endpoints, are not callers.)
 */
const WRITES: Readonly<Record<string, readonly string[]>> = {
  inverterControl: ["modifyPreset", "writeSetting", "multiControlWrite"],
  evChargers: ["sendCommand", "startCharge", "stopCharge", "setChargePowerLimit", "setPlugAndGo", "changeMode"],
  snapshots: ["take", "restore", "delete"],
  presetProfiles: ["create", "update", "apply", "delete"],
  notifications: ["send"],
  smartDevices: ["create", "addData"],
};
const ALLOWED = ["src/control/", "src/cloud/", "src/simulator/"];
const ROOT = join(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/**
 * Each `<section>.<method>(` (or `<`, for a type argument) call of a writing method in `text`,
 * whether reached through the client (`client.snapshots.take(`) or a section held apart
 * (`const snapshots = client.snapshots; snapshots.take(`). A section renamed on the way
 * (`const s = client.snapshots`) is not seen: do not do that.
 */
function writingCalls(text: string): string[] {
  const found: string[] = [];
  for (const [section, methods] of Object.entries(WRITES)) {
    const pattern = new RegExp(`(?<![\\w$])${section}\\s*\\??\\.\\s*(${methods.join("|")})\\s*[<(]`, "g");
    for (const match of text.matchAll(pattern)) found.push(`${section}.${match[1]}`);
  }
  return found;
}

describe("control/ is the only path to a device change", () => {
  it("names only methods the client has, so a renamed one cannot slip past", () => {
    const client = new CloudClient({ baseUrl: "http://127.0.0.1:9/v1", token: "unused" });
    for (const [section, methods] of Object.entries(WRITES)) {
      const api = (client as unknown as Record<string, Record<string, unknown>>)[section];
      for (const method of methods) expect(typeof api?.[method], `${section}.${method}`).toBe("function");
    }
    client.close();
  });

  it("finds a writing call however it is spelt", () => {
    expect(writingCalls("await this.options.client.snapshots.take(serial, name)")).toEqual(["snapshots.take"]);
    expect(writingCalls("client.evChargers\n  .sendCommand<C>(uuid, command)")).toEqual(["evChargers.sendCommand"]);
    expect(writingCalls("const snapshots = client.snapshots;\nawait snapshots.restore(serial, name)")).toEqual([
      "snapshots.restore",
    ]);
    expect(writingCalls("client.snapshots.exists(serial, name)")).toEqual([]);
    expect(writingCalls("mySnapshots.take(serial)")).toEqual([]);
  });

  it("has no writing call outside control/", () => {
    const offenders = sourceFiles(join(ROOT, "src"))
      .map((file) => ({ file: relative(ROOT, file), calls: writingCalls(readFileSync(file, "utf8")) }))
      .filter(({ file, calls }) => calls.length > 0 && !ALLOWED.some((prefix) => file.startsWith(prefix)));
    expect(offenders).toEqual([]);
  });

  it("control/ does make every kind of write, so the scan looks where the writes are", () => {
    const inControl = sourceFiles(join(ROOT, "src/control")).flatMap((file) =>
      writingCalls(readFileSync(file, "utf8")),
    );
    for (const section of Object.keys(WRITES))
      expect(inControl.some((call) => call.startsWith(`${section}.`))).toBe(true);
  });
});
