// End-to-end test of the results-store pages of `realm serve`, as a person uses them after
// `realm arena`: the runs list, a run's leaderboard and pairwise matrix, the matches page
// filtered by bot, fault, seed and result (expected rows computed from the run's JSON), and a
// stored match's replay opened from its row.
//
// Usage: node runs.test.mjs REALM_BINARY STORE.sqlite REPLAY_DIR
// The store must hold one Kingdomino run of builtin:greedy, builtin:random and a bot that
// crashes (`exit 3`), with every replay kept (run.sh makes it).

import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkStep, startRealm, withBrowser } from "./checks.mjs";

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
  return startRealm(realm, ["serve", "--db", db, "--replays", replays, "--port", "0"]);
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
  // What `realm report` computes, and the run's state.
  assert.equal(await page.locator("#run-status").getAttribute("data-status"), "complete", "a finished arena is complete");
  assert.equal(await page.locator("#run").getAttribute("data-live"), "false", "a complete run is not polled");
  const kinds = await page.locator('#leaderboard tr[data-bot="exit 3"] td.kinds').textContent();
  assert.equal(kinds, "crashed 4", "fault kinds of the crashing bot");
  const times = (await cells(rows.first()))[10];
  assert.match(times, /^\d+\.\d \/ \d+\.\d$/, `p50 / p99 response times: ${times}`);
  assert.equal(await page.locator("#per-seat tbody tr").count(), 3, "per-seat results of every bot");
  // The matrix follows the leaderboard's order.
  const matrixOrder = await page.locator("#pairwise tbody th").allTextContents();
  const boardOrder = await rows.evaluateAll((rs) => rs.map((r) => r.dataset.bot));
  assert.deepEqual(matrixOrder, boardOrder, "pairwise matrix in rank order");
  await page.screenshot({ path: path.join(shots, "run.png"), fullPage: true });
  console.log("ok   run page: leaderboard of 3 bots, faults, report columns, per-seat results and pairwise matrix in rank order");
  return byBot;
}

const shownIds = async (page) =>
  (await page.locator("#matches tbody tr[data-match]").evaluateAll((rows) => rows.map((r) => Number(r.dataset.match)))).sort((a, b) => a - b);

async function submitFilters(page) {
  await Promise.all([page.waitForNavigation(), page.click("form.filters button")]);
  await page.waitForSelector("#matches");
}

// The seed and result filters, chosen in the form; the expected rows come from the run's
// match list as JSON, filtered here by the meaning of each filter.
async function checkSeedAndResultFilters(page, url) {
  const all = await (await fetch(new URL("api/runs/1/matches", url))).json();
  const ids = (rows) => rows.map((m) => m.id).sort((a, b) => a - b);

  // Seeds are 64-bit and lose digits as JSON numbers in JavaScript: a person copies one from
  // the Seed column, so the seeds are read from the unfiltered table's text.
  await page.selectOption('select[name="bot"]', "");
  await submitFilters(page);
  const seedOf = Object.fromEntries(await page.locator("#matches tbody tr[data-match]").evaluateAll((rows) =>
    rows.map((r) => [Number(r.dataset.match), r.cells[1].textContent.trim()])));
  assert.equal(Object.keys(seedOf).length, all.length, "every match listed");
  const seed = seedOf[all[all.length - 1].id];
  await page.fill('input[name="seed"]', seed);
  await submitFilters(page);
  assert.ok(page.url().includes(`seed=${seed}`), `seed in the URL: ${page.url()}`);
  const bySeed = all.filter((m) => seedOf[m.id] === seed);
  assert.ok(bySeed.length >= 1);
  assert.deepEqual(await shownIds(page), ids(bySeed), `matches of seed ${seed}`);
  await page.fill('input[name="seed"]', "");

  // Win and loss are a bot's: disabled until a bot is chosen.
  assert.equal(await page.locator('select[name="result"] option[value="loss"]').isDisabled(), true, "loss needs a bot");
  await page.selectOption('select[name="bot"]', "builtin:random");
  assert.equal(await page.locator('select[name="result"] option[value="loss"]').isDisabled(), false, "loss enabled with a bot");
  await page.selectOption('select[name="result"]', "loss");
  await submitFilters(page);
  const randomLost = all.filter((m) => m.seats.some((s) => s.bot === "builtin:random" && s.rank !== 1));
  assert.ok(randomLost.length > 0, "random lost to greedy");
  assert.deepEqual(await shownIds(page), ids(randomLost), "random's losses");
  await page.screenshot({ path: path.join(shots, "matches-random-loss.png"), fullPage: true });
  await page.selectOption('select[name="result"]', "win");
  await submitFilters(page);
  const randomWon = all.filter((m) => m.seats.some((s) => s.bot === "builtin:random" && s.rank === 1) &&
    m.seats.filter((s) => s.rank === 1).length === 1);
  assert.deepEqual(await shownIds(page), ids(randomWon), "random's wins");

  // Back to any bot: the loss choice is cleared, and "decisive" (one winner) is offered.
  await page.selectOption('select[name="bot"]', "");
  assert.equal(await page.locator('select[name="result"]').inputValue(), "", "loss cleared without a bot");
  await page.selectOption('select[name="result"]', "decisive");
  await submitFilters(page);
  const decisive = all.filter((m) => m.seats.filter((s) => s.rank === 1).length === 1);
  assert.deepEqual(await shownIds(page), ids(decisive), "decisive matches");
  await page.selectOption('select[name="result"]', "draw");
  await submitFilters(page);
  const drawn = all.filter((m) => m.seats.filter((s) => s.rank === 1).length > 1);
  assert.deepEqual(await shownIds(page), ids(drawn), "drawn matches");
  await page.selectOption('select[name="result"]', "");
  console.log(`ok   matches page: seed (${bySeed.length}), random's losses (${randomLost.length}) and wins (${randomWon.length}), decisive (${decisive.length}), drawn (${drawn.length})`);
}

async function checkMatchesFilters(page, url) {
  // The bot link of the leaderboard lists that bot's games only.
  await page.locator('#leaderboard tr[data-bot="builtin:greedy"] a').click();
  await page.waitForSelector("#matches");
  const rows = page.locator("#matches tbody tr[data-match]");
  assert.equal(await rows.count(), 4, "greedy played 4 matches");
  for (const text of await rows.allTextContents()) assert.ok(text.includes("builtin:greedy"), `row without greedy: ${text}`);

  await checkSeedAndResultFilters(page, url);

  // The fault filter offers the codes of the run's faults: here only the crash.
  const codes = await page.locator('select[name="fault"] option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(codes, ["", "any", "crashed"], "fault choices");
  await page.selectOption('select[name="bot"]', "");
  await page.selectOption('select[name="fault"]', "crashed");
  await submitFilters(page);
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

// A replay opened from a filtered list steps through that filter's matches only.
async function checkFilteredNeighbours(page, url) {
  const all = await (await fetch(new URL("api/runs/1/matches?fault=crashed", url))).json();
  const ids = all.map((m) => m.id).sort((a, b) => a - b);
  await page.goto(new URL("runs/1/matches?fault=crashed", url).href);
  await page.locator(`#matches tr[data-match="${ids[0]}"] a`).click();
  await page.waitForSelector("#replay-nav");
  const next = page.locator("#next-match");
  assert.equal(await next.getAttribute("href"), `/runs/1/matches/${ids[1]}?fault=crashed`, "next crash, filter kept");
  assert.match(await page.locator("#nav-filter").textContent(), /fault crashed/);
  console.log(`ok   stored replay in a filter: next crash is match ${ids[1]}`);
}

async function main() {
  const { child, url } = await startServe();
  await withBrowser(child, async (page) => {
    await checkRunsList(page, url);
    await checkLeaderboard(page);
    const row = await checkMatchesFilters(page, url);
    await checkStoredReplay(page, row, url);
    await checkFilteredNeighbours(page, url);
    const missing = await page.goto(new URL("runs/99", url).href);
    assert.equal(missing.status(), 404, "an unknown run is 404");
    console.log("all runs-page checks passed");
  });
}

main();
