import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findMosquitto, freePort, stopChild, waitForPort } from "./broker.js";

export interface SecureBroker {
  readonly url: string;
  /** With `tls`: the CA certificate that signed the broker's, as a file. */
  readonly caFile?: string;
  stop(): Promise<void>;
}

export interface SecureBrokerOptions {
  /** user name to password: the broker refuses anyone else. */
  readonly users?: Readonly<Record<string, string>>;
  /** A TLS listener with a certificate for 127.0.0.1 signed by a CA made for the test. */
  readonly tls?: boolean;
}

/** Whether openssl can be run here (the TLS tests make their certificates with it). */
export function hasOpenssl(): boolean {
  return !spawnSync("openssl", ["version"], { stdio: "ignore" }).error;
}

/** A mosquitto with a password file and/or a TLS listener, on a free port. Needs the binary. */
export async function startSecureBroker(options: SecureBrokerOptions): Promise<SecureBroker> {
  const binary = findMosquitto();
  if (!binary) throw new Error("these tests need the mosquitto binary (Debian's mosquitto package)");
  const dir = mkdtempSync(join(tmpdir(), "e2m-secure-broker-"));
  const port = await freePort();
  const lines = [`listener ${port} 127.0.0.1`, "persistence false", "log_dest stderr", "log_type error"];
  // Run as root, mosquitto would drop to its own user, who cannot read this test's files.
  if (process.getuid?.() === 0) lines.push("user root");
  if (options.users) {
    const file = join(dir, "passwords");
    writeFileSync(file, "");
    for (const [user, password] of Object.entries(options.users)) run("mosquitto_passwd", ["-b", file, user, password]);
    lines.push("allow_anonymous false", `password_file ${file}`);
  } else {
    lines.push("allow_anonymous true");
  }
  let caFile: string | undefined;
  if (options.tls) {
    caFile = makeCertificates(dir);
    lines.push(`cafile ${caFile}`, `certfile ${join(dir, "server.crt")}`, `keyfile ${join(dir, "server.key")}`);
  }
  const config = join(dir, "mosquitto.conf");
  writeFileSync(config, `${lines.join("\n")}\n`);
  const child = spawn(binary, ["-c", config], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await waitForPort(port, child, () => stderr);
  return {
    url: `${options.tls ? "mqtts" : "mqtt"}://127.0.0.1:${port}`,
    ...(caFile ? { caFile } : {}),
    stop: async () => {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A CA and a server certificate for 127.0.0.1 signed by it (EC keys: quick to make). */
function makeCertificates(dir: string): string {
  const at = (name: string) => join(dir, name);
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  run("openssl", [
    "req",
    "-x509",
    ...ec,
    "-keyout",
    at("ca.key"),
    "-out",
    at("ca.crt"),
    "-days",
    "2",
    "-subj",
    "/CN=e2m test CA",
  ]);
  run("openssl", ["req", ...ec, "-keyout", at("server.key"), "-out", at("server.csr"), "-subj", "/CN=127.0.0.1"]);
  writeFileSync(at("san.cnf"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  run("openssl", [
    "x509",
    "-req",
    "-in",
    at("server.csr"),
    "-CA",
    at("ca.crt"),
    "-CAkey",
    at("ca.key"),
    "-CAcreateserial",
    "-out",
    at("server.crt"),
    "-days",
    "2",
    "-extfile",
    at("san.cnf"),
  ]);
  return at("ca.crt");
}

function run(command: string, args: readonly string[]): void {
  const result = spawnSync(command, [...args], { encoding: "utf8" });
  if (result.error || result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed: ${result.error?.message ?? result.stderr}`);
}
