import { setFlagsFromString } from "node:v8";

/**
 * V8 settings for the daemon, which idles between polls and never runs hot code for long:
 * - a young generation that stays at its initial size (loading the modules would grow it):
 *   about 8 MB less resident memory for a few more, cheap, scavenges;
 * - no optimising compiler (baseline code only): the optimiser's working memory, allocated on
 *   V8's worker threads and kept by malloc afterwards, is another 10 to 14 MB;
 * - V8 sized for memory rather than speed (--optimize-for-size): with a fleet of a thousand
 *   inverters, resident memory after the announcement stays near 200 MB instead of 450 to 650
 *   (bench fleet), for a heap of about 115 MB either way.
 * Must run before the modules load. Bulk commands (archive, export) keep the defaults.
 */
export function tuneV8ForDaemon(): void {
  setFlagsFromString("--semi-space-growth-factor=1");
  setFlagsFromString("--max-opt=1");
  setFlagsFromString("--optimize-for-size");
}
