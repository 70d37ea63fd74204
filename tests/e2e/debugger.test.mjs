// The replay page as a debugger (issue 41), in headless Chromium on the replays run.sh made:
// fault and warning marks on the slider and the keys between them, the header's fault as a
// link to its call, the round key, the console of every player's stderr with its filter, the
// stdin of a call as a download that a built-in bot turns into the recorded answer again, the
// raw JSON link, coordinates on hover, Blokus pieces as shapes with outlines on the board, and
// Kingdom Builder's per-card highlight.
//
// Usage: node debugger.test.mjs REALM_BINARY REPLAY_DIR
// Env: CHROMIUM (default /usr/bin/chromium).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startRealm, withBrowser } from "./checks.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const [realm, replayArg] = process.argv.slice(2);
if (!realm || !replayArg) {
  console.error("usage: node debugger.test.mjs REALM_BINARY REPLAY_DIR");
  process.exit(2);
}
const replayDir = path.resolve(replayArg);
const shots = path.join(here, "screenshots");
mkdirSync(shots, { recursive: true });

const load = (name) => JSON.parse(readFileSync(path.join(replayDir, name), "utf8"));
const shownStep = async (page) => Number(await page.locator("#board").getAttribute("data-step"));

async function open(page, base, name, step = 0) {
  await page.goto(new URL(`replay/${name}#step=${step}`, base).href);
  await page.waitForSelector('#app[data-ready="true"]');
  await page.waitForFunction((s) => document.querySelector("#board")?.dataset.step === String(s), step);
}

async function press(page, key, step) {
  await page.keyboard.press(key);
  await page.waitForFunction((s) => document.querySelector("#board")?.dataset.step === String(s), step);
}

// Item 1: a mark per faulted or warned call, f / F between them, the header's fault to its call.
async function checkMarks(page, base) {
  for (const name of ["real-kingdomino.json", "debug-kingdomino-3p.json"]) {
    const replay = load(name);
    const expected = replay.turns.map((t, i) => [i + 1, t.verdict.status]).filter(([, s]) => s !== "ok");
    assert.ok(expected.length > 0, `${name}: the replay has faults or warnings to mark`);
    await open(page, base, name, 0);
    const marks = await page.locator("[data-mark-step]").evaluateAll((ms) => ms.map((m) => [Number(m.dataset.markStep), m.dataset.markKind]));
    assert.deepEqual(marks, expected, `${name}: one mark per faulted or warned call, at its step`);
    // The tick stands over the slider where the thumb is at that step.
    const [step] = expected[0];
    const tick = await page.locator(`[data-mark-step="${step}"]`).boundingBox();
    const track = await page.locator("#step-slider").boundingBox();
    const thumbAt = track.x + 8 + ((track.width - 16) * step) / replay.turns.length;
    assert.ok(Math.abs(tick.x + tick.width / 2 - thumbAt) < 3, `${name}: tick at x ${tick.x}, thumb of step ${step} at ${thumbAt}`);
    await page.click("#board");
    for (const [s, status] of expected) {
      await press(page, "f", s);
      assert.equal(await page.locator("#verdict").getAttribute("data-status"), status, `${name}: f stops at the ${status} of step ${s}`);
    }
    await page.keyboard.press("f");
    assert.equal(await shownStep(page), expected.at(-1)[0], `${name}: f after the last mark stays`);
    if (expected.length > 1) await press(page, "Shift+F", expected.at(-2)[0]);
  }
  // The header's fault is a link to the call that faulted.
  const replay = load("debug-kingdomino-3p.json");
  const faultStep = replay.turns.findIndex((t) => t.verdict.status === "fault") + 1;
  await open(page, base, "debug-kingdomino-3p.json", replay.turns.length);
  await page.click(".outcome a.fault");
  await page.waitForFunction((s) => document.querySelector("#board")?.dataset.step === String(s), faultStep);
  assert.equal(await page.locator("#verdict").getAttribute("data-status"), "fault");
  await page.screenshot({ path: path.join(shots, "debugger-fault.png"), fullPage: true });
  console.log("ok   marks at every fault and warning, f / Shift+F between them, the header's fault opens its call");
}

// Item 4: Shift+→ goes to the next round, where every seat has played once more.
async function checkRounds(page, base) {
  for (const name of ["real-kingdomino.json", "real-blocking-3p.json", "real-ice-and-fire.json"]) {
    const replay = load(name);
    const seats = replay.spec.n_players;
    await open(page, base, name, 0);
    await page.click("#board");
    await press(page, "Shift+ArrowRight", 1);
    const from = 1;
    await page.keyboard.press("Shift+ArrowRight");
    const to = await shownStep(page);
    const round = replay.turns.slice(from - 1, to - 1);
    const players = new Set(round.map((t) => t.player));
    assert.equal(players.size, seats, `${name}: steps ${from}..${to - 1} are a round of every seat: ${[...players]}`);
    assert.ok(replay.turns[to - 1].turn > replay.turns[from - 1].turn, `${name}: step ${to} is a later game turn`);
    assert.ok(players.has(replay.turns[to - 1].player), `${name}: step ${to} starts the next round`);
    assert.ok(round.length >= seats && round.length <= 2 * seats, `${name}: a round of ${round.length} calls`);
    await press(page, "Shift+ArrowLeft", from);
  }
  console.log("ok   Shift+arrows step one round: every seat's calls of a game turn");
}

// Item 4: the console lists every stderr line of the match, filtered by text and seat.
async function checkConsole(page, base) {
  const name = "debug-kingdomino-3p.json";
  const replay = load(name);
  const lines = replay.turns.flatMap((t, i) => (t.stderr ? t.stderr.replace(/\n$/, "").split("\n").map((line) => ({ step: i + 1, seat: t.player, line })) : []));
  assert.ok(new Set(lines.map((l) => l.seat)).size >= 2, "stderr from two seats");
  await open(page, base, name, 0);
  const visible = () => page.locator(".console-line:not([hidden]) .text").allTextContents();
  assert.deepEqual(await visible(), lines.map((l) => l.line), "every stderr line, in call order");
  await page.click("#board");
  await page.keyboard.press("/");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "console-filter", "/ focuses the filter");
  await page.keyboard.type("pick 4");
  const wanted = lines.filter((l) => l.line.toLowerCase().includes("pick 4"));
  assert.ok(wanted.length > 0 && wanted.length < lines.length, "the filter keeps some lines");
  assert.deepEqual(await visible(), wanted.map((l) => l.line), "filtered by text, any case");
  assert.equal(await page.locator(".console-line:not([hidden]) mark").count(), wanted.length, "the match is marked");
  assert.equal(await page.locator("#console-count").textContent(), `${wanted.length} of ${lines.length} lines`);
  await page.fill("#console-filter", "");
  await page.uncheck('[data-console-seat="1"]');
  assert.deepEqual(await visible(), lines.filter((l) => l.seat !== 1).map((l) => l.line), "seat 1 hidden");
  await page.check('[data-console-seat="1"]');
  // A line's step number opens that call, and the shown call's lines are highlighted.
  const target = wanted[0];
  await page.fill("#console-filter", "pick 4");
  await page.locator(".console-line:not([hidden]) a.at").first().click();
  await page.waitForFunction((s) => document.querySelector("#board")?.dataset.step === String(s), target.step);
  const current = await page.locator(".console-line.current .text").allTextContents();
  assert.deepEqual(current, lines.filter((l) => l.step === target.step).map((l) => l.line), "the call's lines highlighted");
  await page.screenshot({ path: path.join(shots, "debugger-console.png"), fullPage: true });
  console.log(`ok   console: ${lines.length} stderr lines, text filter (${wanted.length} kept), seat filter, step links`);
}

// Item 2: a call's stdin so far downloads (and copies) exactly, and the shown command run on it
// gives the recorded answers again; the raw JSON link serves the file.
async function checkStdin(page, base) {
  for (const name of ["real-kingdomino.json", "real-carcassonne-3p.json"]) {
    const replay = load(name);
    const step = Math.floor(replay.turns.length * 0.7);
    const call = replay.turns[step - 1];
    const mine = replay.turns.slice(0, step).filter((t) => t.player === call.player);
    const expected = mine.flatMap((t) => t.input).map((l) => `${l}\n`).join("");
    await open(page, base, name, step);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-stdin")]);
    const file = readFileSync(await download.path(), "utf8");
    assert.equal(file, expected, `${name} step ${step}: the download is the seat's stdin up to the call`);
    assert.match(download.suggestedFilename(), new RegExp(`-seat${call.player}-step${step}\\.txt$`));
    // The page's command for a built-in bot, run on the file: the same answers, the last ones
    // this call's.
    const command = await page.locator("#repro-command").textContent();
    const m = command.match(/^realm bot (\S+) (\S+) --seed (\d+) < \S+$/);
    assert.ok(m, `${name}: a realm bot command: ${command}`);
    const run = spawnSync(realm, ["bot", m[1], m[2], "--seed", m[3]], { input: file, encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    const answers = run.stdout.trimEnd().split("\n");
    assert.deepEqual(answers, mine.flatMap((t) => t.output), `${name}: the bot gives the recorded answers again`);
    assert.deepEqual(answers.slice(-call.output.length), call.output, `${name}: the last answer is the call's`);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(base).origin });
    await page.click("#copy-stdin");
    await page.waitForFunction(() => document.querySelector("#repro-status")?.textContent === "copied");
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), expected, `${name}: the clipboard holds the stdin`);
  }
  const href = await page.locator("#raw-json").getAttribute("href");
  const served = await (await fetch(new URL(href, base))).text();
  assert.equal(served, readFileSync(path.join(replayDir, "real-carcassonne-3p.json"), "utf8"), "raw JSON is the file");
  console.log("ok   stdin up to a call downloads and copies exactly; realm bot on it repeats the recorded answers; raw JSON link");
}

// The coordinates the hover readout shows at the centre of an element.
async function coordAt(page, locator) {
  const box = await locator.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForSelector("#coord-tip:not([hidden])");
  return page.locator("#coord-tip").getAttribute("data-value");
}

// The hover coordinates of the cells the renderer outlined as the call's move.
async function outlinedCoords(page, selector = "#board [data-last]") {
  const out = [];
  for (const mark of await page.locator(selector).all()) out.push(await coordAt(page, mark));
  return out.sort();
}

// Item 3: on every board, the cells a recorded answer names show that answer's coordinates.
async function checkCoordinates(page, base) {
  const firstStep = (replay, pred) => replay.turns.findIndex((t, i) => t.verdict.status === "ok" && pred(t, i)) + 1;
  // Kingdomino `PUT x y r`: the first square on (x, y), the second one step in direction r.
  let replay = load("real-kingdomino.json");
  let step = firstStep(replay, (t) => t.turn >= 3);
  let [x, y, r] = replay.turns[step - 1].output[0].split(" ").slice(1).map(Number);
  const [dx, dy] = [[1, 0], [0, 1], [-1, 0], [0, -1]][r];
  await open(page, base, "real-kingdomino.json", step);
  assert.deepEqual(await outlinedCoords(page), [`${x} ${y}`, `${x + dx} ${y + dy}`].sort(), `kingdomino step ${step}: ${replay.turns[step - 1].output[0]}`);
  // Blocking `X Y Lfrk`: square k of the shape on (X, Y).
  replay = load("real-blocking-3p.json");
  step = Math.floor(replay.turns.length / 2);
  const move = replay.turns[step - 1].output[0];
  await open(page, base, "real-blocking-3p.json", step);
  const placed = await outlinedCoords(page);
  assert.ok(placed.includes(move.split(" ").slice(0, 2).join(" ")), `blocking step ${step}: ${move} on ${placed}`);
  assert.deepEqual(placed, replay.turns[step - 1].frame.last_move.cells.map(([cx, cy]) => `${cx} ${cy}`).sort(), "blocking: the piece's cells");
  // Ice and Fire `TRAIN level x y`: the new unit stands on (x, y).
  replay = load("real-ice-and-fire.json");
  step = firstStep(replay, (t) => t.output.join(";").includes("TRAIN"));
  const trained = replay.turns[step - 1].output.join(";").split(";").filter((a) => a.startsWith("TRAIN")).map((a) => a.split(" ").slice(2).join(" "));
  await open(page, base, "real-ice-and-fire.json", step);
  const changed = await outlinedCoords(page);
  for (const cell of trained) assert.ok(changed.includes(cell), `ice and fire step ${step}: TRAIN on ${cell}, outlined ${changed}`);
  // Carcassonne `row col angle manEdge`: the last tile on (row, col).
  replay = load("real-carcassonne-3p.json");
  step = Math.floor(replay.turns.length * 0.8);
  await open(page, base, "real-carcassonne-3p.json", step);
  assert.deepEqual(await outlinedCoords(page), [replay.turns[step - 1].output[0].split(/\s+/).slice(0, 2).join(" ")], `carcassonne step ${step}`);
  await page.screenshot({ path: path.join(shots, "debugger-coordinates.png"), fullPage: true });
  // Kingdom Builder `(row, col)`: the first settlement in reading order.
  replay = load("real-kingdom-builder.json");
  const rows = replay.initial_frame.rows.map((row) => row.trim().split(/\s+/));
  const row = rows.findIndex((toks) => toks.some((t) => /^[1-4]$/.test(t)));
  const col = rows[row].findIndex((t) => /^[1-4]$/.test(t));
  await open(page, base, "real-kingdom-builder.json", 0);
  assert.equal(await coordAt(page, page.locator("#board [data-settlement]").first()), `${row} ${col}`, "kingdom builder: row col");
  for (const name of ["real-kingdomino.json", "real-blocking-3p.json", "real-ice-and-fire.json", "real-carcassonne-3p.json", "real-kingdom-builder.json"]) {
    await open(page, base, name, 0);
    assert.ok(await page.locator("#board [data-axis=col]").count() > 0 && await page.locator("#board [data-axis=row]").count() > 0, `${name}: axes`);
  }
  console.log("ok   coordinates on hover equal the answers' (PUT x y, X Y Lfrk, TRAIN l x y, row col) on every board, with axes");
}

// Item 5: Blokus shapes beside the board as drawn in the bots' input, Kingdom Builder's rings.
async function checkPiecesAndCards(page, base) {
  const replay = load("real-blocking-3p.json");
  // The set's drawings as the bots read them: `L cols rows row_1 ... row_rows`.
  const drawings = Object.fromEntries(replay.turns[0].input.filter((l) => /^[A-U] \d \d [#. ]+$/.test(l))
    .map((l) => [l[0], l.split(" ").slice(3).join("").split("").filter((c) => c === "#").length]));
  const step = Math.floor(replay.turns.length / 2);
  const frame = replay.turns[step - 1].frame;
  await open(page, base, "real-blocking-3p.json", step);
  for (let p = 0; p < replay.spec.n_players; p++) {
    const drawn = await page.locator(`#board [data-piece][data-player="${p}"]`).evaluateAll((gs) =>
      gs.map((g) => [g.dataset.piece, g.querySelectorAll("[data-square]").length]));
    assert.deepEqual(drawn, frame.remaining[p].map((letter) => [letter, drawings[letter]]), `blocking step ${step}: player ${p}'s shapes`);
    const outlines = await page.locator(`#board [data-piece-outline][data-player="${p}"]`).count();
    assert.equal(outlines, replay.turns.slice(0, step).filter((t) => t.player === p && t.verdict.status === "ok").length, `player ${p}'s placed pieces outlined`);
  }
  await page.screenshot({ path: path.join(shots, "debugger-blocking-pieces.png"), fullPage: true });

  const kb = load("real-kingdom-builder.json").initial_frame;
  const tokens = kb.rows.map((row) => row.trim().split(/\s+/));
  await open(page, base, "real-kingdom-builder.json", 0);
  assert.equal(await page.locator("#board [data-counted]").count(), 0, "no card shown at first");
  await page.click('[data-card-button="knights"]');
  for (let p = 0; p < kb.players; p++) {
    // Knights pays 2 per settlement in the fullest row: the rings are that row's settlements.
    const rings = page.locator(`#board [data-counted="knights"][data-player="${p}"]`);
    assert.equal(2 * (await rings.count()), kb.cards.knights[p], `knights of player ${p + 1}`);
    const cells = [];
    for (const ring of await rings.all()) cells.push(await coordAt(page, ring));
    assert.deepEqual(cells.sort(), kb.counted.knights[p].map(([r, c]) => `${r} ${c}`).sort());
    assert.ok(cells.every((cell) => { const [r, c] = cell.split(" ").map(Number); return tokens[r][c] === String(p + 1); }), "rings on the player's settlements");
    assert.equal(new Set(cells.map((cell) => cell.split(" ")[0])).size, 1, "in one row");
  }
  await page.click('[data-card-button="merchants"]');
  const merchants = kb.counted.merchants.flat().length;
  assert.ok(merchants > 0);
  assert.equal(await page.locator('#board [data-counted="merchants"]').count(), merchants, "merchants' groups ringed");
  assert.equal(await page.locator('#board [data-counted="knights"]').count(), 0, "one card at a time");
  await page.screenshot({ path: path.join(shots, "debugger-kingdom-builder-merchants.png"), fullPage: true });
  await page.click('[data-card-button="merchants"]');
  assert.equal(await page.locator("#board [data-counted]").count(), 0, "a second click clears the rings");
  console.log("ok   Blokus shapes drawn as the input draws them, placed pieces outlined; Kingdom Builder rings each card's settlements");
}

async function main() {
  const cwd = mkdtempSync(path.join(os.tmpdir(), "realm-debugger-"));
  const { child, url } = await startRealm(realm, ["serve", "--replays", replayDir], cwd);
  await withBrowser(child, async (page) => {
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await checkMarks(page, url);
    await checkRounds(page, url);
    await checkConsole(page, url);
    await checkStdin(page, url);
    await checkCoordinates(page, url);
    await checkPiecesAndCards(page, url);
    assert.deepEqual(errors, [], "no script errors");
    console.log("all debugger checks passed");
  });
  rmSync(cwd, { recursive: true, force: true });
}

main();
