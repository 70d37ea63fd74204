// Kingdom Builder on the play page: a turn is built command by command (each checked by the
// referee's position as it is chosen), then closed with "End the turn" (the protocol's end of
// the line: its text is empty). Clicking a hex keeps the commands on it: a BUILD or a build
// tile there, a move tile's MOVE from or to it; r turns through them and Enter plays. The
// settlements chosen this call are drawn on the board at once (dashed: not yet sent). When a
// command reveals a new card mid-turn the referee ends the call and asks again: the page simply
// shows the next call, the earlier settlements now the referee's.

import { el, playerColor } from "../svg.js";

const words = (step) => step.trim().split(/\s+/);
const isEnd = (step) => step.trim() === "";

// The cells a command names, as the board's `data-coord` spells them (`row col`).
function commandCells(step) {
  const w = words(step);
  const numbers = w.slice(w[0] === "BUILD" ? 1 : 2);
  const out = [];
  for (let i = 0; i + 1 < numbers.length; i += 2) out.push(`${numbers[i]} ${numbers[i + 1]}`);
  return out;
}

export const cells = (step) => (isEnd(step) ? [] : commandCells(step));

export const help = "Kingdom Builder: click a hex to see the commands on it (a build, a tile's build, a tile's move from or to it); r turns through them, Enter plays; \"End the turn\" (or e) ends it once the build is complete.";

const title = (kind) => kind.charAt(0) + kind.slice(1).toLowerCase();

export function label(step) {
  if (isEnd(step)) return "End the turn";
  const w = words(step);
  switch (w[0]) {
    case "BUILD": return `Build at row ${w[1]} col ${w[2]}`;
    case "TILE": return `${title(w[1])}: build at row ${w[2]} col ${w[3]}`;
    case "MOVE": return `${title(w[1])}: move ${w[2]} ${w[3]} → ${w[4]} ${w[5]}`;
    default: return step;
  }
}

const endAction = (state) => state.legal.find((a) => isEnd(a.text)) ?? null;

// The centre of a hex drawn as a polygon: the mean of its corners.
function centre(polygon) {
  const pts = polygon.getAttribute("points").trim().split(/\s+/).map((p) => p.split(",").map(Number));
  return [0, 1].map((i) => pts.reduce((sum, p) => sum + p[i], 0) / pts.length);
}

// The commands chosen in this call, drawn over the referee's frame: the hexes they change
// outlined (dashed: not yet sent), a settlement in the seat's colour on every hex built on or
// moved to.
export function decorate(root, ui) {
  const state = ui.state;
  const svg = root.querySelector?.("svg") ?? root;
  if (state.status !== "waiting" || !state.chosen.length) return;
  const pending = (coord, kind) => {
    const cell = svg.querySelector(`polygon[data-coord="${coord}"]`);
    if (!cell) return;
    const attrs = { "data-play-pending": kind, "data-pending-coord": coord, "pointer-events": "none" };
    svg.append(el("polygon", { points: cell.getAttribute("points"), fill: "none", stroke: "#111", "stroke-width": 2.5, "stroke-dasharray": "3 2", ...attrs }));
    if (kind !== "built") return;
    const [cx, cy] = centre(cell);
    svg.append(el("path", { d: `M${cx - 7} ${cy + 7} v-8 l7 -6 l7 6 v8 Z`, fill: playerColor(state.call.player), stroke: "#111", "stroke-dasharray": "2 1.5", "pointer-events": "none" }));
  };
  for (const text of state.chosen) {
    const c = commandCells(text);
    if (words(text)[0] === "MOVE") {
      pending(c[0], "left");
      pending(c[1], "built");
    } else if (c[0]) pending(c[0], "built");
  }
}

// Beside the board: the end of the turn, a button of its own (offered only once the mandatory
// build is complete, as the referee allows).
export function panel(state, ui) {
  if (state.status !== "waiting") return [];
  const end = endAction(state);
  const button = document.createElement("button");
  button.type = "button";
  button.id = "play-end-turn";
  button.className = "primary";
  button.textContent = "End the turn";
  button.disabled = !end || ui.busy;
  button.title = end ? "Send this turn's commands: the card is discarded and the next drawn (e)" :
    "Place the settlements of your card first";
  button.onclick = () => end && ui.play(end.id);
  const built = state.chosen.length ? ` This turn so far: ${state.chosen.length} command${state.chosen.length === 1 ? "" : "s"}.` : "";
  const note = document.createElement("p");
  note.className = "muted";
  note.id = "play-kb-note";
  note.textContent = (end ? "The build is complete: use a tile or end the turn." : "Build on your card's terrain: click a highlighted hex.") + built;
  return [button, note];
}

export const keys = {
  e: (ui) => {
    const end = endAction(ui.state);
    if (end) ui.play(end.id);
    return !!end;
  },
};
