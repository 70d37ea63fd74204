// Carcassonne: the placed tiles (fields, castles with shields, roads, monasteries), the men on
// them in the players' colours, the last tile outlined and the tile to place next.
// Frame: {tiles: [{row, col, name, edges, center, shield, links}], men: [{player, row, col, edge}],
// men_left, tile_to_place: {name, edges, center, shield, links}, last: {row, col, player?}}. `edges` and `links` are the
// placed (rotated) ones; sides are 0 up, 1 right, 2 down, 3 left (spec 2.2).

import { el, svgRoot, text, playerColor, arr, num, coordAttrs, gridAxes } from "../svg.js";

const T = 64;
// Room for the axis numbers (rows and columns around 71) over and left of the board.
const PAD = 22;
const OUT = [[0, -1], [1, 0], [0, 1], [-1, 0]];
// The brick pattern drawn over castles, defined once in the board's <svg>.
const BRICKS = "realm-carcassonne-bricks";
const MEEPLE = "0,-10 4,-6 3,-3 9,0 8,3 4,2 6,9 1,9 0,5 -1,9 -6,9 -4,2 -8,3 -9,0 -3,-3 -4,-6";

function corners(s, size) {
  const c = [[0, 0], [size, 0], [size, size], [0, size]];
  return [c[s], c[(s + 1) % 4]];
}

function mid(s, size) {
  const [a, b] = corners(s, size);
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
}

function lerp(p, q, t) {
  return [p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t];
}

function groups(links) {
  return String(links ?? "").split(";").map((g) => g.split(",").map((i) => i.trim()).filter(Boolean)).filter((g) => g.length);
}

// Draws one tile with its top-left corner at the origin of the returned group.
function tile(t, size, attrs = {}) {
  const edges = String(t?.edges ?? "eeee");
  const g = el("g", attrs);
  const center = [size / 2, size / 2];
  g.append(el("rect", { x: 0, y: 0, width: size, height: size, fill: "#8cbf5f", stroke: "#5d8a3a", "data-kind": "field" }));
  const linkGroups = groups(t?.links);
  const castleSides = [...edges].map((e, s) => (e === "c" ? s : -1)).filter((s) => s >= 0);
  // A castle part joining several sides covers those sides' edges and bulges in between;
  // a lone castle side is a cap reaching a third of the way in.
  const done = new Set();
  for (const s of castleSides) {
    if (done.has(s)) continue;
    const grp = linkGroups.find((g) => g.includes(`${s}c`)) ?? [`${s}c`];
    const sides = grp.filter((i) => i.endsWith("c")).map((i) => Number(i[0])).filter((x) => x >= 0 && x < 4);
    sides.forEach((x) => done.add(x));
    let points;
    if (sides.length > 1) {
      points = [];
      for (let k = 0; k < 4; k++) {
        if (sides.includes(k)) points.push(...corners(k, size));
        else points.push(lerp(mid(k, size), center, 0.42));
      }
    } else {
      const [a, b] = corners(s, size);
      points = [a, b, lerp(b, center, 0.5), lerp(mid(s, size), center, 0.62), lerp(a, center, 0.5)];
    }
    const outline = points.map((p) => p.join(",")).join(" ");
    g.append(el("polygon", { points: outline, fill: "#c8873f", stroke: "#7a4a1c", "stroke-width": 1, "stroke-linejoin": "round", "data-kind": "castle" }));
    // Brickwork over the castle: a cue besides its colour, which fields and player 0's men come
    // close to for colour-blind readers.
    g.append(el("polygon", { points: outline, fill: `url(#${BRICKS})`, "data-cue": "bricks", "data-cue-for": "castle", "pointer-events": "none" }));
  }
  const roadSides = [...edges].map((e, s) => (e === "r" ? s : -1)).filter((s) => s >= 0);
  for (const s of roadSides) {
    const joined = linkGroups.some((grp) => grp.includes(`${s}r`) && grp.filter((i) => i.endsWith("r")).length > 1);
    const end = joined ? center : lerp(mid(s, size), center, 0.62);
    const [x1, y1] = mid(s, size);
    g.append(el("line", { x1, y1, x2: end[0], y2: end[1], stroke: "#6b5b45", "stroke-width": 8 }));
    g.append(el("line", { x1, y1, x2: end[0], y2: end[1], stroke: "#f3ecd8", "stroke-width": 5, "data-kind": "road" }));
  }
  // Round the bend where roads meet in the middle.
  if (roadSides.some((s) => linkGroups.some((grp) => grp.includes(`${s}r`) && grp.filter((i) => i.endsWith("r")).length > 1))) {
    g.append(el("circle", { cx: center[0], cy: center[1], r: 2.5, fill: "#f3ecd8" }));
  }
  const loneRoads = roadSides.filter((s) => !linkGroups.some((grp) => grp.includes(`${s}r`) && grp.filter((i) => i.endsWith("r")).length > 1));
  if (num(t?.center) === 1) {
    g.append(el("rect", { x: size * 0.36, y: size * 0.4, width: size * 0.28, height: size * 0.24, fill: "#f1e6cf", stroke: "#6b4d2a", "data-monastery": "" }));
    g.append(el("polygon", { points: `${size * 0.32},${size * 0.41} ${size / 2},${size * 0.27} ${size * 0.68},${size * 0.41}`, fill: "#b8402f" }));
  } else if (loneRoads.length > 0 && castleSides.length === 0 && roadSides.length > 2) {
    g.append(el("rect", { x: size * 0.42, y: size * 0.42, width: size * 0.16, height: size * 0.16, fill: "#6b5b45" }));
  }
  if (num(t?.shield) === 1 && castleSides.length) {
    const [a, b] = corners(castleSides[0], size);
    const [sx, sy] = lerp(lerp(a, b, 0.5), center, 0.28);
    g.append(el("path", { d: `M${sx - 6} ${sy - 6} h12 v6 l-6 6 l-6 -6 Z`, fill: "#f7f1e1", stroke: "#3a2a14", "stroke-width": 1.4, "data-shield": "" }));
  }
  return g;
}

// Where a man on `edge` stands inside a tile of `size`. The token is a side and a mark
// ("20" the side's own castle, road or field; "2-"/"2+" the field left/right of its road,
// looking out through that side) or "40" for the monastery; `edges` is the tile's edge text.
function manSpot(edge, edges, size) {
  const code = String(edge ?? "");
  const s = Number(code[0]);
  const center = [size / 2, size / 2];
  if (!(s >= 0 && s <= 3)) return center;
  const [ox, oy] = OUT[s];
  const left = [oy, -ox];
  const kind = code[1] ?? "";
  let p = lerp(mid(s, size), center, edges[s] === "c" ? 0.3 : 0.36);
  if (kind === "-" || kind === "+") {
    const sign = kind === "-" ? 1 : -1;
    p = [p[0] + sign * left[0] * size * 0.27, p[1] + sign * left[1] * size * 0.27];
  }
  return p;
}

export function render(frame, env) {
  const tiles = arr(frame?.tiles);
  const rows = tiles.map((t) => num(t?.row));
  const cols = tiles.map((t) => num(t?.col));
  const [r0, r1] = rows.length ? [Math.min(...rows), Math.max(...rows)] : [0, 0];
  const [c0, c1] = cols.length ? [Math.min(...cols), Math.max(...cols)] : [0, 0];
  // One empty ring around the tiles shows where the next tile can go.
  const w = (c1 - c0 + 3) * T;
  const h = (r1 - r0 + 3) * T;
  const svg = svgRoot(PAD * 2 + w, PAD * 2 + h, "Carcassonne board");
  svg.append(bricks());
  svg.append(el("rect", { x: PAD, y: PAD, width: w, height: h, rx: 6, fill: "#e9e4d6" }));
  const at = (t) => [PAD + (num(t?.col) - c0 + 1) * T, PAD + (num(t?.row) - r0 + 1) * T];
  // Every shown cell, the empty ring included, under the tiles: its `row col` for the hover
  // readout, as an answer `row col angle manEdge` names it.
  for (let row = r0 - 1; row <= r1 + 1; row++) {
    for (let col = c0 - 1; col <= c1 + 1; col++) {
      const [x, y] = at({ row, col });
      svg.append(el("rect", { x, y, width: T, height: T, fill: "transparent", ...coordAttrs(`${row} ${col}`, "row col") }));
    }
  }
  gridAxes(svg, { x0: PAD, y0: PAD, cell: T, cols: c1 - c0 + 3, rows: r1 - r0 + 3, colLabel: (i) => c0 - 1 + i, rowLabel: (j) => r0 - 1 + j });
  const edgesAt = new Map(tiles.map((t) => [`${num(t?.row)},${num(t?.col)}`, String(t?.edges ?? "")]));
  for (const t of tiles) {
    const [x, y] = at(t);
    svg.append(tile(t, T, { transform: `translate(${x},${y})`, "data-tile": t?.name ?? "" }));
  }
  const last = frame?.last;
  if (last && typeof last.row === "number") {
    const [x, y] = at(last);
    const p = typeof last.player === "number" ? last.player : null;
    svg.append(el("rect", { x: x + 1.5, y: y + 1.5, width: T - 3, height: T - 3, fill: "none", stroke: p === null ? "#222" : playerColor(p), "stroke-width": 3, "data-last": "" }));
  }
  for (const m of arr(frame?.men)) {
    const [x, y] = at(m);
    const edges = edgesAt.get(`${num(m?.row)},${num(m?.col)}`) ?? "";
    const [mx, my] = manSpot(m?.edge, edges, T);
    const p = num(m?.player);
    // A dark outline sets every man off from the castle or field it stands on.
    svg.append(el("polygon", { points: MEEPLE, transform: `translate(${x + mx},${y + my})`, fill: playerColor(p), stroke: "#111", "stroke-width": 1.5,
      "data-man": "", "data-player": p, "data-kind": `man-${p}`, "data-cue": "outline", "data-cue-for": `man-${p}` }));
  }
  // The tile to place and the men in hand go in a fixed-width HTML panel beside the board, so
  // they stay readable however far the board scales down, and long names wrap instead of
  // being clipped.
  const aside = document.createElement("div");
  aside.className = "board-aside";
  const heading = document.createElement("div");
  heading.className = "label";
  heading.textContent = "next tile";
  aside.append(heading);
  const next = frame?.tile_to_place;
  if (next && typeof next === "object") {
    const preview = el("svg", { viewBox: `-1 -1 ${T + 2} ${T + 2}`, width: T + 2, height: T + 2, class: "next-tile" });
    preview.append(tile(next, T, { "data-next-tile": next.name ?? "" }));
    aside.append(preview, wrappingName(next.name ?? ""));
  } else {
    const none = document.createElement("div");
    none.className = "small";
    // Only a game that ran its course ends with the bag empty.
    none.textContent = env?.end && env.end.kind !== "finished" ? `none (the game ended: ${env.end.kind})` : "none (bag empty)";
    aside.append(none);
  }
  const list = document.createElement("ul");
  list.className = "men-left";
  arr(frame?.men_left).forEach((n, p) => {
    const item = document.createElement("li");
    item.dataset.menLeft = p;
    const icon = el("svg", { viewBox: "-10 -11 20 21", width: 16, height: 17 });
    icon.append(el("polygon", { points: MEEPLE, fill: playerColor(p), stroke: "#111", "stroke-width": 1.5 }));
    const name = document.createElement("span");
    name.textContent = ` × ${num(n)} ${env.names[p] ?? ""}`;
    name.title = env.names[p] ?? "";
    item.append(icon, name);
    list.append(item);
  });
  aside.append(list);
  const wrap = document.createElement("div");
  wrap.className = "board-split";
  wrap.append(svg, aside);
  return wrap;
}

function bricks() {
  const pattern = el("pattern", { id: BRICKS, width: 10, height: 6, patternUnits: "userSpaceOnUse" });
  pattern.append(el("path", { d: "M0 0.5H10M0 3.5H10M3 0.5V3.5M8 3.5V6", stroke: "#6b3d14", "stroke-width": 0.8, opacity: 0.55, fill: "none" }));
  return el("defs", {}, [pattern]);
}

// A tile name such as `O_castle2_corner_shield_road`, allowed to break after each underscore.
function wrappingName(name) {
  const div = document.createElement("div");
  div.className = "tile-name";
  div.title = String(name);
  String(name).split("_").forEach((part, i, parts) => {
    div.append(part + (i < parts.length - 1 ? "_" : ""));
    if (i < parts.length - 1) div.append(document.createElement("wbr"));
  });
  return div;
}

export function details(frame) {
  return [
    ["men left", arr(frame?.men_left)],
    ["eliminated", arr(frame?.eliminated).map((e) => (e ? "yes" : ""))],
  ];
}
