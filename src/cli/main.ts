import { Command, CommanderError, Option } from "commander";
import { commands, SET_USAGE } from "../commands/index.js";
import { ConfigError } from "../config/index.js";

// Each command's module is loaded when the command runs: the daemon never pays the memory for
// the archive, the export or the rules preview.

/** Exit codes: 0 ok, 1 runtime failure, 2 bad usage or configuration. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

export async function main(argv: readonly string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram(
    (code) => {
      exitCode = code;
    },
    await packageVersion(),
  );
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here too, with exit code 0.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
}

/** The commander program, built without running: `main` parses with it, the CLI reference reads it. */
export function buildProgram(setExitCode: (code: number) => void, version: string): Command {
  const program = new Command("energy2mqtt")
    .description("Your home's inverter, battery and EV charger in Home Assistant over MQTT.")
    .version(version, "-V, --version")
    .exitOverride()
    .showHelpAfterError("(run energy2mqtt --help for the commands)");

  const rules = program
    .command("rules")
    .description("tariff rules: `rules plan` shows what would run, `rules savings` what the battery saved");
  rules
    .command("plan")
    .description("the next hours: prices, planned windows and actions per rule, expected battery SoC")
    .option(
      "-c, --config <file>",
      "configuration file naming the rules file (its `rules:` key); naming none, with no cloud, the demo house's own (config/rules.demo.yaml)",
    )
    .option("-r, --rules <file>", "a rules file instead of the configuration's")
    .option("--hours <n>", "how many hours ahead", "48")
    .option("--out <file.svg>", "also write the plan as an SVG image")
    .option(
      "--soc <percent>",
      "battery state of charge now (default: the live SoC of the daemon running this configuration, the Plan page's; else the inverter's from the configured cloud; else 50)",
    )
    .option(
      "--capacity <kwh>",
      "battery capacity when rules.yaml has no battery.capacity_kwh (default: the running daemon's, else the inverter's; else 9.5)",
    )
    .option("--now <iso>", "plan as if it were this time, e.g. 2026-11-22T16:00:00Z")
    .option(
      "--car-plugged",
      "plan an optimise rule's car as plugged in now, nothing delivered yet (default: the car as the running daemon knows it; else none)",
    )
    .option("--car-need-kwh <kwh>", "the kWh the car still needs by its `by` time (implies --car-plugged)")
    .option("--car-soc <percent>", "the car's own SoC now, for a `soc:` target (implies --car-plugged)")
    .option("--json", "print the optimise rules' half-hours with their reasons as JSON instead of the table")
    .action(async (options: Record<string, string | undefined> & { json?: boolean; carPlugged?: boolean }) => {
      setExitCode(await (await commands.rulesPlan()).runRulesPlanCommand(options));
    });
  rules
    .command("savings")
    .description(
      "per day and month: the cost metered in the store against the same house with no battery and in eco only",
    )
    .option("-c, --config <file>", "configuration file naming the rules file and the store")
    .option("-r, --rules <file>", "a rules file instead of the configuration's")
    .option("--from <date>", "first day, YYYY-MM-DD (default: the first of --to's month)")
    .option("--to <date>", "last day, YYYY-MM-DD (default: today)")
    .option("--capacity <kwh>", "battery capacity when rules.yaml has no battery.capacity_kwh (default 9.5)")
    .option(
      "--inverter <serials...>",
      "those inverters' own savings (one's, or a plant's summed) from their own counters, as History shows them: no standing charge, no eco-only figure",
    )
    .option("--json", "print the days and months as JSON")
    .action(async (options: Record<string, string | boolean | string[] | undefined>) => {
      setExitCode(await (await commands.rulesSavings()).runRulesSavingsCommand(options));
    });

  program
    .command("backtest")
    .description(
      "replay the store's own half-hours: what happened, no battery, eco only, the rules file (every rule, run by the rules engine), the optimiser and the exact optimum, per tariff",
    )
    .option("-c, --config <file>", "configuration file naming the rules file and the store")
    .option(
      "-r, --rules <file>",
      "a rules file instead of the configuration's (its tariffs, battery and rules: the rules policy replays all of them)",
    )
    .option("--store <file>", "the store to read instead of the configuration's store.path")
    .option("--from <date>", "first day, YYYY-MM-DD (default: a year before --to, or the store's first day)")
    .option("--to <date>", "last day, YYYY-MM-DD (default: yesterday)")
    .option(
      "--tariff <name:product[+export]>",
      "also an Octopus product by code, e.g. agile:AGILE-24-10-01+AGILE-OUTGOING-19-05-13 or go:GO-VAR-22-10-14 (repeat for more; needs --region)",
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option("--region <letter>", "the Octopus region of --tariff's products (the letter ending your tariff code)")
    .option("--battery-kwh <kwh>", "battery capacity (default: the rules file's battery.capacity_kwh, else 9.5)")
    .option("--by <period>", "rows per day, month or the whole range", "month")
    .option(
      "--policies <list>",
      `which policies, comma-separated (default all: ${"actual,no-battery,eco-only,rules,optimiser,exact-optimum"})`,
    )
    .option("--octopus-url <url>", "the Octopus API's base URL (default https://api.octopus.energy)")
    .option("--json", "print the result as JSON (src/backtest/result.ts)")
    .action(async (options: Record<string, string | string[] | boolean | undefined>) => {
      setExitCode(await (await commands.backtest()).runBacktestCommand(options));
    });

  program
    .command("run")
    .description(
      "run the daemon: the cloud to Home Assistant over MQTT (embedded simulator and broker when unconfigured)",
    )
    .option("-c, --config <file>", "configuration file (default config/configuration.yaml, else embedded defaults)")
    .action(async (options: { config?: string }) => {
      setExitCode(await (await commands.run()).runDaemonCommand({ ...options, version }));
    });

  program
    .command("health")
    .description("exit 0 when the daemon's status file is fresh, else say why (the image's HEALTHCHECK)")
    .option("--file <file>", "the status file (default ENERGY2MQTT_HEALTH_FILE, else health.json next to store.path)")
    .option("--max-age <duration>", "how old the status may be", "90s")
    .option("-c, --config <file>", "configuration file, to find store.path")
    .action(async (options: { file?: string; maxAge?: string; config?: string }) => {
      setExitCode(await (await commands.health()).runHealthCommand(options));
    });

  program
    .command("simulate")
    .description("serve a simulated cloud with a plausible house; prints the base URL and a token per actor")
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--port <port>", "port to listen on; 0 picks a free one", "8787")
    .option("--speed <x>", "run the simulated clock x times faster", "1")
    .option("--seed <n>", "seed for a repeatable run", "1")
    .option(
      "--scenario <name|file>",
      "demo, hybrid, ac-coupled, aio, gateway, three-phase, plant-ems, fleet:N, or a scenario YAML file",
      "demo",
    )
    .option("--requests-per-minute <n>", "the global rate limit per token (default 300)")
    .option("--start <instant>", "simulated time at start-up, ISO 8601 with its offset (default: now)")
    .option(
      "--local-port <port>",
      "also open a dongle per inverter, EMS and gateway speaking the local protocol, each on its own port from this one on; 0 picks free ones",
    )
    .option("--json", "print one JSON line {url, tokens} (and dongles, with --local-port) when ready")
    .action(async (options: Record<string, string | boolean | undefined>) => {
      setExitCode(
        await (await commands.simulate()).runSimulateCommand({
          host: String(options.host),
          port: String(options.port),
          speed: String(options.speed),
          seed: String(options.seed),
          scenario: String(options.scenario),
          ...(options.requestsPerMinute ? { requestsPerMinute: String(options.requestsPerMinute) } : {}),
          ...(options.start ? { start: String(options.start) } : {}),
          ...(options.localPort === undefined ? {} : { localPort: String(options.localPort) }),
          json: options.json === true,
        }),
      );
    });

  program
    .command("check")
    .description(
      "check a configuration file and the cloud token, list what the account has, and end with what works and what is missing",
    )
    .option("-c, --config <file>", "configuration file (default config/configuration.yaml, else embedded defaults)")
    .action(async (options: { config?: string }) => {
      setExitCode(await (await commands.check()).runCheckCommand(options));
    });

  program
    .command("set")
    .description("change a setting, a preset or an EV charger through the control gate (recorded in the audit log)")
    .argument("<device>", "inverter serial, or EV charger uuid")
    .argument("<target>", "a setting id, `preset` or `ev`")
    .argument("[args...]", "VALUE; or IDENTIFIER JSON for a preset; or COMMAND [JSON] for an EV command")
    .option("-c, --config <file>", "configuration file (cloud.url, cloud.token and store.path)")
    .addHelpText(
      "after",
      `\n${SET_USAGE}\n\nexamples:\n  energy2mqtt set SD2024G001 71 30\n  energy2mqtt set SD2024G001 preset timed-charge '{"enabled":true,"slots":[{"start_time":"01:00","end_time":"04:30","percent_limit":90}]}'\n  energy2mqtt set 6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11 ev change-mode '{"mode":"Eco"}'`,
    )
    .action(async (device: string, target: string, args: string[], options: { config?: string }) => {
      setExitCode(await (await commands.set()).runSetCommand({ device, target, args, ...options }));
    });

  const settings = program
    .command("settings")
    .description(
      "each device's settings: `settings backup` to a YAML file, `settings restore` puts a file's back through the control gate",
    );
  settings
    .command("backup")
    .description(
      "every readable setting of each device (over the path the configuration uses: the cloud or the LAN) to a YAML file, with its serial, model, firmware and the time",
    )
    .option("--device <serial>", "only this device (default: every inverter, gateway and EMS with settings)")
    .option("--out <file>", "write to this file, whole or not at all (default: stdout)")
    .option("-c, --config <file>", "configuration file (the cloud or the dongles under local:, and store.path)")
    .action(async (options: { device?: string; out?: string; config?: string }) => {
      setExitCode(await (await commands.settingsBackup()).runSettingsBackupCommand(options));
    });
  settings
    .command("restore")
    .description(
      "show the differences between a backup file and each device, then, once confirmed, write the allowlisted settings that differ through the control gate (audited as settings-restore)",
    )
    .argument("<file>", "a file `settings backup` wrote")
    .option("--device <serial>", "only this device of the file")
    .option("--yes", "write without asking (needed when there is no terminal to ask on)")
    .option("-c, --config <file>", "configuration file (the cloud or the dongles under local:, and store.path)")
    .addHelpText(
      "after",
      "\nOnly a setting the device offers over its path (over the LAN: on the model's allowlist), in its range and different from the device's value is written, one at a time and read back; every other is listed with the reason and never sent. Exit 0 done or nothing to do, 1 a write failed or a setting could not be read, 2 a bad file or not confirmed.",
    )
    .action(async (file: string, options: { device?: string; yes?: boolean; config?: string }) => {
      setExitCode(await (await commands.settingsRestore()).runSettingsRestoreCommand({ file, ...options }));
    });

  program
    .command("archive")
    .description("copy the account's whole history into the local store; resumes where it stopped")
    .option("-c, --config <file>", "configuration file (cloud.url, cloud.token and store.path)")
    .option("--from <date>", "first day to copy, YYYY-MM-DD (default: each device's commission date)")
    .option("--to <date>", "last day to copy, YYYY-MM-DD (default: today)")
    .option("--only <kind>", "copy only these kinds, separated by commas (see the help text)")
    .addHelpText(
      "after",
      "\nkinds: inverter.point, flow.half_hour, flow.day, inverter.event, ev.session, ev.meter, smart.data",
    )
    .action(async (options: { config?: string; from?: string; to?: string; only?: string }) => {
      setExitCode(await (await commands.archive()).runArchiveCommand(options));
    });

  program
    .command("export")
    .description("export stored history of one kind as CSV or JSON, columns named with their units")
    .option("--kind <kind>", "what to export (required): inverter.point, flow.half_hour, ev.meter, ...")
    .option("--device <id>", "one inverter serial, or charger / smart device uuid")
    .option("--from <date>", "YYYY-MM-DD (a UTC day) or a time with its zone, e.g. 2025-06-01T10:00:00Z")
    .option("--to <date>", "YYYY-MM-DD (that UTC day included) or a time with its zone (excluded)")
    .option("--format <format>", "csv (a header row) or json (one array of objects)", "csv")
    .option(
      "--out <file>",
      "write to a file instead of stdout, whole or not at all (an earlier file stays until the new one is complete)",
    )
    .option("-c, --config <file>", "configuration file (store.path)")
    .action(async (options: Record<string, string | undefined>) => {
      setExitCode(await (await commands.export()).runExportCommand(options));
    });

  program
    .command("history")
    .description("summarise what the local store holds: first, last, count and gaps per device and kind")
    .option("-c, --config <file>", "configuration file (store.path)")
    .action(async (options: { config?: string }) => {
      setExitCode(await (await commands.history()).runHistoryCommand(options));
    });

  const local = program
    .command("local")
    .description(
      "the dongle's local protocol (TCP 8899): `local scan` finds the dongles on the LAN, `local decode` reads captures",
    );
  local
    .command("scan")
    .description(
      "find the dongles on the LAN: try each address on the dongles' port, read each one's device, and print the `local:` lines to paste",
    )
    .option(
      "--subnet <cidr>",
      "the IPv4 subnet to try, /16 or narrower, e.g. 192.168.1.0/24 (default: this machine's own subnets, each at most its /24)",
    )
    .option("--ports <list>", "the dongles' TCP ports, separated by commas", "8899")
    .option(
      "--modbus-ports <list>",
      "ports where a Modbus TCP server (an EV charger with local control?) is only reported; none to skip",
      "502",
    )
    .option("--timeout <ms>", "how long one connection may take to open", "500")
    .option(
      "--json",
      'print one JSON object: {"subnets", "ports", "modbus_ports", "addresses", "dongles", "silent", "modbus", "local"}',
    )
    .addHelpText(
      "after",
      "\nOnly the addresses of --subnet (else of this machine's own subnets) are contacted, and only when you run it.\nExit 0 when a dongle answered, 1 when none did.",
    )
    .action(async (options: Record<string, string | boolean | undefined>) => {
      setExitCode(
        await (await commands.localScan()).runLocalScanCommand({
          ...(typeof options.subnet === "string" ? { subnet: options.subnet } : {}),
          ...(typeof options.ports === "string" ? { ports: options.ports } : {}),
          ...(typeof options.modbusPorts === "string" ? { modbusPorts: options.modbusPorts } : {}),
          ...(typeof options.timeout === "string" ? { timeout: options.timeout } : {}),
          json: options.json === true,
        }),
      );
    });
  local
    .command("decode")
    .description("decode dongle captures: frames by kind, and each device's serial, model and last state")
    .argument("<files...>", "capture files, lines `<time> rx|tx <hex>` or `rx: <hex>`")
    .option("--json", 'print one JSON object a file: {"file", "frames", "skipped", "devices"}')
    .action(async (files: string[], options: { json?: boolean }) => {
      setExitCode(await (await commands.localDecode()).runLocalDecodeCommand({ files, json: options.json === true }));
    });

  program
    .command("api")
    .description("call any cloud API endpoint through the client and print the JSON, like `gh api`")
    .argument("<method>", "GET, POST, PUT or DELETE")
    .argument("<path>", "path below the base URL, e.g. /account or /inverter/SA1/presets")
    .option("-d, --data <json>", "JSON request body")
    .option("-c, --config <file>", "configuration file (cloud.url and cloud.token)")
    .addOption(new Option("--include", "print the HTTP status and rate headers to stderr"))
    .option(
      "--raw",
      "send a write as is, past the control gate: no validation and no read-back; still recorded in the audit log as raw:METHOD PATH",
    )
    .addHelpText(
      "after",
      "\nReads are sent as they are. A write (POST, PUT, DELETE) to a setting, a preset, an EV charger command, a snapshot or a notification goes through the control gate: checked against the device's rules, read back, and recorded in the audit log as the CLI's. Any other write is refused unless --raw is given.",
    )
    .action(
      async (
        method: string,
        path: string,
        options: { data?: string; config?: string; include?: boolean; raw?: boolean },
      ) => {
        setExitCode(await (await commands.api()).runApiCommand({ method, path, ...options }));
      },
    );

  return program;
}

async function packageVersion(): Promise<string> {
  const { readFile } = await import("node:fs/promises");
  const url = new URL("../../package.json", import.meta.url);
  const parsed: unknown = JSON.parse(await readFile(url, "utf8"));
  const version = (parsed as { version?: unknown }).version;
  return typeof version === "string" ? version : "0.0.0";
}
