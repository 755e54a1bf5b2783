export { ChargerModel, type MeterQuery, UNSUPPORTED_COMMANDS } from "./model.js";
export type {
  ChargerActor,
  ChargerOptions,
  ChargerSpec,
  CommandAnswer,
  CommandResultBody,
  LocalCharger,
  MeterState,
  Session,
  ValidationErrorBody,
} from "./types.js";
