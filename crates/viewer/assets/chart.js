// The scores-over-time chart beside the board: one line per player across every step of the
// replay, a marker at the selected step, and a click to jump there.

import { el, text, playerColor, arr, num } from "./svg.js";

const W = 320;
const H = 140;
const PAD = { left: 34, right: 8, top: 8, bottom: 18 };

// `series[p][i]` is player p's score at step i (null where a frame had none).
export function scoreSeries(frames, nPlayers) {
  const series = Array.from({ length: nPlayers }, () => []);
  for (const frame of frames) {
    const scores = arr(frame?.scores);
    for (let p = 0; p < nPlayers; p++) {
      const v = scores[p];
      series[p].push(typeof v === "number" && Number.isFinite(v) ? v : null);
    }
  }
  return series;
}

export function drawChart(series, step, onPick) {
  const n = Math.max(1, ...series.map((s) => s.length));
  const values = series.flat().filter((v) => v !== null);
  const lo = Math.min(0, ...values);
  let hi = Math.max(0, ...values);
  if (hi === lo) hi = lo + 1;
  const x = (i) => PAD.left + (n <= 1 ? 0 : (i / (n - 1)) * (W - PAD.left - PAD.right));
  const y = (v) => PAD.top + (1 - (v - lo) / (hi - lo)) * (H - PAD.top - PAD.bottom);

  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", "data-chart": "scores" });
  svg.append(el("rect", { x: PAD.left, y: PAD.top, width: W - PAD.left - PAD.right, height: H - PAD.top - PAD.bottom, class: "chart-bg" }));
  for (const v of [lo, hi, ...(lo < 0 && hi > 0 ? [0] : [])]) {
    svg.append(el("line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: "chart-grid" }));
    svg.append(text(PAD.left - 4, y(v) + 4, Math.round(v), { class: "chart-label", "text-anchor": "end" }));
  }
  svg.append(text(PAD.left, H - 4, "start", { class: "chart-label" }));
  svg.append(text(W - PAD.right, H - 4, `step ${n - 1}`, { class: "chart-label", "text-anchor": "end" }));
  series.forEach((s, p) => {
    const points = s.map((v, i) => (v === null ? null : `${x(i).toFixed(1)},${y(v).toFixed(1)}`)).filter(Boolean);
    if (points.length) {
      svg.append(el("polyline", { points: points.join(" "), fill: "none", stroke: playerColor(p), "stroke-width": 2, "data-series": p }));
    }
  });
  svg.append(el("line", { x1: x(step), x2: x(step), y1: PAD.top, y2: H - PAD.bottom, class: "chart-marker" }));
  series.forEach((s, p) => {
    const v = s[step];
    if (v !== null && v !== undefined) {
      svg.append(el("circle", { cx: x(step), cy: y(num(v)), r: 3.5, fill: playerColor(p) }));
    }
  });
  svg.addEventListener("click", (event) => {
    const box = svg.getBoundingClientRect();
    const fx = ((event.clientX - box.left) / box.width) * W;
    const i = Math.round(((fx - PAD.left) / (W - PAD.left - PAD.right)) * (n - 1));
    onPick(Math.max(0, Math.min(n - 1, i)));
  });
  return svg;
}
