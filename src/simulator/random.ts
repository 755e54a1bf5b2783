/**
 * Deterministic randomness: the same seed and keys always give the same number, so a
 * simulated day can be recomputed at any time and a run is repeatable with --seed.
 */
export function hash32(seed: number, ...keys: readonly (number | string)[]): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const key of keys) {
    if (typeof key === "number") {
      h = mix(h ^ (key | 0));
      h = mix(h ^ Math.floor(key / 4294967296));
    } else {
      for (let i = 0; i < key.length; i++) h = mix(h ^ key.charCodeAt(i));
    }
  }
  return mix(h);
}

function mix(value: number): number {
  let h = value >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A number in [0, 1) fixed by the seed and keys. */
export function hash01(seed: number, ...keys: readonly (number | string)[]): number {
  return hash32(seed, ...keys) / 4294967296;
}

/** A seeded sequence (mulberry32) for state that is drawn in order, such as fault injection. */
export function sequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
