// Blocking (Blokus Duo and Classic) on the play page: first the shape, from those that can still
// be placed, then where: clicking a cell keeps the placements that cover it, r turns through
// them (rotations and flips), the preview shows the piece's squares.

// The drawings of the 21 shapes, as crates/blocking/data/blocking_shapes.txt has them (rows top
// to bottom, `#` a square); the same data as the renderer's, not its rules.
const SHAPES = {
  A: "#", B: "##", C: "###", D: "#. ##", E: "####", F: "#. #. ##", G: "### .#.", H: "## ##",
  I: "##. .##", J: "#####", K: "#. #. #. ##", L: "##.. .###", M: "## ## #.", N: "#.# ###",
  O: "#### .#..", P: "#.. #.. ###", Q: "### .#. .#.", R: "#.. ##. .##", S: "##. .#. .##",
  T: ".## ##. .#.", U: ".#. ### .#.",
};

const parse = (step) => step.match(/^(\d+) (\d+) ([A-U])([01])([0-3])(\d+)$/)?.slice(1);

export function steps(text) {
  const p = parse(text);
  return p ? [`shape ${p[2]}`, text] : [text];
}

// The squares a placement covers (PROTOCOL.md: flip swaps x and y, then quarter turns
// (x, y) -> (-y, x), then the smallest x and y are 0; square k lies on X Y).
export function squares(step) {
  const p = parse(step);
  if (!p) return [];
  const [X, Y, letter, f, r, k] = [Number(p[0]), Number(p[1]), p[2], Number(p[3]), Number(p[4]), Number(p[5])];
  let sq = SHAPES[letter].split(" ").flatMap((row, y) => [...row].flatMap((c, x) => (c === "#" ? [[x, y]] : [])));
  if (f) sq = sq.map(([x, y]) => [y, x]);
  for (let i = 0; i < r; i++) sq = sq.map(([x, y]) => [-y, x]);
  const mx = Math.min(...sq.map((s) => s[0]));
  const my = Math.min(...sq.map((s) => s[1]));
  sq = sq.map(([x, y]) => [x - mx, y - my]);
  const [kx, ky] = sq[k - 1] ?? [0, 0];
  return sq.map(([x, y]) => `${X + x - kx} ${Y + y - ky}`);
}

export const cells = (step) => (step.startsWith("shape ") ? [] : squares(step));
export const previewCells = cells;

export function label(step) {
  if (step.startsWith("shape ")) return `Shape ${step.slice(6)} (${SHAPES[step.slice(6)].split(" ").join(" / ")})`;
  const p = parse(step);
  return p ? `${p[2]} at ${p[0]} ${p[1]} (flip ${p[3]}, turn ${p[4]})` : step;
}
