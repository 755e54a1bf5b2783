import { readFile } from "node:fs/promises";
import type { HalfHourSample } from "../../optimiser/index.js";
import { sensorHalfHours } from "./home-assistant-sensor.js";
import { ForecastError } from "./http.js";

/** A Home Assistant sensor's forecast written to a file (its state object, or its attributes), as half-hour kWh. */
export function homeAssistantHalfHours(body: unknown): HalfHourSample[] {
  try {
    return sensorHalfHours(body);
  } catch (error) {
    throw new ForecastError(`home-assistant-file: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function readHomeAssistantFile(
  file: string,
  options: { readonly beforeRequest: () => void },
): Promise<HalfHourSample[]> {
  options.beforeRequest();
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new ForecastError(
      `home-assistant-file: cannot read ${file} (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ForecastError(`home-assistant-file: ${file} is not JSON`);
  }
  return homeAssistantHalfHours(body);
}
