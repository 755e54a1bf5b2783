/** Round steps for a chart's axis from `min` (below 0 for money) to `max`, about `count` of them. */
export function ticks(min: number, max: number, count: number): number[] {
  const raw = (max - min || 1) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((m) => m >= raw) ?? raw;
  const out: number[] = [];
  for (let value = Math.floor(min / step) * step; value <= max + step / 2; value += step)
    out.push(Math.round(value * 1e6) / 1e6);
  return out;
}
