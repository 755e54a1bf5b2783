import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { runCheckCommand } from "../../src/commands/check.js";
import { capture } from "../helpers/capture.js";
import { hasOpenssl, type SecureBroker, startSecureBroker } from "../helpers/secure-broker.js";

const dir = mkdtempSync(join(tmpdir(), "e2m-check-mqtt-"));

function configFile(name: string, mqtt: readonly string[]): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, ["mqtt:", ...mqtt.map((line) => `  ${line}`), "log:", "  level: silent", ""].join("\n"));
  return file;
}

async function check(file: string) {
  const out = capture();
  const err = capture();
  const code = await runCheckCommand({ config: file }, out.stream, err.stream);
  return { code, out: out.text(), err: err.text() };
}

beforeEach(() => {
  for (const key of ["CONFIG", "CLOUD_URL", "CLOUD_TOKEN", "MQTT_URL", "MQTT_USERNAME", "MQTT_PASSWORD"])
    vi.stubEnv(`ENERGY2MQTT_${key}`, "");
});
afterEach(() => {
  vi.unstubAllEnvs();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("check connects to the broker as run would, with a password file", () => {
  let broker: SecureBroker;
  beforeAll(async () => {
    broker = await startSecureBroker({ users: { e2m: "right-password" } });
  });
  afterAll(async () => {
    await broker?.stop();
  });

  it("reports the broker's acceptance with the configured credentials", async () => {
    const { code, out, err } = await check(
      configFile("good", [`url: ${broker.url}`, "username: e2m", "password: right-password"]),
    );
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toContain(`mqtt: ${broker.url}: connected as e2m (CONNACK 0, accepted)`);
  });

  it("exits 2 when the broker refuses the password, with the CONNACK reason and never the password", async () => {
    const { code, out, err } = await check(
      configFile("bad", [`url: ${broker.url}`, "username: e2m", "password: wrong-password"]),
    );
    expect(code).toBe(2);
    expect(err).toMatch(/mqtt: mqtt:\/\/127\.0\.0\.1:\d+: refused \(CONNACK 5, .*Not authorized.*check mqtt\.username/);
    expect(out).not.toContain("connected");
    expect(out + err).not.toContain("wrong-password");
  });

  it("exits 2 when the broker wants credentials and none are configured", async () => {
    const { code, err } = await check(configFile("anonymous", [`url: ${broker.url}`]));
    expect(code).toBe(2);
    expect(err).toContain("refused (CONNACK 5");
  });
});

describe.skipIf(!hasOpenssl())("check over TLS (mqtts://), with a CA made for the test by openssl", () => {
  let broker: SecureBroker;
  beforeAll(async () => {
    broker = await startSecureBroker({ tls: true });
  }, 30_000);
  afterAll(async () => {
    await broker?.stop();
  });

  it("exits 2 when the broker's certificate is not trusted, saying to set mqtt.ca", async () => {
    const { code, err } = await check(configFile("untrusted", [`url: ${broker.url}`]));
    expect(code).toBe(2);
    expect(err).toContain("the broker's certificate is not trusted");
    expect(err).toContain("set mqtt.ca");
  });

  it("connects with mqtt.ca, given relative to the configuration file", async () => {
    copyFileSync(broker.caFile ?? "", join(dir, "broker-ca.pem"));
    const { code, out, err } = await check(configFile("trusted", [`url: ${broker.url}`, "ca: broker-ca.pem"]));
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toContain(`mqtt: ${broker.url}: connected (CONNACK 0, accepted)`);
  });

  it("connects to an untrusted certificate only when told not to check it", async () => {
    const { code, out } = await check(configFile("unchecked", [`url: ${broker.url}`, "reject_unauthorized: false"]));
    expect(code).toBe(0);
    expect(out).toContain("connected (CONNACK 0, accepted)");
  });

  it("exits 2 naming the file when mqtt.ca cannot be read", async () => {
    const { code, err } = await check(configFile("missing", [`url: ${broker.url}`, "ca: nowhere.pem"]));
    expect(code).toBe(2);
    expect(err).toContain(`mqtt.ca: cannot read ${join(dir, "nowhere.pem")} (ENOENT)`);
  });

  it("refuses TLS keys with a plain mqtt:// url, or a certificate without its key, by file line and key", async () => {
    const plain = configFile("plain", ["url: mqtt://127.0.0.1:1883", "ca: broker-ca.pem"]);
    expect((await check(plain)).err).toContain(`${plain}:3: mqtt.ca: is for TLS: use an mqtts:// (or wss://) url`);
    const half = configFile("half", [`url: ${broker.url}`, "cert: client.pem"]);
    expect((await check(half)).err).toContain("mqtt.key: a client certificate needs both cert and key; key is missing");
  });
});
