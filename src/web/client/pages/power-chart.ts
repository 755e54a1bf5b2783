import uPlot from "uplot";
import type { HistoryColumns } from "../../api-types.js";
import type { LocalTime } from "../local-time.js";

const HOUR = 3600;

/**
 * The 5-minute points (uPlot): times in the daemon's zone and the browser's language, ticks laid
 * on that zone's hours and days, drawn to the box's width so that neither axis is cut.
 */
export function powerChart(
  target: HTMLElement,
  c: HistoryColumns,
  time: LocalTime,
  zoom: (from: number, to: number) => void,
): uPlot {
  target.replaceChildren();
  const data: uPlot.AlignedData = [
    Float64Array.from(c.time),
    c.solar as (number | null)[],
    c.battery as (number | null)[],
    c.grid as (number | null)[],
    c.home as (number | null)[],
    c.soc as (number | null)[],
  ];
  const line = (label: string, stroke: string, scale = "W"): uPlot.Series => ({
    label,
    stroke,
    scale,
    width: 1.5,
    spanGaps: false,
  });
  const span = (c.time[c.time.length - 1] ?? 0) - (c.time[0] ?? 0);
  const tick = (seconds: number) => (span > 2 * 86_400 ? time.shortDay(seconds * 1000) : time.time(seconds * 1000));
  return new uPlot(
    {
      width: Math.max(280, target.clientWidth),
      height: 300,
      ...(time.timeZone ? { tzDate: (ts: number) => uPlot.tzDate(new Date(ts * 1000), time.timeZone ?? "UTC") } : {}),
      series: [
        { label: "Time", value: (_u, seconds) => (seconds === null ? "–" : time.dateTime(seconds * 1000)) },
        line("Solar W", "#b88400"),
        line("Battery W", "#2e9d5b"),
        line("Grid W (export +)", "#d1495b"),
        line("Home W", "#3d7dd8"),
        line("SoC %", "#9a5cd0", "%"),
      ],
      scales: { "%": { range: [0, 100] } },
      axes: [
        {
          values: (_u, splits) => splits.map(tick),
          space: span > 2 * 86_400 ? 80 : 60,
          incrs: [HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, 86_400, 2 * 86_400, 7 * 86_400, 30 * 86_400],
        },
        { scale: "W", label: "W", size: 60 },
        { scale: "%", side: 1, label: "%", size: 56, grid: { show: false } },
      ],
      hooks: {
        setSelect: [
          (u) => {
            if (u.select.width < 5) return;
            const from = u.posToVal(u.select.left, "x");
            const to = u.posToVal(u.select.left + u.select.width, "x");
            // Finer points for the zoomed range, when they were averaged.
            if (c.bucketSeconds) zoom(Math.floor(from * 1000), Math.ceil(to * 1000));
          },
        ],
      },
    },
    data,
    target,
  );
}
