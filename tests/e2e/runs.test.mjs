// End-to-end test of the results-store pages of `realm serve`, as a person uses them after
// `realm arena`: the runs list, a run's leaderboard and pairwise matrix, the matches page
// filtered by bot and by fault, and a stored match's replay opened from its row.
//
// Usage: node runs.test.mjs REALM_BINARY STORE.sqlite REPLAY_DIR
// The store must hold one Kingdomino run of builtin:greedy, builtin:random and a bot that
// crashes (`exit 3`), with every replay kept (run.sh makes it).

import { spawn } from "node:child_process";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkStep, withBrowser } from "./checks.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const [realm, db, replays] = process.argv.slice(2);
if (!realm || !db || !replays) {
  console.error("usage: node runs.test.mjs REALM_BINARY STORE.sqlite REPLAY_DIR");
  process.exit(2);
}
const shots = path.join(here, "screenshots");
mkdirSync(shots, { recursive: true });
const BOTS = ["builtin:greedy", "builtin:random", "exit 3"];

function startServe() {
  return new Promise((resolve, reject) => {
    const child = spawn(realm, ["serve", "--db", db, "--replays", replays], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) resolve({ child, url: m[0] });
    });
    child.on("exit", (code) => reject(new Error(`realm serve exited with ${code}: ${out}`)));
  });
}

const cells = (row) => row.locator("td").allTextContents();

async function checkRunsList(page, url) {
  await page.goto(url);
  const runs = page.locator("#runs tbody tr[data-run]");
  assert.equal(await runs.count(), 1, "one run listed");
  const text = (await cells(runs.first())).join(" | ");
  for (const bot of BOTS) assert.ok(text.includes(bot), `runs list names ${bot}: ${text}`);
  assert.ok(text.includes("6/6"), `runs list shows 6/6 matches: ${text}`);
  await page.screenshot({ path: path.join(shots, "runs.png"), fullPage: true });
  console.log("ok   runs list: the run, its bots and its progress");
  await runs.first().locator("a").click();
}

async function checkLeaderboard(page) {
  await page.waitForSelector("#leaderboard");
  const rows = page.locator("#leaderboard tbody tr[data-bot]");
  assert.equal(await rows.count(), 3, "three bots on the leaderboard");
  const byBot = {};
  for (let i = 0; i < 3; i++) {
    const row = rows.nth(i);
    const [rank, bot, , games, w, d, l, , faults] = await cells(row);
    byBot[await row.getAttribute("data-bot")] = { rank: Number(rank), bot, games: Number(games), w: Number(w), d: Number(d), l: Number(l), faults: Number(faults) };
  }
  // Every bot meets the two others in both seats: 4 games each.
  for (const bot of BOTS) {
    const r = byBot[bot];
    assert.equal(r.games, 4, `${bot} games`);
    assert.equal(r.w + r.d + r.l, 4, `${bot} W+D+L`);
  }
  assert.equal(byBot["exit 3"].faults, 4, "the crashing bot faults in each of its games");
  assert.equal(byBot["exit 3"].l, 4, "the crashing bot loses every game");
  assert.equal(byBot["exit 3"].rank, 3, "the crashing bot is last");
  assert.equal(byBot["builtin:greedy"].faults + byBot["builtin:random"].faults, 0, "built-in bots never fault");
  // Pairwise matrix: a 3x3 grid with an empty diagonal.
  assert.equal(await page.locator("#pairwise tbody tr").count(), 3, "pairwise rows");
  assert.equal(await page.locator("#pairwise tbody tr").first().locator("td").count(), 3, "pairwise columns");
  await page.screenshot({ path: path.join(shots, "run.png"), fullPage: true });
  console.log("ok   run page: leaderboard of 3 bots, faults and pairwise matrix");
  return byBot;
}

async function checkMatchesFilters(page) {
  // The bot link of the leaderboard lists that bot's games only.
  await page.locator('#leaderboard tr[data-bot="builtin:greedy"] a').click();
  await page.waitForSelector("#matches");
  const rows = page.locator("#matches tbody tr[data-match]");
  assert.equal(await rows.count(), 4, "greedy played 4 matches");
  for (const text of await rows.allTextContents()) assert.ok(text.includes("builtin:greedy"), `row without greedy: ${text}`);

  // The fault filter, typed into the form as a person would.
  await page.selectOption('select[name="bot"]', "");
  await page.fill('input[name="fault"]', "crashed");
  await Promise.all([page.waitForNavigation(), page.click("form.filters button")]);
  assert.ok(page.url().includes("fault=crashed"), `filter in the URL: ${page.url()}`);
  const faulted = page.locator("#matches tbody tr[data-match]");
  assert.equal(await faulted.count(), 4, "4 matches with a crash");
  for (const text of await faulted.allTextContents()) {
    assert.ok(text.includes("exit 3") && text.includes("crashed"), `row without the crash: ${text}`);
  }
  await page.screenshot({ path: path.join(shots, "matches-crashed.png"), fullPage: true });
  console.log("ok   matches page: filtered by bot and by fault");
  return faulted.first();
}

async function checkStoredReplay(page, row, url) {
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await row.locator("a").click();
  await page.waitForSelector('#app[data-ready="true"]');
  const src = await page.locator("#app").getAttribute("data-src");
  const replay = await (await fetch(new URL(src, url))).json();
  assert.equal(replay.spec.game, "kingdomino");
  assert.ok(replay.outcome.faults.some((f) => f && f.kind === "crashed"), "the stored replay records the crash");
  let checks = await checkStep(page, replay, 0, "stored replay");
  const last = replay.turns.length;
  await page.click("#next");
  checks += await checkStep(page, replay, 1, "stored replay");
  await page.click("#board");
  await page.keyboard.press("End");
  checks += await checkStep(page, replay, last, "stored replay");
  assert.equal(await page.locator("[data-end]").getAttribute("data-end"), replay.outcome.end.kind, "end reason");
  await page.screenshot({ path: path.join(shots, "stored-replay-end.png"), fullPage: true });
  assert.deepEqual(errors, [], "no script errors");
  console.log(`ok   stored replay opened from its row: ${last} steps, ${checks} count checks`);
}

async function main() {
  const { child, url } = await startServe();
  await withBrowser(child, async (page) => {
    await checkRunsList(page, url);
    await checkLeaderboard(page);
    const row = await checkMatchesFilters(page);
    await checkStoredReplay(page, row, url);
    const missing = await page.goto(new URL("runs/99", url).href);
    assert.equal(missing.status(), 404, "an unknown run is 404");
    console.log("all runs-page checks passed");
  });
}

main();
