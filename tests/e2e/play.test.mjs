// A person's seat in the browser (issue 42): for every game and variant, `realm play GAME human
// builtin:greedy` is played to the end by clicking through the page in headless Chromium (board
// cells with the hints on, r to turn through the choices at a cell, Enter to play, buttons for
// choices without a cell), then the replay must be a legal game (no fault, finished) whose
// person's answers are exactly the actions clicked. One game runs in a 400-pixel-wide window
// (nothing wider than the window), the others at 1280×800. The Play page of `realm serve`
// starts a match from its form.
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

const GAMES = [
  { game: "kingdomino", args: ["--seed", "3"], width: 400 },
  { game: "kingdomino", args: ["--variant", "duel", "--seed", "4"] },
  { game: "blocking", args: ["--variant", "duo", "--seed", "5"] },
  { game: "blocking", args: ["--variant", "classic", "--seed", "6"], bots: 3 },
  { game: "blocking", args: ["--seed", "7"], bots: 2 },
  { game: "ice-and-fire", args: ["--seed", "8"] },
  { game: "carcassonne", args: ["--seed", "9"] },
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
    assert.ok(nButtons > 0, "a waiting seat is offered choices");
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

function checkReplay(file, sent) {
  const replay = JSON.parse(readFileSync(file, "utf8"));
  assert.deepEqual(replay.outcome.faults.filter(Boolean), [], "no seat faulted");
  assert.equal(replay.outcome.end.kind, "finished");
  const answered = replay.turns.filter((t) => t.player === 0).flatMap((t) => t.output).join(" ");
  assert.deepEqual(tokens(answered), tokens(sent.join(" ")), "the person's answers are the clicked actions");
  return replay;
}

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
    await playByClicking(page, rng(index + 1), game);
    await page.waitForSelector("#play-verdict");
    const replay = checkReplay(file, sent);
    assert.equal(await page.locator("#play-replay").getAttribute("href"), "/replay/r.json");
    console.log(`ok ${game} ${args.join(" ")}: ${sent.length} actions clicked, ${replay.turns.length} calls`);
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
    await page.goto(`${base}play`);
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
