// A Code of Ice and Fire on the play page: a turn is built command by command (each sent as it
// is chosen, checked by the referee's position), then ended with WAIT. Clicking one of your
// units selects it and outlines the cells its legal MOVEs reach; clicking one of those offers
// exactly that MOVE. Clicking another cell keeps the commands that end there: training or
// building on it. The map, gold and income shown are the position after the commands so far.

const target = (step) => step.match(/(-?\d+) (-?\d+)$/)?.slice(1);

export function cells(step) {
  const t = target(step);
  return t && step !== "WAIT" ? [`${t[0]} ${t[1]}`] : [];
}

export function label(step) {
  const w = step.split(" ");
  switch (w[0]) {
    case "MOVE": return `Move unit ${w[1]} to ${w[2]} ${w[3]}`;
    case "TRAIN": return `Train level ${w[1]} at ${w[2]} ${w[3]}`;
    case "BUILD": return `Build a ${w[1].toLowerCase()} at ${w[2]} ${w[3]}`;
    case "WAIT": return "End the turn";
    default: return step;
  }
}

export const help = "Ice and Fire: click one of your units to see where it can move, then a highlighted cell to move it there; gold and income update as commands are added; \"End the turn\" sends them.";

const moveOf = (step) => step.match(/^MOVE (\d+) /)?.[1] ?? null;

// A click on a unit of the seat to move that has a legal MOVE selects it (again: unselects it);
// with a unit selected, a cell it cannot reach drops the selection.
export function click(nodes, coord, ui) {
  const unit = nodes.map((n) => n.closest?.("[data-unit]")).find(Boolean);
  const id = unit?.dataset.unit;
  const movable = id !== undefined && Number(unit.dataset.owner) === ui.state.call?.player &&
    ui.state.legal.some((a) => moveOf(a.text) === id);
  if (movable && ui.chosen.length === 0) {
    ui.selection = ui.selection === id ? null : id;
    ui.cell = null;
    return true;
  }
  if (ui.selection !== null) {
    const reached = ui.state.legal.some((a) => moveOf(a.text) === ui.selection && cells(a.text).includes(coord));
    if (!reached) ui.selection = null;
  }
  return false;
}

// A selected unit's choices are its moves.
export const keep = (step, ui) => ui.selection === null || moveOf(step) === ui.selection;

// The selected unit is outlined.
export function decorate(svg, ui) {
  if (ui.selection !== null) svg.querySelector(`[data-unit="${ui.selection}"]`)?.setAttribute("data-play-selected", "");
}

// Gold and income of the position after this phase's commands so far (the state's view), and
// at the start of the phase (the referee's frame).
export function panel(state, ui) {
  const p = state.call?.player;
  const gold = ui.frame?.gold?.[p];
  const income = ui.frame?.income?.[p];
  if (gold === undefined) return [];
  const node = document.createElement("p");
  node.id = "play-gold";
  node.dataset.gold = gold;
  node.dataset.income = income ?? "";
  const start = state.frame?.gold?.[p];
  node.textContent = `Gold ${gold}${income !== undefined ? `, income ${income}` : ""}` +
    (start !== undefined && start !== gold ? ` (${start} at the start of this turn).` : ".");
  return [node];
}
