// A Code of Ice and Fire on the play page: a turn is built command by command (each sent as it
// is chosen, checked by the referee's position), then ended with WAIT. Clicking a cell keeps the
// commands that end there: a unit's moves to it, training or building on it.

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

// Gold and income as the referee's frame has them at the start of the turn.
export function panel(state) {
  const p = state.call?.player;
  const gold = state.frame?.gold?.[p];
  const income = state.frame?.income?.[p];
  if (gold === undefined) return [];
  const node = document.createElement("p");
  node.id = "play-gold";
  node.textContent = `At the start of this turn: ${gold} gold${income !== undefined ? `, income ${income}` : ""}.`;
  return [node];
}
