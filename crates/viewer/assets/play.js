// The page of a match with a person's seat (crates/viewer/src/play.rs). It follows the match's
// state (long-polled), draws the referee's frame with the game's renderer, and lets the person
// choose among exactly the legal actions the server lists ({id, text}, the referee's own): no
// rule of any game is written here.
//
// An action's text is split into steps (a game module may say how: Kingdomino's placement, then
// its pick); the person chooses a step at a time, the buttons offering what the legal actions
// allow after the steps chosen so far. Clicking a board cell (any element with `data-coord`, in
// protocol terms) keeps the choices that mention that cell; clicking it again, or r / R, cycles
// through them (a rotation); Enter plays the highlighted one, Escape clears the cell. The hints
// toggle outlines every cell some legal action names, and shows the scores.
//
// Game-specific help lives in ./play/<slug>.js (optional): `steps(text)`, `cells(step)`,
// `scope(svg, state)` (the part of the board that holds the person's cells), `label(step)`,
// `panel(state, ui)`, `keep(step, ui)` (a further filter of the choices, e.g. the selected
// unit's moves), `click(nodes, coord, ui)` (a click the game handles itself: true if it did),
// `keys` ({key: (ui) => handled}), `decorate(svg, ui)` (marks on the drawn frame),
// `hoverPreview` (the preview follows the pointer: the first choice covering the hovered cell),
// `clickPlays` (a cell click plays that choice at once) and `help` (its keys and clicks, shown
// under the generic help line); anything it leaves out falls back
// to the generic behaviour below. The frame drawn is the referee's with the state's `view` (the
// position after the actions chosen so far, when the game has one) over it.

import { h } from "./dom.js";
import { playerPageColor } from "./svg.js";

const app = document.getElementById("play");
const matchId = app.dataset.match;
const base = `/play/${matchId}`;
const token = takeToken();

addStylesheet("/assets/play.css");

const ui = {
  state: null,
  renderer: null,
  game: {},
  chosen: [],      // the steps chosen in the action being built
  cell: null,      // the board cell the choices are filtered by
  cursor: 0,       // the highlighted choice
  selection: null, // what a game module selected (Ice and Fire: a unit), whose choices alone show
  hover: null,     // the board cell under the pointer (games with `hoverPreview`)
  frame: null,     // the frame drawn: the referee's, updated by the state's `view`
  hints: sessionStorage.getItem("realm-play-hints") === "1",
  busy: false,
  error: "",
};

main().catch((err) => app.replaceChildren(h("p", { class: "error", id: "play-error" }, `Cannot show this match: ${err.message}`)));

async function main() {
  const slug = /^[a-z0-9-]+$/.test(app.dataset.game) ? app.dataset.game : "fallback";
  ui.renderer = await import(`./renderers/${slug}.js`).catch(() => import("./renderers/fallback.js"));
  ui.game = await import(`./play/${slug}.js`).catch(() => ({}));
  // For game modules with a button of their own (Kingdom Builder's "End the turn").
  ui.play = (id) => post(`act?id=${id}`);
  build();
  document.addEventListener("keydown", onKey);
  follow(-1);
}

// The token comes in the URL's fragment (printed by `realm play`, or set by the Play form); it is
// kept for this tab only and taken out of the address bar so it is not shared by accident.
function takeToken() {
  const key = `realm-play-token-${matchId}`;
  const found = new URLSearchParams(location.hash.slice(1)).get("token");
  if (found) {
    sessionStorage.setItem(key, found);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem(key);
}

function addStylesheet(href) {
  if (document.querySelector(`link[href="${href}"]`)) return;
  document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href }));
}


const headers = () => (token ? { "X-Realm-Token": token } : {});

// Long-polls the state: the server answers at once when it changed, else after a while.
async function follow(since) {
  for (;;) {
    try {
      const response = await fetch(`${base}/state?since=${since}`, { headers: headers(), cache: "no-store" });
      if (!response.ok) throw new Error(`${response.status}`);
      const state = await response.json();
      if (isNewer(state)) show(state);
      since = state.version;
    } catch (err) {
      ui.error = "Lost contact with realm (is it still running?)";
      drawStatus();
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

// ---- layout ----

let els = {};

function build() {
  els = {
    status: h("p", { id: "play-status", class: "play-status", role: "status", "aria-live": "polite" }),
    board: h("div", { id: "play-board", class: "board play-board", onclick: onBoardClick, onmousemove: onBoardHover, onmouseleave: () => onBoardHover(null) }),
    panel: h("div", { id: "play-panel", class: "play-panel" }),
    chosen: h("ol", { id: "play-chosen", class: "play-chosen" }),
    filter: h("p", { id: "play-filter", class: "play-filter" }),
    choices: h("div", { id: "play-choices", class: "play-choices", role: "listbox", "aria-label": "Legal actions" }),
    scores: h("p", { id: "play-scores", class: "play-scores" }),
    end: h("div", { id: "play-end", class: "play-end" }),
  };
  const hints = h("label", { class: "play-hints" },
    h("input", { type: "checkbox", id: "play-hints", checked: ui.hints, onchange: (e) => { ui.hints = e.target.checked; sessionStorage.setItem("realm-play-hints", ui.hints ? "1" : "0"); draw(); } }),
    " Hints: legal targets and scores");
  const controls = h("div", { class: "play-controls" },
    h("button", { type: "button", id: "play-rotate", title: "Next choice at this cell (r)", onclick: () => cycle(1) }, "Rotate ↻"),
    h("button", { type: "button", id: "play-flip", title: "Previous choice (R)", onclick: () => cycle(-1) }, "Back ↺"),
    h("button", { type: "button", id: "play-confirm", class: "primary", title: "Play the highlighted choice (Enter)", onclick: () => confirm() }, "Play ⏎"),
    h("button", { type: "button", id: "play-clear", title: "Forget the chosen cell and steps (Escape)", onclick: () => clearChoice() }, "Clear"),
    h("button", { type: "button", id: "play-undo", title: "Take back this turn's commands not yet sent (u)", onclick: () => post("undo") }, "Undo turn"),
    h("button", { type: "button", id: "play-resign", class: "danger", onclick: resign }, "Resign"));
  app.replaceChildren(
    h("section", { class: "play-top" }, els.status, hints, els.scores),
    h("div", { class: "play-main" },
      els.board,
      h("aside", { class: "play-side" }, els.end, els.panel, controls, h("h2", {}, "This turn so far"), els.chosen, els.filter, els.choices)),
    h("p", { class: "play-help muted", id: "play-help" },
      "Click a cell to see the actions there; click it again or press r to turn through them; Enter plays; Escape clears; u takes back this turn's commands not yet sent. ",
      ui.game.help ? h("span", { id: "play-game-help" }, `${ui.game.help} `) : null,
      h("span", { id: "play-abandon" })));
}

// The answer to a move and the long poll race each other: a state older than (or the same as)
// the one shown must not replace it, or the page would step back and drop the person's choice.
function isNewer(state) {
  return !ui.state || state.version > ui.state.version;
}

// The local choice (a cell, a first step) belongs to one list of legal actions: two calls of one
// turn and seat (a Kingdomino Duel player's two kings) must not share it.
const legalKey = (state) => (state.legal ?? []).map((a) => a.id).join(",");

function show(state) {
  const sameCall = ui.state && state.call && ui.state.call && state.call.turn === ui.state.call.turn && state.call.player === ui.state.call.player && state.chosen.length === ui.state.chosen.length && legalKey(state) === legalKey(ui.state);
  ui.state = state;
  ui.frame = state.view ? { ...state.frame, ...state.view } : state.frame;
  ui.error = "";
  if (!sameCall) clearChoice(false);
  draw();
}

function draw() {
  const state = ui.state;
  if (!state) return;
  const n = state.names.length;
  const env = { nPlayers: n, names: state.names, spec: state.spec ?? {}, step: 0, call: null, prev: null, history: [ui.frame], end: state.outcome?.end ?? null };
  let svg;
  try {
    svg = ui.renderer.render(ui.frame, env);
    ui.game.decorate?.(svg, ui);
  } catch (err) {
    svg = h("p", { class: "error" }, `The renderer failed: ${err.message}`);
  }
  els.board.replaceChildren(svg);
  drawStatus();
  drawScores();
  drawChosen();
  drawChoices();
  drawBoardMarks();
  drawEnd();
  // For scripts and tests: what the page shows.
  app.dataset.version = state.version;
  app.dataset.status = state.status;
  app.dataset.steps = ui.chosen.length;
  els.panel.replaceChildren(...(ui.game.panel?.(state, ui) ?? []));
  document.getElementById("play-abandon").textContent = state.status === "over" ? "" :
    `If this page stays closed for ${state.abandon_after_s} s, you resign.`;
}

function drawStatus() {
  const state = ui.state;
  let text;
  if (ui.error) text = ui.error;
  else if (!state) text = "Loading…";
  else if (!token) text = "You are watching: this tab does not hold the match's token (open the URL realm printed).";
  else if (state.status === "waiting") text = `Your move (seat ${state.call.player}, turn ${state.call.turn}): ${state.legal.length} legal action${state.legal.length === 1 ? "" : "s"}.`;
  else if (state.status === "thinking") text = state.resigned ? "You resigned; the match is ending." : "The bots are playing…";
  else text = "The match is over.";
  els.status.textContent = text;
  els.status.dataset.status = state?.status ?? "loading";
  if (ui.busy) els.status.textContent += " (sending…)";
}

function drawScores() {
  const scores = ui.frame?.scores;
  els.scores.hidden = !(ui.hints && Array.isArray(scores));
  if (els.scores.hidden) return;
  els.scores.replaceChildren("Scores: ", ...scores.flatMap((s, p) => [
    h("span", { class: "play-score", style: `color:${playerPageColor(p)}`, "data-player": p }, `${ui.state.names[p]} ${s}`), " "]));
}

function drawEnd() {
  const state = ui.state;
  els.end.hidden = state.status !== "over";
  if (els.end.hidden) return;
  const o = state.outcome;
  const rows = o.ranks.map((rank, p) => h("li", { "data-player": p }, `#${rank} ${state.names[p]}: ${o.scores[p]}${o.faults[p] ? ` (${o.faults[p].kind}: ${o.faults[p].detail})` : ""}`));
  const you = state.humans.map((p) => o.ranks[p]);
  const verdict = you.every((r) => r === 1) ? (o.ranks.filter((r) => r === 1).length > 1 ? "A draw at the top." : "You win!") : "You lose.";
  els.end.replaceChildren(h("h2", { id: "play-verdict" }, verdict), h("ol", { class: "play-result" }, rows),
    state.replay ? h("p", {}, h("a", { href: state.replay, id: "play-replay" }, "Watch the replay")) : h("p", {}, "No replay was written."));
}

function drawChosen() {
  const state = ui.state;
  const items = state.chosen.map((t) => h("li", {}, t.replace(/\n/g, " · ")));
  els.chosen.replaceChildren(...items);
  els.chosen.hidden = !items.length;
  els.chosen.previousElementSibling.hidden = !items.length;
}

// ---- the choices ----

const steps = (text) => ui.game.steps?.(text) ?? [text];
const stepCells = (step) => ui.game.cells?.(step, ui.state) ?? genericCells(step);
const label = (step) => ui.game.label?.(step, ui.state) ?? step;

// Every "a b" pair of integers in a text, as the board's `data-coord` spells cells.
function genericCells(text) {
  const nums = String(text).match(/-?\d+/g) ?? [];
  const out = [];
  for (let i = 0; i + 1 < nums.length; i++) out.push(`${nums[i]} ${nums[i + 1]}`);
  return out;
}

// The legal actions that agree with the steps chosen so far.
function matching() {
  return (ui.state?.legal ?? []).filter((a) => {
    const s = steps(a.text);
    return ui.chosen.every((c, i) => s[i] === c);
  });
}

// The distinct next steps: [{step, actions}], filtered by the chosen cell.
function choices() {
  const k = ui.chosen.length;
  const byStep = new Map();
  for (const a of matching()) {
    const step = steps(a.text)[k];
    if (step === undefined) continue;
    if (!byStep.has(step)) byStep.set(step, []);
    byStep.get(step).push(a);
  }
  let list = [...byStep].map(([step, actions]) => ({ step, actions }));
  if (ui.game.keep) list = list.filter((c) => ui.game.keep(c.step, ui));
  if (ui.cell !== null) list = list.filter((c) => stepCells(c.step).includes(ui.cell));
  return list;
}

function drawChoices() {
  const state = ui.state;
  const mine = state.status === "waiting" && token;
  const list = mine ? choices() : [];
  if (ui.cursor >= list.length) ui.cursor = 0;
  els.filter.replaceChildren(...(!mine ? [] : [
    ui.cell === null ? "All choices" : `Choices at cell ${ui.cell}`,
    ui.chosen.length ? ` after ${ui.chosen.map((c) => label(c)).join(", ")}` : "",
    ` (${list.length})`]));
  els.choices.replaceChildren(...list.map((c, i) => h("button", {
    type: "button", class: "play-choice", role: "option", "aria-selected": i === ui.cursor ? "true" : "false",
    "data-step": c.step, "data-ids": c.actions.map((a) => a.id).join(" "),
    onclick: () => { ui.cursor = i; confirm(); },
    onmouseenter: () => { ui.cursor = i; drawBoardMarks(); markCursor(); },
  }, label(c.step))));
  if (mine && !list.length) els.choices.append(h("p", { class: "muted" }, ui.cell === null ? "Nothing to choose." : "No legal action at this cell: click another one or Clear."));
  for (const b of document.querySelectorAll(".play-controls button")) b.disabled = !mine && b.id !== "play-resign";
  document.getElementById("play-resign").disabled = !token || state.status === "over";
}

function markCursor() {
  els.choices.querySelectorAll(".play-choice").forEach((b, i) => b.setAttribute("aria-selected", i === ui.cursor ? "true" : "false"));
  els.choices.children[ui.cursor]?.scrollIntoView?.({ block: "nearest" });
}

function cycle(by) {
  const n = choices().length;
  if (!n) return;
  ui.cursor = (ui.cursor + by + n) % n;
  markCursor();
  drawBoardMarks();
}

function clearChoice(redraw = true) {
  ui.chosen = [];
  ui.cell = null;
  ui.cursor = 0;
  ui.selection = null;
  if (redraw && ui.state) draw();
}

// Plays the highlighted choice: a step that completes exactly one action sends it; otherwise the
// step is kept and the next step is chosen.
async function confirm() {
  const c = current(choices());
  if (!c || ui.busy) return;
  const k = ui.chosen.length;
  const complete = c.actions.filter((a) => steps(a.text).length === k + 1);
  if (complete.length === 1 && c.actions.length === 1) {
    await post(`act?id=${complete[0].id}`);
    return;
  }
  ui.chosen.push(c.step);
  ui.cell = null;
  ui.cursor = 0;
  draw();
}

async function post(what) {
  if (!token) return;
  ui.busy = true;
  drawStatus();
  try {
    const response = await fetch(`${base}/${what}`, { method: "POST", headers: headers() });
    const body = await response.json();
    if (!response.ok) ui.error = `Refused: ${body.error}`;
    else if (isNewer(body)) {
      clearChoice(false);
      show(body);
    }
  } catch (err) {
    ui.error = `Could not send: ${err.message}`;
  } finally {
    ui.busy = false;
    drawStatus();
  }
}

function resign() {
  if (window.confirm("Resign this match?")) post("resign");
}

// ---- the board ----

// The part of the board where the person's cells are (Kingdomino: their own kingdom).
function scope() {
  const svg = els.board.querySelector("svg");
  if (!svg) return null;
  return ui.game.scope?.(svg, ui.state) ?? svg;
}

// The choice the preview shows and Enter plays: with `hoverPreview`, the first one covering the
// hovered cell (none where nothing legal covers it); otherwise the highlighted one.
function current(list) {
  if (ui.game.hoverPreview && ui.cell === null && ui.chosen.length) {
    return ui.hover === null ? undefined : list.find((c) => stepCells(c.step).includes(ui.hover));
  }
  return list[ui.cursor];
}

// The board cell (its `data-coord`) under a point, within the person's part of the board.
function cellAt(nodes) {
  const root = scope();
  return nodes.find((n) => n.dataset?.coord !== undefined && root?.contains(n))?.dataset.coord ?? null;
}

function onBoardClick(e) {
  if (ui.state?.status !== "waiting" || !token) return;
  const nodes = document.elementsFromPoint(e.clientX, e.clientY);
  const coord = cellAt(nodes);
  if (ui.game.click?.(nodes, coord, ui)) {
    ui.cursor = 0;
    draw();
    return;
  }
  if (coord === null) return;
  if (coord === ui.cell) {
    cycle(1);
    return;
  }
  ui.cell = coord;
  ui.cursor = 0;
  if (ui.game.clickPlays && ui.chosen.length) {
    // Plays the placement previewed there, if any; elsewhere the click does nothing.
    if (choices().length) confirm();
    else ui.cell = null;
    return;
  }
  draw();
}

function onBoardHover(e) {
  if (!ui.game.hoverPreview) return;
  const coord = e ? cellAt(document.elementsFromPoint(e.clientX, e.clientY)) : null;
  if (coord === ui.hover) return;
  ui.hover = coord;
  drawBoardMarks();
}

// Outlines: with hints on, every cell a legal next step names; always, the highlighted choice's
// cells and the chosen cell.
function drawBoardMarks() {
  const root = scope();
  if (!root) return;
  root.querySelectorAll("[data-play-mark]").forEach((n) => n.remove());
  if (ui.state?.status !== "waiting" || !token) return;
  const cellsOf = new Map();
  for (const n of root.querySelectorAll("[data-coord]")) if (!cellsOf.has(n.dataset.coord)) cellsOf.set(n.dataset.coord, n);
  const mark = (coord, kind) => {
    const n = cellsOf.get(coord);
    // Square cells are rects, hexes polygons (Kingdom Builder).
    if (!n || !["rect", "polygon"].includes(n.tagName.toLowerCase())) return;
    const r = n.cloneNode(false);
    for (const a of ["data-coord", "data-coord-name"]) r.removeAttribute(a);
    r.setAttribute("data-play-mark", kind);
    r.setAttribute("data-mark-coord", coord);
    r.setAttribute("class", `play-mark play-mark-${kind}`);
    r.setAttribute("pointer-events", "none");
    n.parentNode.append(r);
  };
  const list = choices();
  if (ui.hints) {
    const all = new Set();
    const saved = ui.cell;
    ui.cell = null;
    for (const c of choices()) for (const x of stepCells(c.step)) all.add(x);
    ui.cell = saved;
    for (const x of all) mark(x, "hint");
  }
  // A selection (Ice and Fire: a unit) shows where its choices lead.
  if (ui.selection !== null && ui.cell === null) for (const c of list) for (const x of stepCells(c.step)) mark(x, "target");
  const shown = current(list);
  if (shown) for (const x of ui.game.previewCells?.(shown.step, ui.state) ?? stepCells(shown.step)) mark(x, "preview");
  root.dataset.preview = shown?.step ?? "";
  if (ui.cell !== null) mark(ui.cell, "cell");
}

function onKey(e) {
  if (e.target.closest?.("input, textarea, select")) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const keys = {
    r: () => cycle(1),
    R: () => cycle(-1),
    f: () => cycle(-1),
    ArrowDown: () => cycle(1),
    ArrowUp: () => cycle(-1),
    Enter: () => confirm(),
    Escape: () => clearChoice(),
    u: () => post("undo"),
  };
  // Enter on a focused button is the button's own click.
  if (e.key === "Enter" && e.target.closest?.("button, a")) return;
  const own = ui.game.keys?.[e.key];
  if (own && ui.state?.status === "waiting" && own(ui)) {
    e.preventDefault();
    ui.cursor = 0;
    draw();
    return;
  }
  if (keys[e.key]) {
    e.preventDefault();
    keys[e.key]();
  }
}
