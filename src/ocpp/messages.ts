import { z } from "zod";
import { meterValueSchema } from "./meter-values.js";

/**
 * The requests a charge point sends, as OCPP 1.6J defines them. ocpp-rpc's strict mode has already
 * checked each against the specification's JSON schema (answering a CallError when it does not
 * fit); these give the handlers their types, and keep only what the central system reads.
 */
export const bootNotification = z.object({
  chargePointVendor: z.string(),
  chargePointModel: z.string(),
  chargePointSerialNumber: z.string().optional(),
  chargeBoxSerialNumber: z.string().optional(),
  firmwareVersion: z.string().optional(),
});

export const statusNotification = z.object({
  connectorId: z.number().int().nonnegative(),
  errorCode: z.string(),
  status: z.enum([
    "Available",
    "Preparing",
    "Charging",
    "SuspendedEV",
    "SuspendedEVSE",
    "Finishing",
    "Reserved",
    "Unavailable",
    "Faulted",
  ]),
});

export const meterValues = z.object({
  connectorId: z.number().int().nonnegative(),
  transactionId: z.number().int().optional(),
  meterValue: z.array(meterValueSchema),
});

export const authorize = z.object({ idTag: z.string() });

export const startTransaction = z.object({
  connectorId: z.number().int().nonnegative(),
  idTag: z.string(),
  meterStart: z.number().int(),
  timestamp: z.string(),
});

export const stopTransaction = z.object({
  transactionId: z.number().int(),
  meterStop: z.number().int(),
  timestamp: z.string(),
  idTag: z.string().optional(),
  reason: z.string().optional(),
  transactionData: z.array(meterValueSchema).optional(),
});

/** Every command's answer: the status, which strict mode has checked against the action's own list. */
export const commandConf = z.object({
  status: z.enum([
    "Accepted",
    "Rejected",
    "Scheduled",
    "NotSupported",
    "NotImplemented",
    "Unknown",
    "Unlocked",
    "UnlockFailed",
  ]),
});
