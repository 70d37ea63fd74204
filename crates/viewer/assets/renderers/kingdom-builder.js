// Kingdom Builder: the 20x20 hex board (pointy-top, odd rows shifted right half a hex) with
// water, mountains, towns, castles and the players' settlements, plus per-card scores.
// Frame: {rows: [20 strings of tokens '.', 'W', 'M', 'T', 'C', '1'-'4'], scores, cards: {name: [..]},
// counted: {name: [per player [[row, col], ...]]}}. A card's button rings the settlements that card
// counted.

import { el, svgRoot, text, playerColor, arr, coordAttrs, BOARD_MUTED } from "../svg.js";

const R = 15;
const HW = Math.sqrt(3) * R;
// Room for the axis numbers (columns over row 0, rows on the left).
const PAD = 22;
const FILL = { ".": "#e7e1c8", W: "#5b9bd5", M: "#8a7b6c", T: "#e8c15a", C: "#9a8fb5" };
// What each token is, for the colour-blindness check: towns, castles and mountains also carry a
// glyph, so that no pair is told apart by colour alone.
const KIND = { ".": "plain", W: "water", M: "mountain", T: "town", C: "castle" };

// A row is either space-separated tokens (the text board) or one character per cell.
function tokens(row) {
  const s = String(row ?? "").trim();
  return /\s/.test(s) ? s.split(/\s+/) : [...s];
}

function hex(cx, cy) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 30);
    pts.push(`${(cx + R * Math.cos(a)).toFixed(1)},${(cy + R * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

// The centre of hex (r, c): odd rows shifted right half a hex.
function centre(r, c) {
  return [PAD + HW / 2 + c * HW + (r % 2 ? HW / 2 : 0), PAD + R + r * 1.5 * R];
}

// The card whose counted settlements are ringed, kept while the page shows the board.
let shownCard = null;

export function render(frame) {
  const svg = board(frame);
  const counted = frame?.counted && typeof frame.counted === "object" ? frame.counted : {};
  const names = Object.keys(counted);
  if (!names.length) return svg;
  const rings = el("g", { "data-rings": "", "pointer-events": "none" });
  svg.append(rings);
  const buttons = names.map((name) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = name;
    b.dataset.cardButton = name;
    b.addEventListener("click", () => show(shownCard === name ? null : name));
    return b;
  });
  function show(name) {
    shownCard = name;
    buttons.forEach((b) => b.classList.toggle("on", b.dataset.cardButton === name));
    rings.replaceChildren();
    arr(counted[name]).forEach((cells, p) => arr(cells).forEach((cell) => {
      const [r, c] = arr(cell);
      if (typeof r !== "number" || typeof c !== "number") return;
      const [cx, cy] = centre(r, c);
      rings.append(el("circle", { cx, cy, r: R - 2, fill: "none", stroke: "#111", "stroke-width": 3, "data-counted": name, "data-player": p }));
      rings.append(el("circle", { cx, cy, r: R - 2, fill: "none", stroke: playerColor(p), "stroke-width": 1.5 }));
    }));
  }
  show(names.includes(shownCard) ? shownCard : null);
  const aside = document.createElement("div");
  aside.className = "board-aside card-buttons";
  const heading = document.createElement("div");
  heading.className = "label";
  heading.textContent = "what each card counted";
  aside.append(heading, ...buttons);
  const wrap = document.createElement("div");
  wrap.className = "board-split";
  wrap.append(svg, aside);
  return wrap;
}

function board(frame) {
  const rows = arr(frame?.rows).map(tokens);
  const nCols = Math.max(1, ...rows.map((r) => r.length));
  const width = PAD * 2 + (nCols + 0.5) * HW;
  const height = PAD * 2 + (rows.length - 1) * 1.5 * R + 2 * R;
  const svg = svgRoot(width, height, "Kingdom Builder board");
  rows.forEach((row, r) => row.forEach((tok, c) => {
    const [cx, cy] = centre(r, c);
    const p = "1234".indexOf(tok);
    const kind = p >= 0 ? "plain" : KIND[tok];
    svg.append(el("polygon", { points: hex(cx, cy), fill: p >= 0 ? "#e7e1c8" : (FILL[tok] ?? "#ccc"), stroke: "#fff", "stroke-width": 1.2,
      "data-cell": "", "data-token": tok, "data-kind": kind, ...coordAttrs(`${r} ${c}`, "row col") }));
    const cue = { "data-cue": tok, "data-cue-for": kind };
    if (p >= 0) {
      svg.append(el("path", { d: `M${cx - 7} ${cy + 7} v-8 l7 -6 l7 6 v8 Z`, fill: playerColor(p), stroke: "#0007", "data-settlement": "", "data-player": p }));
    } else if (tok === "T") {
      svg.append(text(cx, cy + 4, "⌂", { "text-anchor": "middle", "font-size": 14, fill: "#4a3500", ...cue }));
    } else if (tok === "C") {
      svg.append(text(cx, cy + 5, "♜", { "text-anchor": "middle", "font-size": 14, fill: "#1d1830", ...cue }));
    } else if (tok === "M") {
      svg.append(el("path", { d: `M${cx - 8} ${cy + 6} L${cx} ${cy - 7} L${cx + 8} ${cy + 6} Z`, fill: "#5c5046", ...cue }));
    }
  }));
  const axes = el("g", { class: "axis", fill: BOARD_MUTED, "data-axes": "" });
  for (let c = 0; c < nCols; c++) axes.append(text(PAD + HW / 2 + c * HW, PAD - 6, c, { "text-anchor": "middle", "data-axis": "col" }));
  rows.forEach((_, r) => axes.append(text(PAD - 4 + (r % 2 ? HW / 2 : 0), PAD + R + r * 1.5 * R + 3.5, r, { "text-anchor": "end", "data-axis": "row" })));
  svg.append(axes);
  return svg;
}

export function details(frame) {
  const cards = frame?.cards && typeof frame.cards === "object" ? frame.cards : {};
  const rows = arr(frame?.rows).map(tokens);
  const counts = [1, 2, 3, 4].map((d) => rows.flat().filter((t) => t === String(d)).length);
  return [["settlements", counts], ...Object.entries(cards).map(([name, values]) => [name, arr(values)])];
}
