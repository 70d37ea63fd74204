// Blocking / Blokus: the square board with every player's cells, the last move outlined, the
// start corners, and each player's remaining pieces.
// Frame: {size, board: [row strings '0'-'3' or '.'], last_move: {player, name, cells}, remaining, starts,
// starts_shared, eliminated}.

import { el, svgRoot, text, playerColor, playerTextColor, seatLabels, arr, num, coordAttrs, gridAxes } from "../svg.js";

// The drawings of the 21 shapes (crates/blocking/data/blocking_shapes.txt): rows top to bottom,
// `#` a square. Frames name a player's remaining shapes by letter. The play page
// (assets/play/blocking.js) imports them from here: one copy.
export const SHAPES = {
  A: "#",
  B: "##",
  C: "###",
  D: "#. ##",
  E: "####",
  F: "#. #. ##",
  G: "### .#.",
  H: "## ##",
  I: "##. .##",
  J: "#####",
  K: "#. #. #. ##",
  L: "##.. .###",
  M: "## ## #.",
  N: "#.# ###",
  O: "#### .#..",
  P: "#.. #.. ###",
  Q: "### .#. .#.",
  R: "#.. ##. .##",
  S: "##. .#. .##",
  T: ".## ##. .#.",
  U: ".#. ### .#.",
};
// A remaining shape's square in the list beside the board, and the room around a shape.
const MINI = 7;
const MINI_GAP = 8;
const LIST_W = 240;

const CELL = 26;
// Room for the axis numbers over and left of the board.
const PAD = 24;

export function render(frame, env) {
  const rows = arr(frame?.board).map(String);
  const n = num(frame?.size, rows.length);
  const side = PAD * 2 + n * CELL;
  const listX = side + 16;
  const lists = Array.from({ length: env.nPlayers }, (_, p) => pieceRows(arr(arr(frame?.remaining)[p])));
  const blockHeight = (rows) => 34 + Math.max(1, rows.length) * (5 * MINI + MINI_GAP);
  const listHeight = lists.reduce((sum, rows) => sum + blockHeight(rows) + 10, 0) + 40;
  const svg = svgRoot(listX + LIST_W + 10, Math.max(side, listHeight), "Blocking board");
  svg.append(el("rect", { x: PAD - 3, y: PAD - 3, width: n * CELL + 6, height: n * CELL + 6, rx: 4, fill: "#4a4f58" }));
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const ch = rows[y]?.[x] ?? ".";
      const p = "0123".indexOf(ch);
      const attrs = { x: PAD + x * CELL + 1, y: PAD + y * CELL + 1, width: CELL - 2, height: CELL - 2, rx: 3, ...coordAttrs(`${x} ${y}`, "x y") };
      if (p >= 0) svg.append(el("rect", { ...attrs, fill: playerColor(p), stroke: "#0004", "data-cell": "", "data-player": p }));
      else svg.append(el("rect", { ...attrs, fill: "#eceef2" }));
    }
  }
  gridAxes(svg, { x0: PAD, y0: PAD, cell: CELL, cols: n, rows: n });
  // A start cell is one player's (drawn in its colour), or shared by every player (Duo: drawn
  // neutral, and either player may open on it).
  const shared = frame?.starts_shared === true;
  arr(frame?.starts).forEach((s, p) => {
    const [x, y] = arr(s);
    if (typeof x === "number" && rows[y]?.[x] === ".") {
      svg.append(el("circle", { cx: PAD + (x + 0.5) * CELL, cy: PAD + (y + 0.5) * CELL, r: CELL / 4, fill: shared ? "#fff" : "none",
        stroke: shared ? "#4a4f58" : playerColor(p), "stroke-width": 3, "data-start": shared ? "shared" : p }));
    }
  });
  const last = frame?.last_move;
  for (const c of arr(last?.cells)) {
    const [x, y] = arr(c);
    if (typeof x !== "number") continue;
    svg.append(el("rect", { x: PAD + x * CELL + 1, y: PAD + y * CELL + 1, width: CELL - 2, height: CELL - 2, rx: 3, fill: "none", stroke: "#111", "stroke-width": 2.5, "data-last": "" }));
  }
  svg.append(pieceOutlines(env));
  // Remaining pieces, one block per player, each shape drawn.
  const names = Array.from({ length: env.nPlayers }, (_, p) => String(env.names[p] ?? p));
  const labels = seatLabels(names, 16);
  let top = 10;
  for (let p = 0; p < env.nPlayers; p++) {
    const y = top + 20;
    const left = arr(arr(frame?.remaining)[p]);
    const out = arr(frame?.eliminated)[p] === true;
    const height = blockHeight(lists[p]);
    top += height + 10;
    svg.append(el("rect", { x: listX, y: y - 20, width: LIST_W, height, rx: 6, fill: out ? "#ddd" : "#fff", stroke: playerColor(p), "stroke-width": 2 }));
    // SVG text does not wrap: long names are cut, with the whole name as a tooltip.
    svg.append(text(listX + 8, y, `${labels[p]}: ${left.length} left${out ? " (out)" : ""}`,
      { class: "label", fill: playerTextColor(p), "data-name": p, "data-seat-label": p }, [el("title", {}, [names[p]])]));
    lists[p].forEach((row, i) => row.forEach(({ letter, x }) =>
      svg.append(miniShape(letter, listX + 10 + x, y + 12 + i * (5 * MINI + MINI_GAP), p))));
  }
  if (last && typeof last.player === "number") {
    const bottom = Math.max(side, listHeight);
    const who = String(env.names[last.player] ?? last.player);
    svg.append(text(listX, bottom - 24, "last move:", { class: "small" }));
    svg.append(text(listX, bottom - 8, `${seatLabels(names, 14)[last.player] ?? who} played ${last.name ?? "?"}`, { class: "small", "data-last-line": "" },
      [el("title", {}, [who])]));
  }
  return svg;
}

export function details(frame) {
  return [
    ["pieces left", arr(frame?.remaining).map((r) => arr(r).length)],
    ["eliminated", arr(frame?.eliminated).map((e) => (e ? "yes" : ""))],
  ];
}

// The squares of a shape's drawing as [x, y] pairs; none for an unknown letter.
export function squares(letter) {
  return String(SHAPES[letter] ?? "").split(" ").flatMap((row, y) => [...row].flatMap((c, x) => (c === "#" ? [[x, y]] : [])));
}

// Remaining shapes laid out in rows that fit the list's width: [[{letter, x}]].
function pieceRows(letters) {
  const rows = [[]];
  let x = 0;
  for (const letter of letters) {
    const width = Math.max(1, ...squares(letter).map(([sx]) => sx + 1)) * MINI;
    if (x > 0 && x + width > LIST_W - 20) {
      rows.push([]);
      x = 0;
    }
    rows.at(-1).push({ letter, x });
    x += width + MINI_GAP;
  }
  return rows;
}

// One remaining shape as small squares in its player's colour, named on hover.
function miniShape(letter, x0, y0, p) {
  const g = el("g", { "data-piece": letter, "data-player": p }, [el("title", {}, [`shape ${letter}`])]);
  // An invisible box over the whole shape, so a click between its squares still picks it.
  const sq = squares(letter);
  g.append(el("rect", { x: x0 - 1, y: y0 - 1, width: Math.max(1, ...sq.map(([x]) => x + 1)) * MINI + 1,
    height: Math.max(1, ...sq.map(([, y]) => y + 1)) * MINI + 1, fill: "transparent", "data-hit": "" }));
  for (const [x, y] of squares(letter)) {
    g.append(el("rect", { x: x0 + x * MINI, y: y0 + y * MINI, width: MINI - 1, height: MINI - 1, fill: playerColor(p), "data-square": "" }));
  }
  return g;
}

// The outline of every shape placed so far, from the last move of each frame up to this one:
// a line along each side of a piece's square that does not touch the same piece.
function pieceOutlines(env) {
  const pieces = new Map();
  for (const f of arr(env?.history)) {
    const move = f?.last_move;
    const cells = arr(move?.cells).filter((c) => typeof arr(c)[0] === "number");
    if (cells.length) pieces.set(cells.map((c) => c.join(",")).sort().join(" "), { player: move.player, cells });
  }
  const g = el("g", { "data-outlines": "", "pointer-events": "none" });
  for (const { player, cells } of pieces.values()) {
    const own = new Set(cells.map(([x, y]) => `${x},${y}`));
    const d = cells.flatMap(([x, y]) => {
      const [l, t] = [PAD + x * CELL, PAD + y * CELL];
      const sides = [];
      if (!own.has(`${x},${y - 1}`)) sides.push(`M${l} ${t}h${CELL}`);
      if (!own.has(`${x + 1},${y}`)) sides.push(`M${l + CELL} ${t}v${CELL}`);
      if (!own.has(`${x},${y + 1}`)) sides.push(`M${l} ${t + CELL}h${CELL}`);
      if (!own.has(`${x - 1},${y}`)) sides.push(`M${l} ${t}v${CELL}`);
      return sides;
    }).join("");
    g.append(el("path", { d, fill: "none", stroke: "#1b1e23", "stroke-width": 2, "stroke-linecap": "square", "data-piece-outline": "", "data-player": player }));
  }
  return g;
}
