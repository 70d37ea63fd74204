// A person's seat in the browser (issue 42): for every game and variant, `realm play GAME human
// builtin:greedy` is played to the end by clicking through the page in headless Chromium (board
// cells with the hints on, r to turn through the choices at a cell, Enter to play, buttons for
// choices without a cell), then the replay must be a legal game (no fault, finished) whose
// person's answers are exactly the actions clicked. One game runs in a 400-pixel-wide window
// (nothing wider than the window), the others at 1280×800. Kingdom Builder's game is built
// command by command and ends its turns with the "End the turn" button or e, on a map that
// brings new cards mid-turn. The Play page of `realm serve` starts a match from its form.
//
// Usage: node play.test.mjs REALM_BINARY

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startRealm, withBrowser } from "./checks.mjs";

const [realm] = process.argv.slice(2);
if (!realm) {
  console.error("usage: node play.test.mjs REALM_BINARY");
  process.exit(2);
}

// Kingdom Builder's map (G5 letters) for the clicked game: canyon (C), desert (D) and flower
// field (F) have two hexes each, so a build often empties its terrain and a new card comes
// mid-turn (the same seat called again).
const KB_MAP = [
  "C G G G G G G T F F G T T W W W C G G G",
  "G T G G G G T T T G G T T W T W W W W G",
  "G T G G G G T T T T G G G K W W W W W W",
  "G T G G G G T R T T G G G G G G G W W W",
  "G R G W D D G G G T G G G G T T G G G G",
  "G W W M T T G G G G G G G T T T T G O G",
  "T W W M M T K G G G G G G G T T K G G M",
  "W W W M T T G G G G G G G T T T T G G M",
  "T W W W T T G G G G G G M G G G G G G M",
  "W T W T T M M G G G G G M G G G G G G M",
  "G T T T T T W W W W G G G G G T T M M M",
  "G T M T T T W W W W G G G G G G G W W W",
  "G G G M T W W G W W T T G M G G G W W W",
  "G K M M T W G W W W T T M H G G W W W W",
  "G G M M T G G W G T T T M T T G G W W G",
  "G M T T T G G G T T T G T T T G G G G G",
  "G G T T T M B G G T G G G G T T T G G G",
  "G G T T M G G G G T G G G T K T T G G G",
  "G G G G G M G G B T G G G G M T T G K G",
  "G G G G G G G G T T G G M M T T G G G G",
].join("/");

const GAMES = [
  { game: "kingdomino", args: ["--seed", "3"], width: 400 },
  { game: "kingdomino", args: ["--variant", "duel", "--seed", "4"] },
  { game: "blocking", args: ["--variant", "duo", "--seed", "5"] },
  { game: "blocking", args: ["--variant", "classic", "--seed", "6"], bots: 3 },
  { game: "blocking", args: ["--seed", "7"], bots: 2 },
  { game: "ice-and-fire", args: ["--seed", "8"] },
  { game: "carcassonne", args: ["--seed", "9"] },
  { game: "kingdom-builder", args: ["--league", "3", "--seed", "10", "--option", `board=${KB_MAP}`] },
];

// A small seeded generator, so a failure replays the same clicks.
function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const tokens = (text) => text.replace(/;/g, " ").split(/\s+/).filter(Boolean);

async function waitForChange(page, before) {
  await page.waitForFunction(([v, s]) => {
    const app = document.getElementById("play");
    return app.dataset.version !== v || app.dataset.steps !== s;
  }, [before.version, before.steps], { timeout: 60000 });
}

// Records the text of every action the page sends (ids looked up in the legal actions of the
// states it received); set up before the page loads.
function recordActions(page) {
  const sent = [];
  const legal = new Map();
  page.on("response", async (response) => {
    if (!/\/play\/\d+\/(state|act)/.test(response.url()) || !response.ok()) return;
    const state = await response.json().catch(() => null);
    for (const a of state?.legal ?? []) legal.set(a.id, a.text);
  });
  page.on("request", (request) => {
    const m = request.url().match(/\/act\?id=(\d+)/);
    if (m) sent.push(legal.get(Number(m[1])));
  });
  return sent;
}

// Plays the person's seat to the end by clicking.
async function playByClicking(page, random, game) {
  await page.check("#play-hints");
  let commands = 0;
  for (let moves = 0; moves < 5000; moves++) {
    await page.waitForFunction(() => ["waiting", "over"].includes(document.getElementById("play").dataset.status), null, { timeout: 120000 });
    const before = await page.evaluate(() => ({ ...document.getElementById("play").dataset }));
    if (before.status === "over") break;
    const marks = page.locator("[data-play-mark=hint]");
    const buttons = page.locator(".play-choice");
    const nMarks = await marks.count();
    const nButtons = await buttons.count();
    if (game === "blocking" && before.steps === "1") {
      // A shape is chosen: turn and flip it, then click where it is previewed (hints mark the
      // cells its placements in that orientation cover), or start over if none is left.
      for (let r = Math.floor(random() * 4); r > 0; r--) await page.keyboard.press(random() < 0.5 ? "r" : "f");
      const n = await marks.count();
      // A mark redrawn between the count and the click is gone (Playwright: "Element is not
      // visible", seen once in CI): start the placement over then, as with no mark at all.
      const clicked = n > 0 && await marks.nth(Math.floor(random() * n)).click({ force: true, timeout: 10000 }).then(() => true, () => false);
      if (!clicked) await page.keyboard.press("Escape");
      await waitForChange(page, before);
      continue;
    }
    assert.ok(nButtons > 0, "a waiting seat is offered choices");
    // Kingdom Builder: once the build is complete, end the turn now and then (the button or e),
    // always when no hex is left to click.
    const endTurn = page.locator("#play-end-turn:enabled");
    if (game === "kingdom-builder" && (await endTurn.count()) === 1 && (nMarks === 0 || random() < 0.4)) {
      if (random() < 0.5) await endTurn.click();
      else await page.keyboard.press("e");
      await waitForChange(page, before);
      continue;
    }
    const wantsEnd = game === "ice-and-fire" && (commands >= 3 || random() < 0.3);
    const end = page.locator('.play-choice[data-step="WAIT"]');
    if (wantsEnd && (await end.count()) === 1 && before.steps === "0") {
      await end.click();
      commands = 0;
    } else if (nMarks > 0) {
      await marks.nth(Math.floor(random() * nMarks)).click({ force: true });
      await page.waitForFunction(() => !!document.querySelector("[data-play-mark=cell]"));
      // Turn through the choices at the cell with the keyboard, then play with Enter.
      for (let r = Math.floor(random() * 4); r > 0; r--) await page.keyboard.press("r");
      await page.keyboard.press("Enter");
      commands++;
    } else {
      await buttons.nth(Math.floor(random() * nButtons)).click();
    }
    await waitForChange(page, before);
  }
}

// The state as the page's server has it (the page's token, kept in the tab's session).
const fetchState = (page) => page.evaluate(async () => {
  const id = document.getElementById("play").dataset.match;
  const token = sessionStorage.getItem(`realm-play-token-${id}`);
  return (await fetch(`/play/${id}/state`, { headers: { "X-Realm-Token": token } })).json();
});

async function waitingState(page) {
  await page.waitForFunction(() => document.getElementById("play").dataset.status === "waiting", null, { timeout: 120000 });
  return fetchState(page);
}

const pageData = (page) => page.evaluate(() => ({ ...document.getElementById("play").dataset }));
const markCoords = (page, kind) => page.$$eval(`[data-play-mark=${kind}]`, (ns) => ns.map((n) => n.dataset.markCoord).sort());

// Ice and Fire: a TRAIN changes the gold shown at once; next turn, selecting the new unit
// outlines exactly the cells its legal MOVEs reach, and clicking one offers that MOVE alone.
async function iceAndFireChecks(page) {
  let state = await waitingState(page);
  const gold = Number(await page.getAttribute("#play-gold", "data-gold"));
  assert.equal(gold, state.view.gold[0]);
  let before = await pageData(page);
  await page.click('.play-choice[data-step^="TRAIN 1 "]');
  await waitForChange(page, before);
  assert.equal(Number(await page.getAttribute("#play-gold", "data-gold")), gold - 10, "the gold shown drops by the unit's cost");
  before = await pageData(page);
  await page.click('.play-choice[data-step="WAIT"]');
  await waitForChange(page, before);
  state = await waitingState(page);
  const moves = state.legal.map((a) => a.text.match(/^MOVE (\d+) (\d+) (\d+)$/)).filter(Boolean);
  assert.ok(moves.length > 0, "the trained unit can move");
  const unit = moves[0][1];
  const targets = moves.filter((m) => m[1] === unit).map((m) => `${m[2]} ${m[3]}`).sort();
  await page.click(`[data-unit="${unit}"][data-owner="0"]`);
  assert.deepEqual(await markCoords(page, "target"), targets, "the highlighted cells are the unit's legal moves");
  const [x, y] = targets[0].split(" ");
  before = await pageData(page);
  await page.click(`#play-board [data-coord="${x} ${y}"]`, { force: true });
  const offered = await page.$$eval(".play-choice", (bs) => bs.map((b) => b.dataset.step));
  assert.deepEqual(offered, [`MOVE ${unit} ${x} ${y}`], "clicking a target offers exactly that move");
  await page.keyboard.press("Enter");
  await waitForChange(page, before);
  assert.ok((await fetchState(page)).chosen.includes(`MOVE ${unit} ${x} ${y}`));
  console.log(`ok ice-and-fire: gold ${gold} -> ${gold - 10} after TRAIN; unit ${unit}'s targets ${targets.join(", ")}`);
}

// Blocking: the shape is picked from the drawn set, r turns it and f flips it (four turns and
// two flips come back), the preview under the pointer is always a legal placement covering the
// hovered cell (and shows nowhere else), and a click places the previewed piece.
async function blockingChecks(page) {
  const state = await waitingState(page);
  const letters = new Set(state.legal.map((a) => a.text.split(" ")[2][0]));
  const letter = ["F", "L", "O", "K"].find((l) => letters.has(l)) ?? [...letters][0];
  await page.click(`[data-piece="${letter}"][data-player="0"]`);
  await page.waitForFunction(() => document.getElementById("play").dataset.steps === "1");
  assert.equal(await page.locator(`[data-play-picked][data-piece="${letter}"]`).count(), 1);
  const orientation = async () => (await pageData(page)).orientation;
  const start = await orientation();
  await page.keyboard.press("r");
  const turned = await orientation();
  assert.notEqual(turned, start, "r turns the piece");
  for (let i = 0; i < 3; i++) await page.keyboard.press("r");
  assert.equal(await orientation(), start, "four turns come back");
  await page.keyboard.press("f");
  const flipped = await orientation();
  assert.ok(flipped !== start && flipped !== turned, "f flips the piece");
  await page.keyboard.press("f");
  assert.equal(await orientation(), start, "two flips come back");
  const legal = new Set(state.legal.map((a) => a.text));
  const size = state.frame.size ?? 14;
  let shown = 0, empty = 0, last = null;
  for (let y = 0; y < size; y += 1) {
    for (let x = (y * 3) % 4; x < size; x += 4) {
      await page.hover(`#play-board [data-coord="${x} ${y}"]`, { force: true });
      const preview = await page.$eval("#play-board svg", (svg) => svg.dataset.preview);
      const coords = await markCoords(page, "preview");
      if (!preview) {
        assert.deepEqual(coords, [], "no preview where nothing is legal");
        empty++;
        continue;
      }
      assert.ok(legal.has(preview), `the preview ${preview} is a legal placement`);
      assert.equal(preview.split(" ")[2][0], letter);
      assert.ok(coords.includes(`${x} ${y}`), "the preview covers the hovered cell");
      shown++;
      last = [x, y, preview];
    }
  }
  assert.ok(shown > 0 && empty > 0, `previews at ${shown} cells, none at ${empty}`);
  const [x, y, preview] = last;
  const before = await pageData(page);
  const sent = page.waitForRequest(/\/act\?id=/);
  await page.click(`#play-board [data-coord="${x} ${y}"]`, { force: true });
  const id = Number((await sent).url().match(/id=(\d+)/)[1]);
  assert.equal(state.legal.find((a) => a.id === id)?.text, preview, "the click places the previewed piece");
  await waitForChange(page, before);
  console.log(`ok blocking: ${letter} picked, turned and flipped; previews at ${shown} sampled cells, none at ${empty}`);
}

// Kingdom Builder: the end of the turn is refused until the build is complete; a click on a hex
// offers exactly the legal commands naming it; a BUILD played shows on the board at once.
async function kingdomBuilderChecks(page) {
  const state = await waitingState(page);
  assert.ok(!state.legal.some((a) => a.text === ""), "no end of the turn before the build");
  assert.equal(await page.locator("#play-end-turn").isDisabled(), true, "End the turn waits for the build");
  const build = state.legal.find((a) => a.text.startsWith("BUILD "));
  const [, r, c] = build.text.split(" ");
  const names = (text) => {
    const n = text.split(" ").slice(text.startsWith("BUILD ") ? 1 : 2);
    return [0, 2].filter((i) => i + 1 < n.length).map((i) => `${n[i]} ${n[i + 1]}`);
  };
  const there = state.legal.filter((a) => names(a.text).includes(`${r} ${c}`)).map((a) => a.text).sort();
  await page.click(`#play-board [data-coord="${r} ${c}"]`, { force: true });
  const offered = (await page.$$eval(".play-choice", (bs) => bs.map((b) => b.dataset.step))).sort();
  assert.deepEqual(offered, there, "the hex's choices are the legal commands naming it");
  const before = await pageData(page);
  const sent = page.waitForRequest(/\/act\?id=/);
  await page.locator(`.play-choice[data-step="${build.text}"]`).click();
  assert.equal(Number((await sent).url().match(/id=(\d+)/)[1]), build.id);
  await waitForChange(page, before);
  const after = await fetchState(page);
  if (after.chosen.length) {
    assert.deepEqual(after.chosen, [build.text]);
    assert.equal(await page.locator(`[data-play-pending="built"][data-pending-coord="${r} ${c}"]`).count(), 1, "the new settlement is drawn");
  }
  console.log(`ok kingdom-builder: ${there.length} choice(s) at ${r} ${c}, ${build.text} drawn at once`);
}

// Kingdom Builder's continuation calls (a new card mid-turn: the same seat asked again, B > 0).
function countContinuations(page) {
  const seen = new Set();
  page.on("response", async (response) => {
    if (!/\/play\/\d+\/(state|act)/.test(response.url()) || !response.ok()) return;
    const state = await response.json().catch(() => null);
    const first = state?.call?.lines?.[0] ?? "";
    if (state?.status === "waiting" && /^[GCDFT] \d+ [1-9]\d* [01]$/.test(first)) seen.add(state.call.turn);
  });
  return seen;
}

function checkReplay(file, sent) {
  const replay = JSON.parse(readFileSync(file, "utf8"));
  assert.deepEqual(replay.outcome.faults.filter(Boolean), [], "no seat faulted");
  assert.equal(replay.outcome.end.kind, "finished");
  const answered = replay.turns.filter((t) => t.player === 0).flatMap((t) => t.output).join(" ");
  assert.deepEqual(tokens(answered), tokens(sent.join(" ")), "the person's answers are the clicked actions");
  return replay;
}

// What the page's help line says of a game's own keys and clicks.
const GAME_HELP = {
  blocking: /pick a piece from your drawn set.*r \/ R turn it, f flips it.*previewed under the pointer/,
  "ice-and-fire": /click one of your units to see where it can move.*gold and income update/,
  "kingdom-builder": /click a hex to see the commands on it.*"End the turn" \(or e\)/,
};

async function playOne({ game, args, width, bots = 1 }, index) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "realm-play-"));
  const file = path.join(dir, "r.json");
  const server = await startRealm(realm, ["play", game, "human", ...Array(bots).fill("builtin:greedy"), ...args, "--replay", file, "--abandon-after", "30"], dir);
  await withBrowser(server.child, async (page) => {
    await page.setViewportSize({ width: width ?? 1280, height: 800 });
    const sent = recordActions(page);
    await page.goto(server.url);
    await page.waitForSelector("#play-status");
    assert.ok(!page.url().includes("token="), "the token leaves the address bar");
    if (width) {
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= width + 1, `the page fits ${width} px (${wide})`);
    }
    const help = GAME_HELP[game];
    if (help) assert.match(await page.textContent("#play-help"), help, "the help line gives the game's keys");
    if (game === "ice-and-fire") await iceAndFireChecks(page);
    if (game === "blocking" && args.includes("duo")) await blockingChecks(page);
    const continuations = countContinuations(page);
    if (game === "kingdom-builder") await kingdomBuilderChecks(page);
    await playByClicking(page, rng(index + 1), game);
    if (game === "kingdom-builder") {
      assert.ok(continuations.size > 0, "a new card mid-turn: the page went on with the next call");
      console.log(`ok kingdom-builder: ${continuations.size} continuation call(s) answered`);
    }
    await page.waitForSelector("#play-verdict");
    const replay = checkReplay(file, sent);
    assert.equal(await page.locator("#play-replay").getAttribute("href"), "/replay/r.json");
    const shown = args.map((a) => (a.startsWith("board=") ? "board=MAP" : a)).join(" ");
    console.log(`ok ${game} ${shown}: ${sent.length} actions clicked, ${replay.turns.length} calls`);
  });
  rmSync(dir, { recursive: true, force: true });
}

async function playPage() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "realm-play-serve-"));
  const served = await startRealm(realm, ["serve", "--replays", dir, "--port", "0"], dir);
  await withBrowser(served.child, async (page) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const base = served.url.match(/http:\/\/127\.0\.0\.1:\d+\//)[0];
    const sent = recordActions(page);
    await page.goto(base);
    await page.click("#nav-play");
    await page.waitForURL(/\/play$/);
    await page.selectOption("#form-game", "kingdomino");
    await page.fill("#form-seed", "12");
    await page.click("#form-start");
    await page.waitForURL(/\/play\/1\//);
    await playByClicking(page, rng(99), "kingdomino");
    await page.waitForSelector("#play-verdict");
    const replay = checkReplay(path.join(dir, "kingdomino-12.json"), sent);
    console.log(`ok the Play page: ${replay.turns.length} calls`);
  });
  rmSync(dir, { recursive: true, force: true });
}

const only = process.env.PLAY_ONLY;
for (const [i, g] of GAMES.entries()) {
  if (!only || only === g.game) await playOne(g, i);
}
if (!only || only === "form") await playPage();
