// Small helpers shared by the replay page and the renderers: SVG element creation and the
// per-player palette. Renderers import only from here, so each stays a self-contained file.

export const SVG_NS = "http://www.w3.org/2000/svg";

// One colour per seat from the Okabe-Ito palette (vermillion, blue, bluish green, yellow),
// chosen so that every pair stays apart for deuteranopes and protanopes too (the browser test
// checks the simulated distances). Board text uses darker shades, at least 4.5:1 on the
// board's background in both themes (the e2e test measures every text).
export const PLAYER_COLORS = ["#d55e00", "#0072b2", "#009e73", "#f0e442"];
export const PLAYER_LIGHT = ["#f2c7a8", "#a9cfe8", "#a8dccb", "#f8f2b0"];
const PLAYER_TEXT = ["#a84800", "#005f94", "#00704f", "#6b6200"];
// Text or a glyph drawn on a seat's colour: white on the blue, near-black on the others.
const ON_PLAYER = ["#111", "#fff", "#111", "#111"];
// Grey text on a board (axis numbers): 4.5:1 on the board's background in both themes.
export const BOARD_MUTED = "#565d69";

export function playerColor(p) {
  return PLAYER_COLORS[p] ?? "#888";
}

// A seat's colour for text on a board.
export function playerTextColor(p) {
  return PLAYER_TEXT[p] ?? "#555";
}

// A seat's colour for text on the page: the theme's --pN, readable on its panels.
export function playerPageColor(p) {
  return p >= 0 && p < 4 ? `var(--p${p})` : "var(--muted)";
}

// The colour of text or a glyph drawn on playerColor(p).
export function textOnPlayer(p) {
  return ON_PLAYER[p] ?? "#111";
}

// A name cut to `max` characters with an ellipsis, for SVG text, which does not wrap.
export function shortName(name, max) {
  const s = String(name);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

// Board labels for the seats' names, at most `max` characters each and distinct from one
// another: a long name keeps its start and its end around an ellipsis
// ("builtin:mcts:m…greedy#2"), since the names of one tuning run share long prefixes; seats
// whose labels would still be equal get their seat number in front.
export function seatLabels(names, max) {
  const labels = names.map((n) => elideMiddle(String(n), max));
  return labels.map((l, i) => (labels.indexOf(l) === labels.lastIndexOf(l) ? l : elideMiddle(`${i}: ${names[i]}`, max)));
}

function elideMiddle(s, max) {
  if (s.length <= max) return s;
  const tail = Math.floor((max - 1) / 2);
  return `${s.slice(0, max - 1 - tail)}…${s.slice(s.length - tail)}`;
}

// Creates an SVG element with attributes; `children` may hold elements or strings.
export function el(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  }
  for (const child of children) {
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

// An <svg> root sized by its viewBox so it scales to the board area, but never drawn at more
// than 1.6 times its natural size (a board of three tiles should not fill the screen).
export function svgRoot(width, height, label) {
  return el("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "board-svg",
    role: "img",
    "aria-label": label,
    style: `max-width:${Math.round(width * 1.6)}px`,
  });
}

export function text(x, y, content, attrs = {}, extra = []) {
  return el("text", { x, y, ...attrs }, [String(content), ...extra]);
}

// Arrays from a frame field, tolerating a missing or malformed field.
export function arr(value) {
  return Array.isArray(value) ? value : [];
}

export function num(value, fallback = 0) {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

// A cell's coordinates in the game's own protocol terms, which the replay page shows on hover:
// `coord` exactly as a bot writes it ("6 9"), `name` what its numbers are ("x y", "row col").
export function coordAttrs(coord, name) {
  return { "data-coord": coord, "data-coord-name": name };
}

// Axis numbers over and left of a square grid whose cell (0, 0) has its top-left corner at
// (x0, y0): column i is labelled colLabel(i), row j rowLabel(j).
export function gridAxes(svg, { x0, y0, cell, cols, rows, colLabel = (i) => i, rowLabel = (j) => j, fill = BOARD_MUTED }) {
  const g = el("g", { class: "axis", fill, "data-axes": "" });
  for (let i = 0; i < cols; i++) g.append(text(x0 + (i + 0.5) * cell, y0 - 5, colLabel(i), { "text-anchor": "middle", "data-axis": "col" }));
  for (let j = 0; j < rows; j++) g.append(text(x0 - 5, y0 + (j + 0.5) * cell + 3.5, rowLabel(j), { "text-anchor": "end", "data-axis": "row" }));
  svg.append(g);
}
