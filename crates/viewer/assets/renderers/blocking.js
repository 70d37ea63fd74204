// Blocking / Blokus: the square board with every player's cells, the last move outlined, the
// start corners, and each player's remaining pieces.
// Frame: {size, board: [row strings '0'-'3' or '.'], last_move: {player, name, cells}, remaining, starts,
// starts_shared, eliminated}.

import { el, svgRoot, text, playerColor, playerTextColor, shortName, arr, num, coordAttrs, gridAxes } from "../svg.js";

const CELL = 26;
// Room for the axis numbers over and left of the board.
const PAD = 24;

export function render(frame, env) {
  const rows = arr(frame?.board).map(String);
  const n = num(frame?.size, rows.length);
  const side = PAD * 2 + n * CELL;
  const listX = side + 16;
  const svg = svgRoot(listX + 250, Math.max(side, 40 + env.nPlayers * 90), "Blocking board");
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
  // Remaining pieces, one block per player.
  for (let p = 0; p < env.nPlayers; p++) {
    const y = 30 + p * 90;
    const left = arr(arr(frame?.remaining)[p]);
    const out = arr(frame?.eliminated)[p] === true;
    svg.append(el("rect", { x: listX, y: y - 20, width: 240, height: 80, rx: 6, fill: out ? "#ddd" : "#fff", stroke: playerColor(p), "stroke-width": 2 }));
    // SVG text does not wrap: long names are cut, with the whole name as a tooltip.
    const name = String(env.names[p] ?? p);
    svg.append(text(listX + 8, y, `${shortName(name, 16)}: ${left.length} left${out ? " (out)" : ""}`,
      { class: "label", fill: playerTextColor(p), "data-name": p }, [el("title", {}, [name])]));
    const words = left.join(" ");
    const lines = words.match(/.{1,36}(\s|$)/g) ?? [];
    lines.slice(0, 3).forEach((line, i) => svg.append(text(listX + 8, y + 18 + i * 15, line.trim(), { class: "small", "data-remaining": p })));
  }
  if (last && typeof last.player === "number") {
    const bottom = Math.max(side, 40 + env.nPlayers * 90);
    const who = String(env.names[last.player] ?? last.player);
    svg.append(text(listX, bottom - 24, "last move:", { class: "small" }));
    svg.append(text(listX, bottom - 8, `${shortName(who, 14)} played ${last.name ?? "?"}`, { class: "small", "data-last-line": "" },
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
