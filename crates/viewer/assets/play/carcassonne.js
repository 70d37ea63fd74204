// Carcassonne on the play page: first the tile's place and rotation (click a cell of the ring,
// r turns the tile through the rotations that fit there), then a man's place or none.

const place = (step) => step.match(/^(-?\d+) (-?\d+) (\d+)$/)?.slice(1).map(Number);

export function cells(step) {
  const p = place(step);
  return p ? [`${p[0]} ${p[1]}`] : [];
}

export function label(step) {
  const p = place(step);
  if (p) return `Tile at row ${p[0]} col ${p[1]}, turned ${p[2] * 90}°`;
  return step === "-1" ? "No man" : `Man on ${step}`;
}
