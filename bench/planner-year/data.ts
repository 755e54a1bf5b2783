export {
  DATA_DIR,
  DAY_SLOTS,
  loadYear,
  PV_KWP,
  SLOTS,
  SOURCES,
  UK_YIELD_KWH_PER_KWP,
  YEAR_START,
  YEAR_TIME_ZONE,
  type Year,
} from "../../src/demo/planner-year.js";
