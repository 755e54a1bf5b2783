/** Clear-sky PV output of tilted arrays from the sun's position (Duffie & Beckman geometry). */

const DEG = Math.PI / 180;
const DAY_MS = 86_400_000;
/** Inverter, wiring, soiling and temperature losses of a typical rooftop system. */
const PERFORMANCE_RATIO = 0.8;

export interface PvArray {
  readonly kwp: number;
  readonly tiltDeg?: number;
  /** Compass bearing the panels face: 180 south, 90 east. */
  readonly azimuthDeg?: number;
}

interface ArrayGeometry {
  readonly kwp: number;
  readonly cosTilt: number;
  readonly sinTilt: number;
  /** Surface azimuth from due south, west positive. */
  readonly cosAz: number;
  readonly sinAz: number;
}

export interface SolarSite {
  readonly sinLat: number;
  readonly cosLat: number;
  readonly longitudeDeg: number;
  readonly arrays: readonly ArrayGeometry[];
}

export function solarSite(latitude: number, longitude: number, arrays: readonly PvArray[]): SolarSite {
  const equatorFacing = latitude >= 0 ? 180 : 0;
  return {
    sinLat: Math.sin(latitude * DEG),
    cosLat: Math.cos(latitude * DEG),
    longitudeDeg: longitude,
    arrays: arrays.map((array) => {
      const tilt = (array.tiltDeg ?? 35) * DEG;
      const azimuth = ((array.azimuthDeg ?? equatorFacing) - 180) * DEG;
      return {
        kwp: Math.max(0, array.kwp),
        cosTilt: Math.cos(tilt),
        sinTilt: Math.sin(tilt),
        cosAz: Math.cos(azimuth),
        sinAz: Math.sin(azimuth),
      };
    }),
  };
}

/** The sun's declination and the equation of time for one day. */
export interface SolarDay {
  readonly sinDec: number;
  readonly cosDec: number;
  readonly eotMinutes: number;
}

/** `day` is days since 1970-01-01. */
export function solarDay(day: number): SolarDay {
  const date = new Date(day * DAY_MS);
  const dayOfYear = Math.round((day * DAY_MS - Date.UTC(date.getUTCFullYear(), 0, 1)) / DAY_MS) + 1;
  const declination = 23.44 * DEG * Math.sin((2 * Math.PI * (284 + dayOfYear)) / 365);
  const b = (2 * Math.PI * (dayOfYear - 81)) / 364;
  return {
    sinDec: Math.sin(declination),
    cosDec: Math.cos(declination),
    eotMinutes: 9.87 * Math.sin(2 * b) - 7.53 * Math.cos(b) - 1.5 * Math.sin(b),
  };
}

/** Direct normal irradiance (W/m²) by cos(zenith), from Meinel's air-mass model, tabulated once. */
const BEAM_TABLE_SIZE = 1024;
const beamTable = Float64Array.from({ length: BEAM_TABLE_SIZE + 1 }, (_, index) => {
  const cosZenith = index / BEAM_TABLE_SIZE;
  return 1353 * 0.7 ** ((1 / Math.max(cosZenith, 0.035)) ** 0.678);
});

function beamAt(cosZenith: number): number {
  const position = cosZenith * BEAM_TABLE_SIZE;
  const index = Math.min(BEAM_TABLE_SIZE - 1, Math.floor(position));
  const fraction = position - index;
  return (beamTable[index] ?? 0) * (1 - fraction) + (beamTable[index + 1] ?? 0) * fraction;
}

/**
 * Per array, cos(incidence) = a + b·cos(h) + c·sin(h) for the day's declination, with h the
 * hour angle; the day's constants are folded into a, b and c.
 */
function incidenceTerms(site: SolarSite, sun: SolarDay): Float64Array {
  const terms = new Float64Array(site.arrays.length * 3);
  site.arrays.forEach((array, index) => {
    terms[index * 3] = sun.sinDec * (site.sinLat * array.cosTilt - site.cosLat * array.sinTilt * array.cosAz);
    terms[index * 3 + 1] = sun.cosDec * (site.cosLat * array.cosTilt + site.sinLat * array.sinTilt * array.cosAz);
    terms[index * 3 + 2] = sun.cosDec * array.sinTilt * array.sinAz;
  });
  return terms;
}

function hourAngle(site: SolarSite, sun: SolarDay, ms: number): number {
  const utcMinutes = (((ms % DAY_MS) + DAY_MS) % DAY_MS) / 60_000;
  return ((utcMinutes + 4 * site.longitudeDeg + sun.eotMinutes) / 4 - 180) * DEG;
}

/**
 * Clear-sky power (W) of the arrays at one instant, given cos and sin of the hour angle;
 * each array's share goes to `perArray` when given.
 */
function powerAt(
  site: SolarSite,
  sun: SolarDay,
  terms: Float64Array,
  cosH: number,
  sinH: number,
  perArray?: Float64Array,
): number {
  const cosZenith = site.sinLat * sun.sinDec + site.cosLat * sun.cosDec * cosH;
  if (cosZenith <= 0.01) {
    perArray?.fill(0);
    return 0;
  }
  const beam = beamAt(cosZenith);
  const diffuse = 0.1 * beam;
  const global = beam * cosZenith + diffuse;
  let total = 0;
  for (let index = 0; index < site.arrays.length; index++) {
    const array = site.arrays[index];
    if (!array) continue;
    const cosIncidence =
      (terms[index * 3] ?? 0) + (terms[index * 3 + 1] ?? 0) * cosH + (terms[index * 3 + 2] ?? 0) * sinH;
    const planeIrradiance =
      beam * Math.max(0, cosIncidence) + (diffuse * (1 + array.cosTilt)) / 2 + (0.2 * global * (1 - array.cosTilt)) / 2;
    const watts = array.kwp * planeIrradiance * PERFORMANCE_RATIO;
    if (perArray) perArray[index] = watts;
    total += watts;
  }
  return total;
}

/** Clear-sky power of each array at an instant, written to `out` (W); returns the sum. */
export function clearSkyPower(site: SolarSite, sun: SolarDay, ms: number, out: Float64Array): number {
  const angle = hourAngle(site, sun, ms);
  return powerAt(site, sun, incidenceTerms(site, sun), Math.cos(angle), Math.sin(angle), out);
}

/**
 * Clear-sky power (W) at `steps` instants `stepMs` apart from `startMs`. The hour angle is
 * advanced by rotation, so the loop needs no trigonometry.
 */
export function fillClearSky(
  site: SolarSite,
  sun: SolarDay,
  startMs: number,
  stepMs: number,
  steps: number,
  out: Float32Array,
): void {
  const terms = incidenceTerms(site, sun);
  const start = hourAngle(site, sun, startMs);
  const delta = (stepMs / 240_000) * DEG;
  const cosDelta = Math.cos(delta);
  const sinDelta = Math.sin(delta);
  let cosH = Math.cos(start);
  let sinH = Math.sin(start);
  for (let step = 0; step < steps; step++) {
    out[step] = powerAt(site, sun, terms, cosH, sinH);
    const nextCos = cosH * cosDelta - sinH * sinDelta;
    sinH = sinH * cosDelta + cosH * sinDelta;
    cosH = nextCos;
  }
}
