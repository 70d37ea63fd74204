// Kingdomino on the play page: an answer is a placement then a pick (two steps). Clicking a
// cell of your kingdom keeps the placements whose first square is there; r turns through their
// rotations; the preview shows both squares. When nothing fits, the only placement offered is
// the discard.

const DIRS = [[1, 0], [0, 1], [-1, 0], [0, -1]];
const put = (step) => step.match(/^PUT (-?\d+) (-?\d+) (-?\d+)$/)?.slice(1).map(Number);

export const steps = (text) => text.split("\n");

export function cells(step) {
  const p = put(step);
  return p ? [`${p[0]} ${p[1]}`] : [];
}

export function previewCells(step) {
  const p = put(step);
  if (!p) return [];
  const [dx, dy] = DIRS[((p[2] % 4) + 4) % 4];
  return [`${p[0]} ${p[1]}`, `${p[0] + dx} ${p[1] + dy}`];
}

// The kingdom of the seat to move.
export function scope(svg, state) {
  return svg.querySelector(`[data-kingdom="${state.call?.player ?? state.humans[0]}"]`) ?? svg;
}

export function label(step, state) {
  const p = put(step);
  if (p) {
    const puts = new Set(state.legal.map((a) => a.text.split("\n")[0]));
    if (puts.size === 1) return state.frame?.turn === 1 ? "Nothing to place yet" : "Discard (it fits nowhere)";
    return `Place at ${p[0]} ${p[1]}, ${["→", "↓", "←", "↑"][((p[2] % 4) + 4) % 4]}`;
  }
  const id = Number(step.match(/^PICK (\d+)/)?.[1]);
  const tile = (state.frame?.next ?? []).find((d) => d?.id === id);
  return tile ? `Pick domino ${id} (${tile.a} ${tile.b})` : `Pick ${id}`;
}
