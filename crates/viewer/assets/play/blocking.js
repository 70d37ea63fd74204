// Blocking (Blokus Duo and Classic) on the play page: pick a shape from your remaining set as
// the board draws it (or from the buttons), turn it with r (R: the other way) and flip it with
// f; the piece follows the pointer wherever a legal placement of that orientation covers the
// hovered cell, and a click places it. Enter places the previewed (or first) placement.
// The shapes are the renderer's (renderers/blocking.js): one copy.

import { SHAPES, squares as shapeSquares } from "../renderers/blocking.js";

const parse = (step) => step.match(/^(\d+) (\d+) ([A-U])([01])([0-3])(\d+)$/)?.slice(1);
const shapeOf = (ui) => ui.chosen[0]?.match(/^shape ([A-U])$/)?.[1] ?? null;

export function steps(text) {
  const p = parse(text);
  return p ? [`shape ${p[2]}`, text] : [text];
}

// Squares moved so that the smallest x and y are 0, in a fixed order.
function normalize(sq) {
  const mx = Math.min(...sq.map((s) => s[0]));
  const my = Math.min(...sq.map((s) => s[1]));
  return sq.map(([x, y]) => [x - mx, y - my]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

const key = (sq) => normalize(sq).map((s) => s.join(",")).join(" ");

// The squares of a placement, relative (PROTOCOL.md: flip swaps x and y, then quarter turns
// (x, y) -> (-y, x), then the smallest x and y are 0).
function orientation(p) {
  let sq = shapeSquares(p[2]);
  if (Number(p[3])) sq = sq.map(([x, y]) => [y, x]);
  for (let i = 0; i < Number(p[4]); i++) sq = sq.map(([x, y]) => [-y, x]);
  return normalize(sq);
}

// The board squares a placement covers (square k lies on X Y).
export function squares(step) {
  const p = parse(step);
  if (!p) return [];
  const sq = orientation(p);
  const [kx, ky] = sq[Number(p[5]) - 1] ?? [0, 0];
  return sq.map(([x, y]) => `${Number(p[0]) + x - kx} ${Number(p[1]) + y - ky}`);
}

export const cells = (step) => (step.startsWith("shape ") ? [] : squares(step));
export const previewCells = cells;
export const hoverPreview = true;
export const clickPlays = true;
export const help = "Blocking: pick a piece from your drawn set (or its button); r / R turn it, f flips it; the piece is previewed under the pointer only where it can legally go; a click places it.";

// The orientation shown (a key of its squares): the chosen shape's, else that of its first
// legal placement.
function currentOrientation(ui) {
  const letter = shapeOf(ui);
  if (!letter) return null;
  if (ui.orientation?.letter !== letter) {
    const first = ui.state.legal.map((a) => parse(a.text)).find((p) => p?.[2] === letter);
    ui.orientation = { letter, key: first ? key(orientation(first)) : key(shapeSquares(letter)) };
  }
  return ui.orientation.key;
}

// Only the placements of the shape's orientation shown.
export function keep(step, ui) {
  const p = parse(step);
  return !p || key(orientation(p)) === currentOrientation(ui);
}

function turn(ui, map) {
  const now = currentOrientation(ui);
  if (now === null) return false;
  ui.orientation.key = key(now.split(" ").map((s) => map(s.split(",").map(Number))));
  ui.cell = null;
  return true;
}

export const keys = {
  r: (ui) => turn(ui, ([x, y]) => [-y, x]),
  R: (ui) => turn(ui, ([x, y]) => [y, -x]),
  f: (ui) => turn(ui, ([x, y]) => [-x, y]),
};

// The person's remaining shapes drawn beside the board are the palette: a click picks one that
// can still be placed.
const pickable = (ui) => new Set(ui.state.legal.map((a) => parse(a.text)?.[2]).filter(Boolean));

export function click(nodes, coord, ui) {
  const piece = nodes.map((n) => n.closest?.("[data-piece]")).find(Boolean);
  if (!piece || Number(piece.dataset.player) !== ui.state.call?.player) return false;
  if (!pickable(ui).has(piece.dataset.piece)) return true;
  ui.chosen = [`shape ${piece.dataset.piece}`];
  ui.cell = null;
  return true;
}

export function decorate(svg, ui) {
  if (ui.state.status !== "waiting") return;
  const can = pickable(ui);
  for (const g of svg.querySelectorAll(`[data-piece][data-player="${ui.state.call?.player}"]`)) {
    if (can.has(g.dataset.piece)) g.setAttribute("data-play-pickable", "");
    if (g.dataset.piece === shapeOf(ui)) g.setAttribute("data-play-picked", "");
  }
  // For scripts and tests: the orientation shown.
  document.getElementById("play").dataset.orientation = currentOrientation(ui) ?? "";
}

export function label(step) {
  if (step.startsWith("shape ")) return `Shape ${step.slice(6)} (${SHAPES[step.slice(6)].split(" ").join(" / ")})`;
  const p = parse(step);
  return p ? `${p[2]} at ${p[0]} ${p[1]} (flip ${p[3]}, turn ${p[4]})` : step;
}
