import type { Read } from "../../local/index.js";
import { blockName } from "./block-health.js";
import type { DongleBlockReads } from "./dongle-block-reads.js";
import type { DongleChain } from "./dongle-chain.js";
import { type DongleOptions, whereOf } from "./dongle-options.js";
import type { DonglePairing } from "./dongle-pairing.js";
import { BCU_BANK, DETECTION_BANKS, IDENTITY, LV_BATTERY_ADDRESSES, lvPackBank, partsOf } from "./reads.js";

/** LV packs answer from 0x32 on without gaps: the first silent or refusing address ends the search. */
export async function probePacks(blocks: DongleBlockReads, signal?: AbortSignal): Promise<void> {
  for (const address of LV_BATTERY_ADDRESSES) {
    if (await blocks.tryRead(lvPackBank(address), signal)) continue;
    blocks.forget(lvPackBank(address));
    return;
  }
}

/** Without HR 0: the banks only one kind of device fills, and an HV stack's BCU, until the model shows. */
export async function detectFromBanks(
  options: DongleOptions,
  blocks: DongleBlockReads,
  chain: DongleChain,
  signal?: AbortSignal,
): Promise<void> {
  const where = whereOf(options);
  options.logger?.warn(
    { dongle: where },
    `the identity bank (${blockName(IDENTITY)}) did not answer: telling the model from the banks that do; it is asked again later`,
  );
  for (const probe of DETECTION_BANKS) {
    if (!(await blocks.tryRead(probe, signal))) continue;
    // Whether a BCU answers at all tells an HV stack: its first part is enough to ask.
    if (probe.base === 0) await blocks.tryRead(partsOf(BCU_BANK)[0] ?? BCU_BANK, signal);
    if (chain.detect().family !== "unknown") break;
  }
  options.logger?.info({ dongle: where, model: chain.detect().model }, "model told from the banks that answered");
}

/**
 * For an address that is paired with nothing: asks its identity bank (or, when that does not
 * answer, the banks that tell a model) until an answer pairs it; the serial it is paired with then.
 */
export async function askWhoAnswers(
  blocks: DongleBlockReads,
  pairing: DonglePairing,
  signal?: AbortSignal,
): Promise<string | undefined> {
  await pairing.whileOpen(async () => {
    for (const read of [IDENTITY, ...DETECTION_BANKS]) {
      if (pairing.serial !== undefined) break;
      await blocks.tryRead(read, signal);
    }
  });
  return pairing.serial;
}

/** Asks each block once: its health says which did not answer. */
export async function probeEach(blocks: DongleBlockReads, reads: readonly Read[], signal?: AbortSignal): Promise<void> {
  for (const read of reads.flatMap(partsOf)) await blocks.tryRead(read, signal);
}
