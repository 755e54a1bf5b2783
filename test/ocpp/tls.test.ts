import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RPCClient } from "ocpp-rpc";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { hasOpenssl } from "../helpers/secure-broker.js";
import { CHARGE_POINTS, chargePoint, type Harness, startHarness } from "./helpers.js";

const [CP1] = CHARGE_POINTS;
const dir = mkdtempSync(join(tmpdir(), "e2m-ocpp-tls-"));
let harness: Harness | undefined;
const clients: RPCClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close({ force: true });
  await harness?.stop();
  harness = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A self-signed certificate for 127.0.0.1, made for this test (node's crypto cannot make one). */
function selfSigned(): { cert: string; key: string } {
  const run = spawnSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
      "-days",
      "2",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ],
    { stdio: "pipe", encoding: "utf8" },
  );
  if (run.status !== 0) throw new Error(`openssl failed: ${run.stderr}`);
  return { cert: readFileSync(join(dir, "cert.pem"), "utf8"), key: readFileSync(join(dir, "key.pem"), "utf8") };
}

describe.skipIf(!hasOpenssl())("the OCPP central system over TLS (security profile 2)", () => {
  it("accepts a charge point on wss:// that trusts its certificate, with Basic auth, and refuses a wrong password", async () => {
    const tls = selfSigned();
    harness = await startHarness({ tls });
    const cp = chargePoint(harness.central.port, CP1.id, CP1.password, { ca: tls.cert });
    clients.push(cp);
    await cp.connect();
    expect(
      await cp.call("BootNotification", { chargePointVendor: "Acme", chargePointModel: "Wallbox 7" }),
    ).toMatchObject({
      status: "Accepted",
    });

    const wrong = chargePoint(harness.central.port, CP1.id, "not-the-password", { ca: tls.cert });
    clients.push(wrong);
    await expect(wrong.connect()).rejects.toMatchObject({ code: 401 });

    // A client that does not trust the certificate never gets as far as the upgrade.
    const untrusting = chargePoint(harness.central.port, "CP2", "cp2-password", {});
    clients.push(untrusting);
    await expect(untrusting.connect()).rejects.toThrow(/self-signed certificate/);
    expect(harness.central.connected("CP2")).toBe(false);
    expect(harness.logText()).not.toContain("not-the-password");
  });
});
