import { readFileSync } from "node:fs";
import { ChainDecoder, type CountKind, type DecodedDevice, readCapture, type SkipKind } from "../local/index.js";

/** The frame counts' names in the output, in the order they print. */
const FRAME_NAMES: readonly (readonly [CountKind, string])[] = [
  ["heartbeat", "heartbeat"],
  ["request", "request"],
  ["response", "response"],
  ["error", "error_response"],
  ["crc-failure", "crc_failure"],
  ["broadcast", "broadcast"],
  ["unreadable-line", "unreadable_line"],
];

export interface LocalDecodeSummary {
  readonly frames: Record<string, number>;
  readonly skipped: Record<SkipKind, number>;
  readonly devices: readonly {
    serial: string;
    model: string;
    kind: DecodedDevice["kind"];
    address: string;
    state: DecodedDevice["state"];
  }[];
}

/** One capture's text decoded: frames by kind, what the guards skipped, the devices and their last state. */
export function decodeCaptureText(text: string): LocalDecodeSummary {
  const capture = readCapture(text);
  const decoder = new ChainDecoder().acceptAll(capture.frames);
  return {
    frames: Object.fromEntries(FRAME_NAMES.map(([kind, name]) => [name, capture.counts[kind]])),
    skipped: { ...decoder.skips },
    devices: decoder.devices().map((device) => ({
      serial: device.serial,
      model: device.model,
      kind: device.kind,
      address: device.address,
      state: device.state,
    })),
  };
}

/**
 * `energy2mqtt local decode FILE... [--json]`: reads dongle captures in either line format and
 * prints, per file, the frames by kind and each device found with its serial, model and last
 * decoded state under the daemon's state keys. `--json` prints one object a file, a line each.
 */
export async function runLocalDecodeCommand(
  options: { files: readonly string[]; json?: boolean },
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const summaries: [string, LocalDecodeSummary][] = [];
  for (const file of options.files) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      const reason = error instanceof Error && "code" in error ? String(error.code) : String(error);
      err.write(`${file}: cannot read the capture (${reason}): give the path of a capture file\n`);
      return 2;
    }
    const summary = decodeCaptureText(text);
    const found = Object.entries(summary.frames).some(([name, count]) => name !== "unreadable_line" && count > 0);
    if (!found) {
      err.write(
        `${file}: no dongle frames in it: a capture has lines \`<time> rx|tx <hex>\` or \`rx: <hex>\` (frames start 59590001)\n`,
      );
      return 2;
    }
    summaries.push([file, summary]);
  }
  for (const [file, summary] of summaries) {
    if (options.json) {
      out.write(`${JSON.stringify({ file, ...summary })}\n`);
      continue;
    }
    out.write(`${describe(file, summary)}\n`);
  }
  return 0;
}

function describe(file: string, summary: LocalDecodeSummary): string {
  const lines = [file];
  lines.push(
    `  frames: ${Object.entries(summary.frames)
      .map(([name, count]) => `${name} ${count}`)
      .join(", ")}`,
  );
  const skipped = Object.entries(summary.skipped).filter(([, count]) => count > 0);
  if (skipped.length > 0) lines.push(`  skipped: ${skipped.map(([name, count]) => `${name} ${count}`).join(", ")}`);
  for (const device of summary.devices) {
    lines.push(`  ${device.kind} ${device.serial} (${device.model}) at ${device.address}`);
    for (const [key, value] of Object.entries(device.state)) lines.push(`    ${key}: ${value}`);
  }
  return lines.join("\n");
}
