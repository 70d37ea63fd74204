// Kingdom Builder: the 20x20 hex board (pointy-top, odd rows shifted right half a hex).
// A scored board (realm score): water, mountains, towns, castles and the players' settlements,
// plus per-card scores. Frame: {rows: [20 strings of tokens '.', 'W', 'M', 'T', 'C', '1'-'4'],
// scores, cards: {name: [..]}, counted: {name: [per player [[row, col], ...]]}}. A card's button
// rings the settlements that card counted.
// A match (the full game, view::match_frame) adds map: [20 rows of terrain letters], locations:
// [{row, col, kind, left, held_by}], tiles: [per seat [{kind, row, col}]], card: [per seat letter
// or null], supply, eliminated, scoring_cards, deck: {pile, discards}, mover, last_round and
// last: {player, commands}. Terrains carry their map letter as a second cue beside the colour;
// the last turn's cells are outlined in the mover's colour.

import { el, svgRoot, text, playerColor, arr, num, coordAttrs, BOARD_MUTED } from "../svg.js";

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

export function render(frame, env) {
  if (Array.isArray(frame?.map)) return matchBoard(frame, env);
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
  const n = Math.max(1, num(frame?.players, 0) || arr(frame?.scores).length);
  const counts = [1, 2, 3, 4].slice(0, Array.isArray(frame?.map) ? n : 4)
    .map((d) => rows.flat().filter((t) => t === String(d)).length);
  const extra = Array.isArray(frame?.map)
    ? [["in supply", arr(frame.supply)], ["tiles", arr(frame.tiles).map((t) => arr(t).map((x) => String(x?.kind ?? "").toLowerCase()).join(" "))]]
    : [];
  return [["settlements", counts], ...extra, ...Object.entries(cards).map(([name, values]) => [name, arr(values)])];
}

// ---- the full game's match frames ----

// Map letters (RULES.md G5): the five card terrains, water, mountain, castle, and the eight
// location hexes, all of kind "location" with their tile's letter.
const TERRAIN = {
  G: ["grass", "#9fd36b"], C: ["canyon", "#c8825a"], D: ["desert", "#f3dd93"], F: ["flower", "#e3b5ea"],
  T: ["forest", "#2f6b3a"], W: ["water", "#5b9bd5"], M: ["mountain", "#6b5e52"], K: ["castle", "#9a8fb5"],
};
const LOCATION = { O: "ORACLE", A: "FARM", V: "TAVERN", R: "TOWER", H: "HARBOR", P: "PADDOCK", B: "BARN", S: "OASIS" };
const LOCATION_FILL = "#f6f3ea";
// Letters in white on the two dark terrains, in near-black elsewhere (contrast 4.5:1 or more).
const DARK = new Set(["T", "M"]);

// The cells a turn's commands name: BUILD r c, TILE KIND r c, MOVE KIND r1 c1 r2 c2.
function commandCells(commands) {
  const cells = [];
  for (const command of arr(commands)) {
    const words = String(command).trim().split(/\s+/);
    const numbers = words.slice(words[0]?.toUpperCase() === "BUILD" ? 1 : 2).map(Number);
    for (let i = 0; i + 1 < numbers.length; i += 2) {
      if (Number.isInteger(numbers[i]) && Number.isInteger(numbers[i + 1])) cells.push(`${numbers[i]} ${numbers[i + 1]}`);
    }
  }
  return [...new Set(cells)];
}

function terrainCell(svg, letter, cx, cy, settled, attrs) {
  const location = LOCATION[letter];
  const [kind, fill] = location ? ["location", LOCATION_FILL] : (TERRAIN[letter] ?? ["unknown", "#ccc"]);
  svg.append(el("polygon", { points: hex(cx, cy), fill, stroke: "#fff", "stroke-width": 1.2, "data-kind": kind, ...attrs }));
  const ink = DARK.has(letter) && !location ? "#fff" : "#111";
  const at = settled ? [cx + 8, cy - 4, 7] : [cx, cy + 4, location ? 12 : 10];
  svg.append(text(at[0], at[1], letter, { "text-anchor": "middle", "font-size": at[2], "font-weight": location ? 700 : 400,
    fill: ink, "data-cue": letter, "data-cue-for": kind }));
}

function matchBoard(frame, env) {
  const map = arr(frame.map).map(tokens);
  const rows = arr(frame.rows).map(tokens);
  const nCols = Math.max(1, ...map.map((r) => r.length));
  const width = PAD * 2 + (nCols + 0.5) * HW;
  const height = PAD * 2 + (map.length - 1) * 1.5 * R + 2 * R;
  const svg = svgRoot(width, height, "Kingdom Builder board");
  map.forEach((row, r) => row.forEach((letter, c) => {
    const [cx, cy] = centre(r, c);
    const tok = rows[r]?.[c] ?? ".";
    const p = "1234".indexOf(tok);
    terrainCell(svg, letter, cx, cy, p >= 0, { "data-cell": "", "data-token": tok, ...coordAttrs(`${r} ${c}`, "row col") });
    if (p >= 0) {
      svg.append(el("path", { d: `M${cx - 7} ${cy + 7} v-8 l7 -6 l7 6 v8 Z`, fill: playerColor(p), stroke: "#0007", "data-settlement": "", "data-player": p }));
    }
  }));
  for (const loc of arr(frame.locations)) {
    const [r, c] = [num(loc?.row, -1), num(loc?.col, -1)];
    if (r < 0 || c < 0) continue;
    const [cx, cy] = centre(r, c);
    const left = num(loc?.left, 0);
    const g = el("g", { "data-location": String(loc?.kind ?? ""), "data-left": left }, [el("title", {}, [`${loc?.kind} · ${left} tile(s) left`])]);
    for (let i = 0; i < left; i++) g.append(el("circle", { cx: cx - 5 + i * 10, cy: cy + 9, r: 2.6, fill: "#4a3500", "data-tile-left": "" }));
    svg.append(g);
  }
  const last = frame.last && typeof frame.last === "object" ? frame.last : null;
  if (last) {
    const colour = playerColor(num(last.player, 0));
    for (const cell of commandCells(last.commands)) {
      const [r, c] = cell.split(" ").map(Number);
      const [cx, cy] = centre(r, c);
      svg.append(el("polygon", { points: hex(cx, cy), fill: "none", stroke: "#111", "stroke-width": 4, "data-last": cell, "pointer-events": "none" }));
      svg.append(el("polygon", { points: hex(cx, cy), fill: "none", stroke: colour, "stroke-width": 2, "pointer-events": "none" }));
    }
  }
  const axes = el("g", { class: "axis", fill: BOARD_MUTED, "data-axes": "" });
  for (let c = 0; c < nCols; c++) axes.append(text(PAD + HW / 2 + c * HW, PAD - 6, c, { "text-anchor": "middle", "data-axis": "col" }));
  map.forEach((_, r) => axes.append(text(PAD - 4 + (r % 2 ? HW / 2 : 0), PAD + R + r * 1.5 * R + 3.5, r, { "text-anchor": "end", "data-axis": "row" })));
  svg.append(axes);
  const wrap = document.createElement("div");
  wrap.className = "board-split";
  wrap.append(svg, matchAside(frame, env, last));
  return wrap;
}

function line(parent, label, value, attrs = {}) {
  const div = document.createElement("div");
  div.className = "small";
  const b = document.createElement("b");
  b.textContent = `${label} `;
  div.append(b, String(value));
  Object.entries(attrs).forEach(([k, v]) => div.setAttribute(k, v));
  parent.append(div);
}

// Beside the board: the mover's card, the scoring cards, the deck, each seat's tiles and the
// last turn's commands.
function matchAside(frame, env, last) {
  const aside = document.createElement("div");
  aside.className = "board-aside";
  const heading = document.createElement("div");
  heading.className = "label";
  heading.textContent = frame.last_round ? "last round" : "the game";
  aside.append(heading);
  const mover = typeof frame.mover === "number" ? frame.mover : null;
  const card = mover === null ? null : arr(frame.card)[mover];
  const name = (p) => arr(env?.names)[p] ?? `player ${p}`;
  if (typeof card === "string") line(aside, `${name(mover)}'s card`, `${card} ${TERRAIN[card]?.[0] ?? ""}`, { "data-card": card });
  line(aside, "scoring", arr(frame.scoring_cards).join(", "), { "data-scoring-cards": "" });
  const deck = frame.deck && typeof frame.deck === "object" ? frame.deck : {};
  line(aside, "deck", `${num(deck.pile, 0)} to draw, discards ${String(deck.discards ?? "") || "none"}`);
  arr(frame.tiles).forEach((tiles, p) => {
    const kinds = arr(tiles).map((t) => String(t?.kind ?? "").toLowerCase());
    line(aside, `${name(p)}'s tiles`, kinds.join(", ") || "none", { "data-seat-tiles": p, "data-count": kinds.length });
  });
  if (last) line(aside, `${name(num(last.player, 0))} played`, arr(last.commands).join("; ") || "(no command)", { "data-last-commands": "" });
  return aside;
}
