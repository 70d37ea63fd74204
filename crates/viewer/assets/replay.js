// The replay page: loads one replay JSON (the URL is in #app's data-src), picks the game's
// renderer by slug (./renderers/<slug>.js, or the fallback that prints the frame), and shows
// step by step the board, the call that led to it (input, output, stderr, verdict), the scores
// and a chart. Step 0 is the initial frame; step i is the frame after call i.
//
// As a debugger: faults and warnings are marked on the slider (keys f / F jump between them),
// Shift+arrows step a whole round (every seat's call of a game turn), the console lists every
// player's stderr with a filter, and any call's stdin so far downloads as a file that
// reproduces the decision outside realm.
//
// This file knows nothing about any game: renderers receive one frame and return an <svg>.

import { drawChart, scoreSeries } from "./chart.js";
import { playerColor, playerPageColor } from "./svg.js";

const app = document.getElementById("app");
const SPEEDS = [0.5, 1, 2, 4, 8, 16];
// The replay format this viewer knows (crates/core REPLAY_FORMAT_VERSION, CHANGELOG.md).
const KNOWN_FORMAT = 1;
// ANSI escape sequences (colours, cursor moves) a bot may write to stderr: shown as plain text.
const ANSI = /\u001b\[[0-9;?]*[ -\/]*[@-~]/g;
const stripAnsi = (text) => text.replace(ANSI, "");

main().catch((err) => {
  app.replaceChildren(h("p", { class: "error", id: "load-error" }, `Cannot show this replay: ${err.message}`));
});

async function main() {
  const response = await fetch(app.dataset.src);
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
  const text = await response.text();
  const replay = JSON.parse(text);
  // Seeds are 64-bit: JSON.parse rounds those above 2^53, so the title shows the seed's digits
  // as written (the spec object's seed comes before its nested options).
  const exactSeed = text.match(/"spec"\s*:\s*\{[^{}]*?"seed"\s*:\s*(-?\d+)/);
  if (exactSeed && replay?.spec) replay.spec.seed = exactSeed[1];
  const renderer = await loadRenderer(replay?.spec?.game);
  new Viewer(replay, renderer).mount();
}

async function loadRenderer(slug) {
  if (typeof slug === "string" && /^[a-z0-9-]+$/.test(slug)) {
    try {
      return await import(`./renderers/${slug}.js`);
    } catch (err) {
      console.warn(`no renderer for ${slug}`, err);
    }
  }
  return import("./renderers/fallback.js");
}

// Control icons as inline SVG paths: the media-control characters are missing from many fonts.
const ICONS = {
  first: "M3 2h2v12H3zM14 2v12L6 8z",
  prev: "M12 2v12L4 8z",
  play: "M4 2v12l10-6z",
  pause: "M3 2h4v12H3zM9 2h4v12H9z",
  next: "M4 2v12l8-6zM12 2h2v12h-2z",
  last: "M2 2v12l8-6zM11 2h2v12h-2z",
};

function icon(name) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "icon");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICONS[name]);
  svg.append(path);
  return svg;
}

// Builds an HTML element: h("div", {class: "x"}, child, "text", ...).
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// A name as text with line-break chances after ':', '/' and '_' and before '#', so that
// "builtin:greedy#2" wraps as "builtin:" / "greedy#2" rather than inside a word.
function breakable(name) {
  return String(name).split(/(?<=[:/_])|(?=#)/).flatMap((part, i) => (i ? [h("wbr"), part] : [part]));
}

class Viewer {
  constructor(replay, renderer) {
    this.replay = replay;
    this.renderer = renderer;
    this.turns = Array.isArray(replay.turns) ? replay.turns : [];
    this.frames = [replay.initial_frame ?? {}, ...this.turns.map((t) => t.frame ?? {})];
    this.names = (replay.players ?? []).map((p, i) => p?.name ?? `player ${i}`);
    this.nPlayers = Math.max(replay.spec?.n_players ?? 0, this.names.length);
    while (this.names.length < this.nPlayers) this.names.push(`player ${this.names.length}`);
    this.series = scoreSeries(this.frames, this.nPlayers);
    this.marks = callMarks(this.turns);
    this.rounds = roundStarts(this.turns);
    this.step = 0;
    this.timer = null;
    this.speed = 2;
    // Which of the call's blocks (output, stderr, input) the reader folded: kept across steps.
    this.folded = new Set();
  }

  get last() {
    return this.frames.length - 1;
  }

  mount() {
    const spec = this.replay.spec ?? {};
    const title = [spec.game ?? "unknown game", spec.variant, spec.league != null ? `league ${spec.league}` : null]
      .filter(Boolean)
      .join(" · ");
    // A single position (a scored board) has no seed to speak of and nothing to play.
    const single = this.last === 0;
    const seed = single ? "" : ` · seed ${spec.seed}`;
    document.title = [app.dataset.context, `${title}${seed}`, "realm"].filter(Boolean).join(" · ");

    this.slider = h("input", { type: "range", id: "step-slider", min: 0, max: this.last, value: 0, "aria-label": "step",
      oninput: () => this.go(Number(this.slider.value)) });
    this.number = h("input", { type: "number", id: "step-input", min: 0, max: this.last, value: 0, "aria-label": "jump to step",
      onchange: () => this.go(Number(this.number.value)) });
    this.playButton = h("button", { id: "play", title: "play / pause (space)", onclick: () => this.toggle() }, icon("play"));
    const speed = h("select", { id: "speed", "aria-label": "speed", onchange: (e) => this.setSpeed(Number(e.target.value)) },
      SPEEDS.map((s) => h("option", { value: s, selected: s === this.speed }, `${s} steps/s`)));
    const controls = h("div", { class: "controls" },
      h("button", { id: "first", title: "first step (Home)", onclick: () => this.go(0) }, icon("first")),
      h("button", { id: "prev", title: "previous step (←)", onclick: () => this.go(this.step - 1) }, icon("prev")),
      this.playButton,
      h("button", { id: "next", title: "next step (→)", onclick: () => this.go(this.step + 1) }, icon("next")),
      h("button", { id: "last", title: "last step (End)", onclick: () => this.go(this.last) }, icon("last")),
      this.last > 0 ? [
        h("button", { id: "prev-round", title: "previous round: every seat's call of a game turn (Shift+←)", onclick: () => this.goRound(-1) }, "‹ round"),
        h("button", { id: "next-round", title: "next round: every seat's call of a game turn (Shift+→)", onclick: () => this.goRound(1) }, "round ›"),
      ] : null,
      speed, this.sliderWithMarks(),
      h("label", { class: "step-box" }, "step ", this.number, ` / ${this.last}`),
      this.turnBox(),
      this.marks.length ? [
        h("button", { id: "prev-mark", title: "previous fault or warning (Shift+F)", onclick: () => this.goMark(-1) }, "‹ fault"),
        h("button", { id: "next-mark", title: "next fault or warning (F)", onclick: () => this.goMark(1) }, "fault ›"),
      ] : null);

    this.console = new Console(this.turns, this.names);
    this.board = h("div", { id: "board", class: "board", onpointermove: (e) => this.showCoord(e),
      onpointerleave: () => (this.coordTip.hidden = true) });
    // The cell under the pointer, in the game's protocol terms (renderers mark cells with
    // data-coord), so an answer such as `MOVE 6 9 4` can be found on the board.
    this.coordTip = h("div", { class: "coord-tip", id: "coord-tip", hidden: true });
    this.callBox = h("section", { id: "call", class: "panel" });
    this.scoreBox = h("section", { id: "scores", class: "panel" });
    this.chartBox = h("div", { id: "chart" });
    this.ioBox = h("section", { id: "io", class: "panel" });
    // Says each step as it is shown (a screen reader reads it out; sighted readers see the board).
    this.announcer = h("p", { id: "step-status", class: "visually-hidden", "aria-live": "polite", "aria-atomic": "true" });

    const players = h("ul", { class: "players" }, this.names.map((n, i) =>
      h("li", { "data-seat": i }, h("span", { class: "swatch", style: `background:${playerColor(i)}` }), `${n}`,
        h("small", {}, ` ${this.replay.players?.[i]?.command ?? ""}`))));
    // replaceChildren would write an absent part (null) as the text "null".
    app.replaceChildren(...[
      h("div", { class: "replay-head" },
        h("h1", {}, title, single ? null : h("small", {}, ` seed ${spec.seed ?? "?"}`)),
        players,
        this.outcomeBox(),
        h("a", { id: "raw-json", href: app.dataset.src, title: "the replay file as realm wrote it" }, "raw JSON")),
      this.formatWarning(),
      single ? null : controls,
      this.announcer,
      h("div", { class: "replay-body" },
        this.board,
        h("aside", { class: "side" }, this.callBox, this.scoreBox, this.chartBox, this.ioBox)),
      // A single position (a scored board) has no calls and so no console.
      this.last > 0 ? this.console.node : null].filter(Boolean));

    document.addEventListener("keydown", (e) => this.onKey(e));
    // `#step=N` (or `#turn=T`) edited in the address bar moves the replay there.
    window.addEventListener("hashchange", () => this.goToHash());
    this.goToHash();
    app.dataset.ready = "true";
  }

  // A replay written by a newer realm may hold what this viewer cannot show.
  formatWarning() {
    const version = Number(this.replay.format_version);
    if (!(version > KNOWN_FORMAT)) return null;
    return h("p", { class: "note", id: "format-warning", role: "alert" },
      `This replay is format ${version}; this viewer knows format ${KNOWN_FORMAT}: parts may be missing or wrong. A newer realm shows it fully.`);
  }

  goToHash() {
    const stepInHash = /step=(\d+)/.exec(location.hash);
    const turnInHash = /turn=(\d+)/.exec(location.hash);
    const step = stepInHash ? Number(stepInHash[1]) : turnInHash ? this.stepOfTurn(Number(turnInHash[1])) : 0;
    if (step !== this.step || !this.board.dataset.step) this.go(step);
  }

  // The game's own turn numbers: one call per step, several calls per turn (Kingdomino's two
  // kings, every seat of a multi-player game), so "jump to turn" is not "jump to step".
  turnOfStep(step) {
    if (step > 0) return this.turns[step - 1]?.turn;
    const t = this.frames[0]?.turn;
    return Number.isFinite(t) ? t : this.turns[0]?.turn;
  }

  // The step showing the first call of `turn` (or of the first later turn).
  stepOfTurn(turn) {
    const i = this.turns.findIndex((t) => Number(t?.turn) >= turn);
    return i < 0 ? this.last : i + 1;
  }

  turnBox() {
    const known = this.turns.map((t) => t?.turn).filter(Number.isFinite);
    if (!known.length) return null;
    const [lo, hi] = [Math.min(...known), Math.max(...known)];
    this.turnInput = h("input", { type: "number", id: "turn-input", min: lo, max: hi, "aria-label": "jump to game turn",
      onchange: () => this.go(this.stepOfTurn(Number(this.turnInput.value))) });
    return h("label", { class: "step-box", title: "the game's turn number (a turn may take several calls)" },
      "turn ", this.turnInput, ` / ${hi}`);
  }

  outcomeBox() {
    const o = this.replay.outcome;
    if (!o) return h("p", { class: "outcome" }, "no outcome recorded");
    const end = o.end ?? {};
    let reason = end.kind ?? "?";
    if (end.kind === "fault") reason = `fault: ${this.names[end.player] ?? end.player} ${end.fault ?? ""}`;
    const endFault = end.kind === "fault" ? this.faultStep(end.player) : null;
    const order = (o.ranks ?? []).map((r, i) => [r, i]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return h("div", { class: "outcome", id: "outcome" },
      endFault ? h("a", { class: "end", "data-end": end.kind, href: `#step=${endFault}`, "data-fault-step": endFault }, `end: ${reason}`)
        : h("span", { class: "end", "data-end": end.kind ?? "" }, `end: ${reason}`),
      o.detail ? h("span", { class: "detail" }, ` (${o.detail})`) : null,
      h("ol", { class: "ranks" }, order.map(([r, i]) =>
        h("li", { "data-rank": r, style: `border-color:${playerColor(i)}` },
          `#${r} ${this.names[i]} `, h("b", {}, o.scores?.[i] ?? ""),
          o.faults?.[i] ? this.faultLink(i, o.faults[i]) : null))));
  }

  // A player's fault in the header, as a link to the call that faulted (when the replay has it).
  faultLink(player, fault) {
    const label = ` ${fault.kind} @${fault.turn}: ${fault.detail}`;
    const step = this.faultStep(player);
    if (step === null) return h("em", { class: "fault" }, label);
    return h("a", { class: "fault", href: `#step=${step}`, "data-fault-step": step, title: "go to the call that faulted" }, label);
  }

  // The step of the player's faulted call: its last call with a fault verdict.
  faultStep(player) {
    for (let i = this.turns.length - 1; i >= 0; i--) {
      if (this.turns[i]?.player === player && this.turns[i]?.verdict?.status === "fault") return i + 1;
    }
    return null;
  }

  // The slider with a tick above it for every faulted or warned call; a tick is a link there.
  sliderWithMarks() {
    const span = Math.max(1, this.last);
    const ticks = this.marks.map((m) => h("a", { class: `mark ${m.kind}`, href: `#step=${m.step}`, "data-mark-step": m.step,
      "data-mark-kind": m.kind, title: `step ${m.step}: ${m.text}`, style: `left:${(100 * m.step) / span}%` }));
    return h("div", { class: "slider-wrap" }, this.slider, h("div", { class: "slider-marks", "aria-hidden": "true" }, ticks));
  }

  // Moves to the next (dir 1) or previous (dir -1) faulted or warned call.
  goMark(dir) {
    const steps = this.marks.map((m) => m.step);
    const target = dir > 0 ? steps.find((s) => s > this.step) : steps.findLast((s) => s < this.step);
    if (target !== undefined) this.go(target);
  }

  // Moves to the first call of the next (dir 1) or previous (dir -1) round.
  goRound(dir) {
    if (dir > 0) {
      this.go(this.rounds.find((s) => s > this.step) ?? this.last);
    } else {
      this.go(this.rounds.findLast((s) => s < this.step) ?? 0);
    }
  }

  go(step) {
    if (!Number.isFinite(step)) return;
    this.step = Math.max(0, Math.min(this.last, Math.round(step)));
    if (this.step === this.last) this.pause();
    this.slider.value = this.step;
    this.number.value = this.step;
    if (this.turnInput) this.turnInput.value = this.turnOfStep(this.step) ?? "";
    if (location.hash !== `#step=${this.step}`) history.replaceState(null, "", `#step=${this.step}`);
    this.draw();
  }

  toggle() {
    if (this.timer) this.pause();
    else this.play();
  }

  play() {
    if (this.step >= this.last) this.go(0);
    this.timer = setInterval(() => this.go(this.step + 1), 1000 / this.speed);
    this.playButton.replaceChildren(icon("pause"));
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    if (this.playButton) this.playButton.replaceChildren(icon("play"));
  }

  setSpeed(speed) {
    this.speed = speed;
    if (this.timer) {
      this.pause();
      this.play();
    }
  }

  onKey(e) {
    if (e.target instanceof HTMLInputElement) return;
    // The speed menu keeps Up/Down for itself; Left/Right still step.
    if (e.target instanceof HTMLSelectElement && !["ArrowLeft", "ArrowRight"].includes(e.key)) return;
    // Space and Enter on a focused button are that button's click: not also a toggle.
    if (e.target instanceof HTMLButtonElement && (e.key === " " || e.key === "Enter")) return;
    // Likewise on a panel's heading (a <summary>): they fold it.
    if (e.target instanceof Element && e.target.closest("summary") && (e.key === " " || e.key === "Enter")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const keys = {
      ArrowRight: () => (e.shiftKey ? this.goRound(1) : this.go(this.step + 1)),
      ArrowLeft: () => (e.shiftKey ? this.goRound(-1) : this.go(this.step - 1)),
      f: () => this.goMark(1),
      F: () => this.goMark(-1),
      "/": () => this.console.focus(),
      Home: () => this.go(0),
      End: () => this.go(this.last),
      " ": () => this.toggle(),
    };
    if (keys[e.key]) {
      e.preventDefault();
      keys[e.key]();
    }
  }

  draw() {
    const frame = this.frames[this.step];
    const call = this.step > 0 ? this.turns[this.step - 1] : null;
    // The frame before this call, so renderers can show what the call changed.
    const prev = this.step > 0 ? this.frames[this.step - 1] : null;
    // `history`: every frame up to this one, for what a frame alone does not hold (the pieces
    // placed so far in Blocking).
    // `end`: how the match ended, on its last step only (Carcassonne's empty tile slot means
    // "bag empty" only when the game ran its course).
    const env = { nPlayers: this.nPlayers, names: this.names, spec: this.replay.spec ?? {}, step: this.step, call, prev,
      history: this.frames.slice(0, this.step + 1), end: this.step === this.last ? this.replay.outcome?.end ?? null : null };
    let svg;
    try {
      svg = this.renderer.render(frame, env);
    } catch (err) {
      console.error(err);
      svg = h("p", { class: "error" }, `The renderer failed on this frame: ${err.message}`);
    }
    this.board.replaceChildren(svg, this.coordTip);
    this.board.dataset.step = this.step;
    const words = this.describe(frame, call);
    this.board.querySelector(".board-svg")?.setAttribute("aria-label", `${this.replay.spec?.game ?? "game"} board. ${words}`);
    this.announcer.textContent = words;
    this.drawCall(call, frame);
    this.drawScores(frame, env);
    // A single position has no course to chart.
    if (this.last > 0) this.chartBox.replaceChildren(...this.chart());
    this.drawIo(call);
    this.console.show(this.step);
  }

  // The position in words, for the board's label and the step announcement: the step, every
  // seat's score, the last call's answer and who plays next (or the final ranks).
  describe(frame, call) {
    const scores = Array.isArray(frame?.scores) ? frame.scores : [];
    const parts = [this.last === 0 ? "One position" : `Step ${this.step} of ${this.last}`,
      `${this.renderer.scoreLabel ?? "score"}: ${this.names.map((n, i) => `${n} ${scores[i] ?? "?"}`).join(", ")}`];
    if (call) {
      const answer = (Array.isArray(call.output) ? call.output : []).join(", ") || "nothing";
      const fault = call.verdict?.status === "fault" ? ` (fault: ${call.verdict.fault ?? "?"})` : "";
      parts.push(`last move: ${this.names[call.player] ?? `seat ${call.player}`} (seat ${call.player}) answered ${answer}${fault}`);
    }
    const next = this.turns[this.step];
    const outcome = this.replay.outcome;
    if (next) {
      parts.push(`to play: ${this.names[next.player] ?? `seat ${next.player}`} (seat ${next.player})`);
    } else if (outcome && this.last > 0) {
      const ranks = (outcome.ranks ?? []).map((r, i) => [r, i]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      parts.push(`game over: ${ranks.map(([r, i]) => `#${r} ${this.names[i]}`).join(", ")}`);
    }
    return `${parts.join(". ")}.`;
  }

  // The score chart, labelled for screen readers, and its legend: which line is whose.
  chart() {
    const svg = drawChart(this.series, this.step, (i) => this.go(i));
    const course = this.names.map((n, i) => {
      const known = this.series[i].filter((v) => v !== null);
      return known.length ? `${n} from ${known[0]} to ${known.at(-1)}` : `${n} no scores`;
    });
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `Scores over the match, one line per player: ${course.join("; ")}. The marker is at step ${this.step}; a click goes to a step.`);
    const legend = h("ul", { class: "chart-legend", id: "chart-legend" }, this.names.map((n, i) =>
      h("li", { "data-seat": i, title: n }, h("span", { class: "swatch", style: `background:${playerColor(i)}` }), n)));
    return [svg, legend];
  }

  showCoord(e) {
    const cell = document.elementsFromPoint(e.clientX, e.clientY).find((n) => n.dataset?.coord !== undefined);
    if (!cell || !this.board.contains(cell)) {
      this.coordTip.hidden = true;
      return;
    }
    const box = this.board.getBoundingClientRect();
    this.coordTip.dataset.value = cell.dataset.coord;
    this.coordTip.replaceChildren(h("b", {}, cell.dataset.coord), ` ${cell.dataset.coordName ?? ""}`);
    this.coordTip.style.left = `${e.clientX - box.left + 14}px`;
    this.coordTip.style.top = `${e.clientY - box.top + 14}px`;
    this.coordTip.hidden = false;
  }

  drawCall(call, frame) {
    if (!call && this.last === 0) {
      this.callBox.replaceChildren(h("h2", {}, "One position"), h("p", { class: "muted" }, "This replay holds a single position and no calls."));
      return;
    }
    if (!call) {
      this.callBox.replaceChildren(h("h2", {}, "Start of the match"), h("p", { class: "muted" }, "Before the first call. Step forward with → or the buttons."));
      return;
    }
    const v = call.verdict ?? {};
    const status = v.status ?? "?";
    const label = status === "fault" ? `fault: ${v.fault ?? "?"}` : status;
    this.callBox.replaceChildren(
      h("h2", {}, `Call ${this.step} of ${this.last}`),
      h("p", {},
        h("span", { class: "swatch", style: `background:${playerColor(call.player)}` }),
        h("b", {}, this.names[call.player] ?? `player ${call.player}`),
        ` · seat ${call.player} · game turn ${call.turn ?? frame?.turn ?? "?"}`,
        call.time_us != null ? ` · ${(call.time_us / 1000).toFixed(1)} ms` : ""),
      h("p", { class: `verdict ${status}`, id: "verdict", "data-status": status }, label, v.detail ? `: ${v.detail}` : ""),
      ...arenaWarnings(call));
  }

  drawScores(frame, env) {
    const scores = Array.isArray(frame?.scores) ? frame.scores : [];
    let extra = [];
    try {
      extra = this.renderer.details ? this.renderer.details(frame, env) ?? [] : [];
    } catch (err) {
      console.error(err);
    }
    // Names and labels wrap rather than being cut, and keep their full text as a tooltip.
    const head = h("tr", {}, h("th", {}, ""), this.names.map((n, i) =>
      h("th", { style: `color:${playerPageColor(i)}`, title: n, "data-seat": i }, breakable(n))));
    const row = (label, values, attrs = {}) => h("tr", attrs, h("th", { title: label }, label),
      Array.from({ length: this.nPlayers }, (_, i) => h("td", {}, values[i] ?? "")));
    const outcome = this.step === this.last ? this.replay.outcome : null;
    // A renderer may name its running figure (Ice and Fire's is military power, not the
    // final score); at the end the outcome's scores are shown too when they differ.
    const label = this.renderer.scoreLabel ?? "score";
    // Kingdomino's final score adds tie-break points its running score leaves out.
    const finalLabel = this.renderer.finalScoreLabel ?? "final score";
    const finalScores = Array.isArray(outcome?.scores) ? outcome.scores : [];
    const showFinal = finalScores.length > 0 && finalScores.some((v, i) => v !== scores[i]);
    // Result figures beyond the score (outcome.stats: {name, values}), e.g. Kingdomino's
    // territory and crowns, shown under the final ranks.
    const stats = Array.isArray(outcome?.stats) ? outcome.stats.filter((s) => typeof s?.name === "string") : [];
    this.scoreBox.replaceChildren(
      h("h2", {}, "Scores"),
      h("table", { class: "scores" }, head,
        row(label, scores, { "data-row": "score" }),
        showFinal ? row(finalLabel, finalScores, { class: "final", "data-row": "final-score" }) : null,
        extra.map(([label, values]) => row(label, Array.isArray(values) ? values : [], { "data-detail": label })),
        outcome ? row("final rank", (outcome.ranks ?? []).map((r) => `#${r}`), { class: "final", "data-row": "rank" }) : null,
        stats.map((s) => row(s.name.replaceAll("_", " "), Array.isArray(s.values) ? s.values : [], { class: "final stat", "data-stat": s.name }))));
  }

  // How to reproduce this call outside realm: the bot's whole stdin up to this call as a file
  // (or on the clipboard), and the command that feeds it to the bot.
  reproBox(call) {
    const spec = this.replay.spec ?? {};
    const text = stdinUpTo(this.turns, this.step, call.player);
    const file = `${spec.game ?? "replay"}-seed${spec.seed ?? "x"}-seat${call.player}-step${this.step}.txt`;
    const calls = this.turns.slice(0, this.step).filter((t) => t?.player === call.player).length;
    const status = h("span", { class: "muted", id: "repro-status" });
    const copy = async () => {
      try {
        await navigator.clipboard.writeText(text);
        status.textContent = "copied";
      } catch {
        status.textContent = "the browser refused the clipboard: use the download";
      }
    };
    const command = this.replay.players?.[call.player]?.command ?? "";
    let run = `python3 mybot.py < ${file}`;
    const builtin = /^builtin:(.+)$/.exec(command);
    if (builtin && spec.seed !== undefined && /^\d+$/.test(String(spec.seed))) {
      const league = spec.league != null ? ` --league ${spec.league}` : "";
      run = `realm bot ${spec.game} ${builtin[1]} --seed ${builtinBotSeed(spec.seed, call.player)}${league} < ${file}`;
    }
    return h("div", { class: "repro", id: "repro" },
      h("span", {}, `stdin of ${calls} call${calls === 1 ? "" : "s"}:`),
      h("button", { id: "download-stdin", title: `everything the bot read up to this call, as ${file}`, onclick: () => download(file, text) }, "download"),
      h("button", { id: "copy-stdin", title: "everything the bot read up to this call", onclick: copy }, "copy"),
      h("code", { id: "repro-command", title: "the last answer this prints is this call's" }, run),
      status);
  }

  drawIo(call) {
    if (!call) {
      this.ioBox.replaceChildren();
      return;
    }
    const block = (name, lines, id) => {
      const box = h("details", { open: !this.folded.has(name), class: "io", "data-block": name },
        h("summary", {}, `${name} `, h("small", {}, `${lines.length} line${lines.length === 1 ? "" : "s"}`)),
        h("pre", { id }, lines.join("\n")));
      box.addEventListener("toggle", () => (box.open ? this.folded.delete(name) : this.folded.add(name)));
      return box;
    };
    const input = Array.isArray(call.input) ? call.input : [];
    const output = Array.isArray(call.output) ? call.output : [];
    const stderr = typeof call.stderr === "string" && call.stderr.length ? stripAnsi(call.stderr).replace(/\n$/, "").split("\n") : [];
    this.ioBox.replaceChildren(
      h("h2", {}, `What ${this.names[call.player] ?? "the player"} saw and said`),
      this.reproBox(call),
      // What the bot said first: the input is long and would push it below the fold.
      block("output", output, "io-output"),
      stderr.length ? block("stderr", stderr, "io-stderr") : h("p", { class: "muted" }, "no stderr"),
      block("input", input, "io-input"));
  }
}

// Everything `player` read on stdin up to and including the call at `step`: the inputs of its
// calls in order, one line each, newline-terminated, as the bot's process received them.
function stdinUpTo(turns, step, player) {
  const lines = turns.slice(0, step).filter((t) => t?.player === player).flatMap((t) => (Array.isArray(t.input) ? t.input : []));
  return lines.map((l) => `${l}\n`).join("");
}

// The seed realm gives a built-in bot in seat `seat` of a match with `matchSeed` (a decimal
// string; 64-bit, so BigInt): SplitMix64's first output from seed ^ (seat + 1) * C, as
// realm_arena::bot_seed computes it.
function builtinBotSeed(matchSeed, seat) {
  const mask = (1n << 64n) - 1n;
  let state = (BigInt(matchSeed) ^ ((BigInt(seat) + 1n) * 0xd1b54a32d192ed03n)) & mask;
  state = (state + 0x9e3779b97f4a7c15n) & mask;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
  return (z ^ (z >> 31n)).toString();
}

// Offers a text as a file download.
function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  const a = h("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// The arena's warnings on a call (recorded with --timings), as lines under its verdict.
function arenaWarnings(call) {
  const out = [];
  if (call.late === true) out.push(h("p", { class: "verdict warning", "data-arena-warning": "late" }, "late: answered after the time limit, accepted within --time-margin"));
  if (call.stderr_after_answer === true) out.push(h("p", { class: "verdict warning", "data-arena-warning": "stderr-after-answer" }, "stderr written after the answer line: it shows with this seat's next call"));
  return out;
}

// Faulted and warned calls: {step, kind: "fault" | "warning", text}. Besides the referee's
// verdicts, the arena's own warnings, recorded with --timings: an answer accepted late within
// --time-margin (`late`), stderr written after the answer line (`stderr_after_answer`).
function callMarks(turns) {
  return turns.flatMap((t, i) => {
    const v = t?.verdict ?? {};
    const notes = [];
    if (v.status === "fault" || v.status === "warning") notes.push([v.status, v.fault, v.detail].filter(Boolean).join(": "));
    if (t?.late === true) notes.push("late: answered after the time limit, accepted within --time-margin");
    if (t?.stderr_after_answer === true) notes.push("stderr written after the answer line (shown with this seat's next call)");
    if (!notes.length) return [];
    return [{ step: i + 1, kind: v.status === "fault" ? "fault" : "warning", text: notes.join("; ") }];
  });
}

// The steps that start a round: the first call, then every call of a new game turn by a seat
// that already played since the last round began. A round is thus one game turn when a turn
// holds every seat's calls (Kingdomino, Ice and Fire), and one call per seat in order when the
// game counts every call as a turn (Blocking, Carcassonne).
function roundStarts(turns) {
  const starts = [];
  let seen = new Set();
  turns.forEach((t, i) => {
    if (i === 0 || (t?.turn !== turns[i - 1]?.turn && seen.has(t?.player))) {
      starts.push(i + 1);
      seen = new Set();
    }
    seen.add(t?.player);
  });
  return starts;
}

// Every player's stderr of the match, line by line with its step and seat, filtered by text
// and seat; the lines of the shown step are highlighted, and a line's step is a link there.
class Console {
  constructor(turns, names) {
    this.names = names;
    this.lines = turns.flatMap((t, i) => {
      const text = typeof t?.stderr === "string" ? stripAnsi(t.stderr).replace(/\n$/, "") : "";
      return text ? text.split("\n").map((line) => ({ step: i + 1, turn: t.turn, seat: t.player, line })) : [];
    });
    this.seats = new Set(names.map((_, i) => i));
    this.filter = h("input", { type: "search", id: "console-filter", placeholder: "filter (/)", "aria-label": "filter the console",
      oninput: () => this.apply() });
    this.count = h("span", { id: "console-count", class: "muted" });
    this.rows = this.lines.map((l) => h("div", { class: "console-line", "data-step": l.step, "data-seat": l.seat },
      h("a", { href: `#step=${l.step}`, class: "at" }, `${l.step}`),
      h("span", { class: "who", style: `color:${playerPageColor(l.seat)}`, title: names[l.seat] ?? "" }, `${l.seat}`),
      h("span", { class: "text" }, l.line)));
    this.box = h("div", { class: "console-lines", id: "console-lines" }, this.rows);
    const seatBoxes = names.map((n, i) => h("label", { class: "console-seat", title: n },
      h("input", { type: "checkbox", checked: true, "data-console-seat": i,
        onchange: (e) => { e.target.checked ? this.seats.add(i) : this.seats.delete(i); this.apply(); } }),
      h("span", { class: "swatch", style: `background:${playerColor(i)}` }), `${i}`));
    this.node = h("section", { id: "console", class: "panel console" },
      h("h2", {}, "Console ", h("small", {}, "every player's stderr, by step and seat")),
      this.lines.length
        ? [h("div", { class: "console-tools" }, this.filter, seatBoxes, this.count), this.box]
        : h("p", { class: "muted", id: "console-empty" }, "No player wrote to stderr in this match."));
    this.apply();
  }

  focus() {
    if (this.lines.length) this.filter.focus();
  }

  // Shows the lines that hold the filter text (any case) from the ticked seats.
  apply() {
    const needle = this.filter.value.toLowerCase();
    let shown = 0;
    this.lines.forEach((l, i) => {
      const row = this.rows[i];
      const visible = this.seats.has(l.seat) && (!needle || l.line.toLowerCase().includes(needle));
      row.hidden = !visible;
      if (visible) shown++;
      const text = row.querySelector(".text");
      text.replaceChildren(...highlight(l.line, needle));
    });
    this.count.textContent = `${shown} of ${this.lines.length} lines`;
  }

  // Marks the shown step's lines and scrolls the console (not the page) to them.
  show(step) {
    let first = null;
    this.lines.forEach((l, i) => {
      const current = l.step === step;
      this.rows[i].classList.toggle("current", current);
      if (current && !first && !this.rows[i].hidden) first = this.rows[i];
    });
    if (first) this.box.scrollTop = first.offsetTop - this.box.offsetTop - this.box.clientHeight / 3;
  }
}

// The line as text nodes with every case-insensitive occurrence of `needle` in a <mark>.
function highlight(line, needle) {
  if (!needle) return [line];
  const out = [];
  const lower = line.toLowerCase();
  let at = 0;
  for (let i = lower.indexOf(needle); i >= 0; i = lower.indexOf(needle, at)) {
    out.push(line.slice(at, i), h("mark", {}, line.slice(i, i + needle.length)));
    at = i + needle.length;
  }
  out.push(line.slice(at));
  return out;
}
