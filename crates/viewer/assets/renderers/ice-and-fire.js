// A Code of Ice and Fire: the 12x12 map with each player's territory (active cells strong,
// inactive ones pale), mine spots, buildings (HQ, mine, tower) and units by level.
// Frame: {player, cells: [12 strings], buildings, units, mine_spots, gold, income, scores}.
// What the last call changed is outlined: units it moved or trained, buildings it built.

import { el, svgRoot, text, playerColor, textOnPlayer, arr, num, coordAttrs, gridAxes } from "../svg.js";
import { PLAYER_LIGHT } from "../svg.js";

const CELL = 44;
// Room for the axis numbers over and left of the map.
const PAD = 24;
const OWNER = { R: [0, true], r: [0, false], B: [1, true], b: [1, false] };

// The running figure the frames carry is military power; the final score is the outcome's.
export const scoreLabel = "military power";

// Units of the call's player that are new or stand elsewhere than before the call, and
// buildings of that player that are new: "u<id>" and "b<x>,<y>" keys.
function lastChanges(frame, env) {
  const out = new Set();
  const player = env?.call?.player;
  if (!env?.prev || typeof player !== "number") return out;
  const before = new Map(arr(env.prev.units).map((u) => [u?.id, u]));
  for (const u of arr(frame?.units)) {
    if (u?.owner !== player) continue;
    const old = before.get(u?.id);
    if (!old || old.x !== u.x || old.y !== u.y || old.level !== u.level) out.add(`u${u.id}`);
  }
  const built = new Set(arr(env.prev.buildings).map((b) => `${b?.type}${b?.x},${b?.y}`));
  for (const b of arr(frame?.buildings)) {
    if (b?.owner === player && !built.has(`${b?.type}${b?.x},${b?.y}`)) out.add(`b${b?.x},${b?.y}`);
  }
  return out;
}

export function render(frame, env) {
  const changes = lastChanges(frame, env);
  const mark = (px, py) => el("rect", { x: px + 1, y: py + 1, width: CELL - 2, height: CELL - 2, rx: 4, fill: "none", stroke: "#fff", "stroke-width": 3, "stroke-dasharray": "5 3", "data-last": "" });
  const rows = arr(frame?.cells).map(String);
  const n = rows.length || 12;
  const w = Math.max(...rows.map((r) => r.length), n);
  const svg = svgRoot(PAD * 2 + w * CELL, PAD * 2 + n * CELL, "Ice and Fire map");
  svg.append(el("rect", { x: 0, y: 0, width: PAD * 2 + w * CELL, height: PAD * 2 + n * CELL, fill: "#26303a", rx: 6 }));
  const at = (x, y) => [PAD + x * CELL, PAD + y * CELL];
  gridAxes(svg, { x0: PAD, y0: PAD, cell: CELL, cols: w, rows: n, fill: "#c9d1db" });
  rows.forEach((row, y) => [...row].forEach((ch, x) => {
    const [px, py] = at(x, y);
    const box = { x: px + 1, y: py + 1, width: CELL - 2, height: CELL - 2, rx: 3, ...coordAttrs(`${x} ${y}`, "x y") };
    if (ch === "#") return;
    const own = OWNER[ch];
    if (own) {
      const [p, active] = own;
      svg.append(el("rect", { ...box, fill: active ? playerColor(p) : PLAYER_LIGHT[p], opacity: active ? 0.85 : 1,
        "data-cell": "", "data-owner": p, "data-active": active }));
      if (!active) svg.append(el("path", { d: `M${px + 4} ${py + CELL - 4} L${px + CELL - 4} ${py + 4}`, stroke: playerColor(p), "stroke-width": 1.5, opacity: 0.6 }));
    } else {
      svg.append(el("rect", { ...box, fill: "#e8e4d8" }));
    }
  }));
  for (const spot of arr(frame?.mine_spots)) {
    const [x, y] = arr(spot);
    if (typeof x !== "number") continue;
    const [px, py] = at(x, y);
    const c = [px + CELL / 2, py + CELL / 2];
    svg.append(el("path", { d: `M${c[0]} ${c[1] - 9} L${c[0] + 9} ${c[1]} L${c[0]} ${c[1] + 9} L${c[0] - 9} ${c[1]} Z`, fill: "#c9a227", stroke: "#6b5200", "data-mine-spot": "" }));
  }
  for (const b of arr(frame?.buildings)) {
    const [px, py] = at(num(b?.x), num(b?.y));
    const p = num(b?.owner);
    const g = el("g", { "data-building": b?.type ?? "", "data-owner": p });
    if (b?.type === "hq") {
      g.append(el("rect", { x: px + 5, y: py + 5, width: CELL - 10, height: CELL - 10, rx: 4, fill: playerColor(p), stroke: "#fff", "stroke-width": 3 }));
      g.append(text(px + CELL / 2, py + CELL / 2 + 5, "HQ", { "text-anchor": "middle", fill: textOnPlayer(p), "font-weight": "bold", "font-size": 14 }));
    } else if (b?.type === "tower") {
      g.append(el("path", { d: `M${px + 12} ${py + CELL - 6} L${px + 15} ${py + 10} L${px + 12} ${py + 10} L${px + 12} ${py + 5} L${px + CELL - 12} ${py + 5} L${px + CELL - 12} ${py + 10} L${px + CELL - 15} ${py + 10} L${px + CELL - 12} ${py + CELL - 6} Z`, fill: "#555", stroke: playerColor(p), "stroke-width": 3 }));
    } else {
      g.append(el("circle", { cx: px + CELL / 2, cy: py + CELL / 2, r: CELL / 2 - 7, fill: "#c9a227", stroke: playerColor(p), "stroke-width": 4 }));
      g.append(text(px + CELL / 2, py + CELL / 2 + 5, "$", { "text-anchor": "middle", fill: "#4a3a00", "font-weight": "bold", "font-size": 15 }));
    }
    if (changes.has(`b${b?.x},${b?.y}`)) g.append(mark(px, py));
    svg.append(g);
  }
  for (const u of arr(frame?.units)) {
    const [px, py] = at(num(u?.x), num(u?.y));
    const p = num(u?.owner);
    const level = num(u?.level, 1);
    const g = el("g", { "data-unit": u?.id ?? "", "data-owner": p, "data-level": level });
    g.append(el("circle", { cx: px + CELL / 2, cy: py + CELL / 2, r: 9 + 3 * level, fill: playerColor(p), stroke: "#fff", "stroke-width": 2.5 }));
    g.append(text(px + CELL / 2, py + CELL / 2 + 5, level, { "text-anchor": "middle", fill: textOnPlayer(p), "font-weight": "bold", "font-size": 14 }));
    g.append(el("title", {}, [`unit ${u?.id} level ${level} of ${env.names[p] ?? p}`]));
    if (changes.has(`u${u?.id}`)) g.append(mark(px, py));
    svg.append(g);
  }
  return svg;
}

export function details(frame) {
  const rows = [["gold", arr(frame?.gold)], ["income", arr(frame?.income)]];
  // Bots may print a MSG; the game shows the latest one per player.
  if (arr(frame?.messages).some((m) => m)) rows.push(["message", arr(frame.messages)]);
  return rows;
}
