// Kingdomino: every player's kingdom (terrain squares with crowns, the castle in the player's
// colour) and the draft line: the current and next dominoes with the king standing on each.
// Frame: {size, kingdoms: [[row strings, 2 chars per cell]], current, next, slot, eliminated}.
// The last call's move is outlined: the two squares it placed and the domino it picked.

import { el, svgRoot, text, playerColor, playerTextColor, textOnPlayer, seatLabels, arr, num, coordAttrs, BOARD_MUTED } from "../svg.js";

// Terrain: its colour, its name, and its letter, drawn in a corner of every square as a second
// cue for readers who cannot tell the colours apart (forest and mine are 7 apart in CIELAB
// under deuteranopia), in a colour readable on the square.
const TERRAIN = {
  c: ["#f0cf4a", "corn field", "C", "#111"],
  f: ["#2f6e3a", "forest", "F", "#fff"],
  g: ["#9ccf5f", "grassland", "G", "#111"],
  l: ["#4f9fe0", "lake", "L", "#111"],
  w: ["#9c9a6a", "wetland", "W", "#111"],
  m: ["#6a5343", "mine", "M", "#fff"],
};
const CELL = 40;
// Between kingdoms: room for the axis numbers left of and under each kingdom.
const GAP = 40;

// "c1" -> {terrain: "c", crowns: 1}; tolerates objects and odd strings.
function parseCell(cell) {
  if (typeof cell === "string") return { terrain: cell[0] ?? "_", crowns: Number(cell.slice(1)) || 0 };
  if (cell && typeof cell === "object") return { terrain: cell.terrain ?? "_", crowns: num(cell.crowns) };
  return { terrain: "_", crowns: 0 };
}

function rowCells(row) {
  if (Array.isArray(row)) return row;
  const s = String(row);
  const cells = [];
  for (let i = 0; i < s.length; i += 2) cells.push(s.slice(i, i + 2));
  return cells;
}

function square(x, y, size, cell, attrs = {}) {
  const { terrain, crowns } = parseCell(cell);
  const g = el("g", attrs);
  const fill = TERRAIN[terrain]?.[0];
  const [, name, letter, ink] = TERRAIN[terrain] ?? [];
  g.append(el("rect", { x, y, width: size, height: size, rx: 3, fill: fill ?? "#f4f1ea", stroke: fill ? "#3335" : "#d8d2c4", "data-kind": name }));
  if (fill) {
    g.append(el("title", {}, [`${name}, ${crowns} crown${crowns === 1 ? "" : "s"}`]));
    g.append(text(x + size - 3, y + size - 3, letter, { "text-anchor": "end", "font-size": 9, "font-weight": 600, fill: ink,
      "data-cue": letter, "data-cue-for": name, "aria-hidden": "true" }));
  }
  for (let k = 0; k < crowns; k++) {
    const cx = x + 4 + k * 11;
    const cy = y + 4;
    g.append(el("path", { d: `M${cx} ${cy + 8} l-1 -7 l3.5 3 l2.5 -4 l2.5 4 l3.5 -3 l-1 7 Z`, fill: "#ffd21f", stroke: "#6b4f00", "stroke-width": 0.8, "data-crown": "" }));
  }
  return g;
}

// Cells of kingdom `p` that differ between the previous frame and this one: "r,c" keys.
function changedCells(frame, env, p) {
  const before = arr(arr(env?.prev?.kingdoms)[p]).map((row) => rowCells(row));
  const after = arr(arr(frame?.kingdoms)[p]).map((row) => rowCells(row));
  if (!env?.prev || !before.length) return new Set();
  const out = new Set();
  after.forEach((row, r) => row.forEach((cell, c) => {
    if (String(cell) !== String(before[r]?.[c] ?? "")) out.add(`${r},${c}`);
  }));
  return out;
}

// The tile ID of the call's `PICK id` line, if it picked one.
function pickedId(env) {
  const line = arr(env?.call?.output).find((l) => /^\s*PICK\s+\d+/.test(String(l)));
  const id = line ? Number(String(line).trim().split(/\s+/)[1]) : 0;
  return id > 0 ? id : null;
}

function kingdom(rows, p, x0, y0, size, env, eliminated, changed, label) {
  const g = el("g", { "data-kingdom": p });
  const span = size * CELL;
  g.append(el("rect", { x: x0 - 6, y: y0 - 6, width: span + 12, height: span + 12, rx: 8, fill: "#fffdf7", stroke: playerColor(p), "stroke-width": 4 }));
  const name = String(env.names[p] ?? `player ${p}`);
  g.append(text(x0, y0 - 14, label, { class: "label", fill: playerTextColor(p), "data-seat-label": p }, [el("title", {}, [name])]));
  rows.forEach((row, r) => rowCells(row).forEach((cell, c) => {
    const x = x0 + c * CELL;
    const y = y0 + r * CELL;
    // Under the cell's drawing, the cell's protocol coordinates (PUT x y) for the hover readout.
    g.append(el("rect", { x, y, width: CELL, height: CELL, fill: "transparent", ...coordAttrs(`${c} ${r}`, `x y in ${name}'s kingdom`) }));
    const { terrain } = parseCell(cell);
    if (terrain === "*") {
      g.append(el("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 4, fill: playerColor(p), "data-cell": "", "data-player": p, "data-terrain": "castle" }));
      g.append(text(x + CELL / 2, y + CELL / 2 + 7, "♜", { "text-anchor": "middle", fill: textOnPlayer(p), "font-size": 22 }));
    } else if (TERRAIN[terrain]) {
      g.append(square(x + 1, y + 1, CELL - 2, cell, { "data-cell": "", "data-player": p, "data-terrain": terrain }));
    } else {
      g.append(el("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 3, fill: "#f4f1ea", stroke: "#e2dccf" }));
    }
  }));
  const cells = rowCells(rows[0] ?? "").length;
  const axes = el("g", { class: "axis", fill: BOARD_MUTED, "data-axes": "" });
  for (let i = 0; i < cells; i++) axes.append(text(x0 + (i + 0.5) * CELL, y0 + span + 20, i, { "text-anchor": "middle", "data-axis": "col" }));
  for (let j = 0; j < rows.length; j++) axes.append(text(x0 - 10, y0 + (j + 0.5) * CELL + 3.5, j, { "text-anchor": "end", "data-axis": "row" }));
  g.append(axes);
  for (const key of changed) {
    const [r, c] = key.split(",").map(Number);
    g.append(el("rect", { x: x0 + c * CELL + 1, y: y0 + r * CELL + 1, width: CELL - 2, height: CELL - 2, rx: 3, fill: "none", stroke: "#111", "stroke-width": 3, "data-last": "" }));
  }
  if (eliminated) {
    g.append(el("rect", { x: x0 - 6, y: y0 - 6, width: span + 12, height: span + 12, rx: 8, fill: "#5559" }));
    g.append(text(x0 + span / 2, y0 + span / 2, "eliminated", { "text-anchor": "middle", class: "label", fill: "#fff" }));
  }
  return g;
}

function king(x, y, p) {
  const g = el("g", { "data-king": p });
  g.append(el("circle", { cx: x, cy: y, r: 11, fill: playerColor(p), stroke: "#0006" }));
  g.append(text(x, y + 5, "♚", { "text-anchor": "middle", fill: textOnPlayer(p), "font-size": 14 }));
  return g;
}

// One column of the draft line. Placeholders (ID 0: turn 1's current line, the last turn's
// next line) are no dominoes and are not drawn. A played slot of the current line is shown
// faded without its king: the tile went to a kingdom and the king moved on to the next line.
// In turn 1 the current line has no tiles: its slots are the kings waiting to pick, in order.
function draftLine(dominoes, line, x0, y0, title, isActive, played, picked) {
  const g = el("g", { "data-draft": line });
  g.append(text(x0, y0 - 8, title, { class: "label", fill: "#1f2329" }));
  arr(dominoes).forEach((d, i) => {
    const y = y0 + i * (CELL + 10);
    const owner = typeof d?.owner === "number" && d.owner >= 0 ? d.owner : null;
    const isPlayed = i < played;
    const kingX = x0 + 30 + 2 * CELL + 16;
    if (num(d?.id) === 0) {
      if (owner !== null && !isPlayed && isActive(owner)) {
        g.append(text(x0 + 14, y + CELL / 2 + 5, `${i + 1}.`, { "text-anchor": "middle", class: "small" }));
        g.append(king(x0 + 30 + CELL / 2, y + CELL / 2, owner));
      }
      return;
    }
    const dg = el("g", { "data-domino": d.id, "data-line": line, "data-owner": owner ?? "", opacity: isPlayed ? 0.35 : 1 });
    if (isPlayed) dg.setAttribute("data-played", "");
    dg.append(text(x0 + 14, y + CELL / 2 + 5, d.id, { "text-anchor": "middle", class: "small" }));
    dg.append(square(x0 + 30, y, CELL - 2, d.a));
    dg.append(square(x0 + 30 + CELL, y, CELL - 2, d.b));
    if (picked && num(d.id) === picked.id && owner === picked.player) {
      dg.setAttribute("data-last-pick", "");
      dg.append(el("rect", { x: x0 + 28, y: y - 2, width: 2 * CELL + 2, height: CELL + 2, rx: 4, fill: "none", stroke: "#111", "stroke-width": 3 }));
    }
    g.append(dg);
    if (owner === null || isPlayed) return;
    if (isActive(owner)) {
      g.append(king(kingX, y + CELL / 2, owner));
    } else {
      // An eliminated player's tile stays listed but will be skipped (spec R30).
      g.append(el("circle", { cx: kingX, cy: y + CELL / 2, r: 10, fill: "none", stroke: playerColor(owner), "stroke-dasharray": "3 3", "stroke-width": 2 }, [el("title", {}, ["owner eliminated"])]));
    }
  });
  return g;
}

export function render(frame, env) {
  const kingdoms = arr(frame?.kingdoms);
  const size = num(frame?.size, kingdoms[0]?.length ?? 5);
  const perRow = kingdoms.length > 2 ? 2 : Math.max(1, kingdoms.length);
  const span = size * CELL + GAP + 12;
  const draftX = perRow * span + 10;
  const nDraft = Math.max(arr(frame?.current).length, arr(frame?.next).length);
  const width = draftX + 2 * (3 * CELL + 50);
  const height = Math.max(Math.ceil(kingdoms.length / perRow) * (span + 20), nDraft * (CELL + 10) + 60) + 10;
  const svg = svgRoot(width, height, "Kingdomino board");
  const mover = env?.call?.player;
  const labels = seatLabels(kingdoms.map((_, p) => env.names[p] ?? `player ${p}`), Math.floor((size * CELL) / 9));
  kingdoms.forEach((rows, p) => {
    const x = 28 + (p % perRow) * span;
    const y = 40 + Math.floor(p / perRow) * (span + 20);
    const changed = p === mover ? changedCells(frame, env, p) : new Set();
    svg.append(kingdom(arr(rows), p, x, y, size, env, arr(frame?.eliminated)[p] === true, changed, labels[p]));
  });
  const pickId = pickedId(env);
  const picked = pickId !== null && typeof mover === "number" ? { id: pickId, player: mover } : null;
  const eliminated = arr(frame?.eliminated);
  const isActive = (p) => p < kingdoms.length && eliminated[p] !== true;
  const current = arr(frame?.current);
  const next = arr(frame?.next);
  const firstTurn = current.length > 0 && current.every((d) => num(d?.id) === 0);
  const lastTurn = next.length > 0 && next.every((d) => num(d?.id) === 0);
  const played = num(frame?.slot, 0);
  svg.append(draftLine(current, "current", draftX, 40, firstTurn ? "to pick" : "current", isActive, played, picked));
  svg.append(draftLine(next, "next", draftX + 3 * CELL + 50, 40, lastTurn ? "next: none" : "next", isActive, 0, picked));
  return svg;
}

// The frames' scores are zones plus enabled bonuses (R22); the outcome's displayed scores add
// the tie-break points of R25, which only a finished game has.
export const finalScoreLabel = "final score with tie-break points";

export function details(frame) {
  return [["eliminated", arr(frame?.eliminated).map((e) => (e ? "yes" : ""))]];
}
