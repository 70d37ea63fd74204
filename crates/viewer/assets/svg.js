// Small helpers shared by the replay page and the renderers: SVG element creation and the
// per-player palette. Renderers import only from here, so each stays a self-contained file.

export const SVG_NS = "http://www.w3.org/2000/svg";

// One colour per seat (red, blue, green, amber), readable on light and dark boards.
export const PLAYER_COLORS = ["#d9483b", "#2f74c0", "#3a9a4a", "#e0a020"];
export const PLAYER_LIGHT = ["#f4c4bf", "#bcd5f0", "#c2e4c8", "#f5dfa6"];

export function playerColor(p) {
  return PLAYER_COLORS[p] ?? "#888";
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

export function text(x, y, content, attrs = {}) {
  return el("text", { x, y, ...attrs }, [String(content)]);
}

// Arrays from a frame field, tolerating a missing or malformed field.
export function arr(value) {
  return Array.isArray(value) ? value : [];
}

export function num(value, fallback = 0) {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}
