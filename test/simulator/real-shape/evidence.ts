import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The real responses: bodies of the real service and of its official documentation. */
export const EVIDENCE_DIR = new URL("../../fixtures/real-responses/", import.meta.url);

export interface Evidence {
  readonly file: string;
  /** "METHOD /path/{}": the file's endpoint with its parameter names left out, so that files name it alike. */
  readonly endpoint: string;
  readonly response: unknown;
}

export function readEvidence(): Evidence[] {
  if (!existsSync(EVIDENCE_DIR)) {
    throw new Error(
      `the real responses are missing: expected them in ${fileURLToPath(EVIDENCE_DIR)} (test/fixtures/real-responses, copied from the team's evidence)`,
    );
  }
  return readdirSync(EVIDENCE_DIR)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((file) => {
      const parsed = JSON.parse(readFileSync(new URL(file, EVIDENCE_DIR), "utf8")) as {
        endpoint: string;
        response: unknown;
      };
      return { file, endpoint: parsed.endpoint.replace(/\{[^}]+\}/g, "{}"), response: parsed.response };
    });
}

/** Bodies captured from the service or pasted from it, as opposed to the documentation's examples. */
export const isReal = (file: string): boolean => file.startsWith("avasapollo_") || file.startsWith("predbat_");
