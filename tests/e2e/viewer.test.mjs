// End-to-end test of realm's replay viewer, as a person sees it: starts `realm serve` on a
// folder of replays, opens every replay in headless Chromium, steps through it with the
// buttons, the keyboard, the step box and the turn box, checks at several steps that the drawn
// board has exactly the pieces, units, tiles and settlements of the replay's frame, saves
// screenshots, and checks that path-traversal URLs get 404. Then it scores the statement's
// Kingdom Builder board with `realm score ... --view` and checks the drawn settlements and the
// per-card rows against the board file and the reference CSV.
//
// Usage: node viewer.test.mjs REALM_BINARY REPLAY_DIR
// Env: CHROMIUM (default /usr/bin/chromium).

import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkStep, startRealm as startRealmIn, withBrowser } from "./checks.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const [realm, replayArg] = process.argv.slice(2);
if (!realm || !replayArg) {
  console.error("usage: node viewer.test.mjs REALM_BINARY REPLAY_DIR");
  process.exit(2);
}
const replayDir = path.resolve(replayArg);
const shots = path.join(here, "screenshots");
mkdirSync(shots, { recursive: true });

// ---- the server ----

function startRealm(args, cwd) {
  return startRealmIn(realm, args, cwd);
}

// Sends a request target byte for byte (browsers and fetch normalize `..` away).
function rawStatus(url, target) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`);
    });
    let data = "";
    socket.on("data", (d) => (data += d));
    socket.on("end", () => resolve({ status: Number(data.split(" ")[1]), body: data }));
    socket.on("error", reject);
  });
}

// ---- checks on the page ----

async function checkReplay(page, base, entry) {
  const replay = await (await fetch(new URL(`api/replay/${entry.href}`, base))).json();
  const label = entry.name;
  const last = replay.turns.length;
  const errors = [];
  page.removeAllListeners("pageerror");
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(new URL(`replay/${entry.href}`, base).href);
  await page.waitForSelector('#app[data-ready="true"]');
  // A single position (a scored board) has no controls and no seed to show.
  assert.equal(await page.locator("#step-input").getAttribute("max", { timeout: 2000 }).catch(() => "none"), last ? String(last) : "none", `${label}: last step`);
  // The seed as the file writes it, digit for digit (the 64-bit seeds exceed JavaScript numbers).
  const rawText = await (await fetch(new URL(`api/replay/${entry.href}`, base))).text();
  const rawSeed = rawText.match(/"seed"\s*:\s*(-?\d+)/)[1];
  if (last) assert.ok((await page.title()).includes(`seed ${rawSeed} `), `${label}: title shows seed ${rawSeed}: ${await page.title()}`);
  let checks = await checkStep(page, replay, 0, label);
  if (last === 0) {
    // A single position (a scored board): it is also the end.
    assert.equal(await page.locator('tr[data-row="rank"]').count(), 1, `${label}: final ranks shown`);
    await page.screenshot({ path: path.join(shots, `${entry.name.replace(/\.json$/, "").replaceAll("/", "_")}.png`), fullPage: true });
    assert.deepEqual(errors, [], `${label}: no script errors`);
    console.log(`ok   ${label}: one position, ${checks} count checks`);
    return;
  }

  // One step with the button, one with the keyboard, one back.
  await page.click("#next");
  checks += await checkStep(page, replay, 1, label);
  await page.keyboard.press("ArrowRight");
  checks += await checkStep(page, replay, Math.min(2, last), label);
  await page.keyboard.press("ArrowLeft");
  checks += await checkStep(page, replay, 1, label);

  // Jump to a game turn with the turn box: the first call of that turn.
  const turnNumbers = replay.turns.map((t) => t.turn);
  const midTurn = turnNumbers[Math.floor(last * 0.6)];
  const turnStep = turnNumbers.indexOf(midTurn) + 1;
  await page.fill("#turn-input", String(midTurn));
  await page.press("#turn-input", "Enter");
  checks += await checkStep(page, replay, turnStep, label);
  assert.ok((await page.locator("#call").textContent()).includes(`game turn ${midTurn}`), `${label}: turn ${midTurn} shown`);
  assert.equal(await page.locator("#turn-input").inputValue(), String(midTurn), `${label}: turn box`);

  // Jump to the middle with the step box, then to the end with the End key.
  const mid = Math.floor(last / 2);
  await page.fill("#step-input", String(mid));
  await page.press("#step-input", "Enter");
  checks += await checkStep(page, replay, mid, label);
  assert.equal(await page.locator("#turn-input").inputValue(), String(turnNumbers[mid - 1]), `${label}: turn box follows`);
  await page.screenshot({ path: path.join(shots, `${entry.name.replace(/\.json$/, "").replaceAll("/", "_")}-step${mid}.png`), fullPage: true });
  // Keys typed into the step box stay there; a click on the board gives them back to the page.
  await page.click("#board");
  await page.keyboard.press("End");
  checks += await checkStep(page, replay, last, label);
  assert.equal(await page.locator('tr[data-row="rank"]').count(), 1, `${label}: final ranks shown`);
  const end = await page.locator("[data-end]").getAttribute("data-end");
  assert.equal(end, replay.outcome.end.kind, `${label}: end reason`);
  await page.screenshot({ path: path.join(shots, `${entry.name.replace(/\.json$/, "").replaceAll("/", "_")}-end.png`), fullPage: true });

  // Play runs by itself: from the start at the top speed it reaches the end.
  await page.keyboard.press("Home");
  await page.selectOption("#speed", "16");
  await page.keyboard.press(" ");
  await page.waitForFunction((s) => document.querySelector("#board")?.dataset.step === String(s), last, { timeout: 5000 + last * 200 });
  checks += await checkStep(page, replay, last, label);

  assert.deepEqual(errors, [], `${label}: no script errors`);
  console.log(`ok   ${label}: ${last} steps, ${checks} count checks`);
}

// Game crates may rename or drop a field; a renderer must then draw less, not throw.
async function checkRenderersTolerateBadFrames(page) {
  const slugs = ["kingdomino", "blocking", "ice-and-fire", "carcassonne", "kingdom-builder", "fallback"];
  const failures = await page.evaluate(async (slugs) => {
    const bad = [null, {}, { scores: "x", size: "big", kingdoms: 5, board: {}, cells: [1, null], tiles: [null, { edges: 3, links: 7 }],
      rows: [null, 3], men: [{}], units: [{ level: "x" }], buildings: [{}], current: [{ a: 1 }], next: "n", last_move: { cells: [5] },
      remaining: [null], starts: [7], mine_spots: [[]], cards: { a: 1 }, tile_to_place: {}, last: {} }];
    const env = { nPlayers: 2, names: ["a", "b"], spec: {}, step: 0, call: null };
    const out = {};
    for (const slug of slugs) {
      const mod = await import(`/assets/renderers/${slug}.js`);
      for (const frame of bad) {
        try {
          const node = mod.render(frame, env);
          if (!(node instanceof Node)) throw new Error("render returned no node");
          mod.details?.(frame, env);
        } catch (e) {
          out[`${slug} ${JSON.stringify(frame)}`] = String(e);
        }
      }
    }
    return out;
  }, slugs);
  assert.deepEqual(failures, {}, "renderers throw on malformed frames");
  console.log("ok   renderers draw malformed frames without throwing");
}

// ---- Kingdom Builder: a board scored by `realm score --view` ----

function sharedOrVendored(name) {
  const shared = path.resolve(repo, "../shared/data", name);
  return existsSync(shared) ? shared : path.join(repo, "crates/kingdom-builder/data", name);
}

async function checkScoredBoard(page) {
  const board = sharedOrVendored("kingdom_builder_example_board.txt");
  const csv = Object.fromEntries(readFileSync(sharedOrVendored("kingdom_builder_example_scores.csv"), "utf8")
    .trim().split("\n").slice(1).map((line) => line.split(",")).map(([k, ...v]) => [k, v.map(Number)]));
  const tokens = readFileSync(board, "utf8").trim().split(/\s+/);
  const dir = mkdtempSync(path.join(os.tmpdir(), "realm-kb-"));
  const { child, url, out } = await startRealm(["score", "kingdom-builder", board, "--cards", "1,3,7", "--view", "--replay", "scored.json"], dir);
  try {
    assert.ok(out.startsWith(csv["1 3 7"].join(" ") + "\n"), `scores printed first: ${out}`);
    const errors = [];
    page.removeAllListeners("pageerror");
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(url);
    await page.waitForSelector('#app[data-ready="true"]');
    assert.equal(await page.locator("#board [data-cell]").count(), 400, "kingdom builder: 400 hexes");
    for (const p of [0, 1, 2, 3]) {
      const drawn = await page.locator(`#board [data-settlement][data-player="${p}"]`).count();
      assert.equal(drawn, tokens.filter((t) => t === String(p + 1)).length, `kingdom builder: settlements of player ${p + 1}`);
    }
    assert.equal(await page.locator('#board [data-token="C"]').count(), tokens.filter((t) => t === "C").length, "castles");
    const rowOf = async (selector) => (await page.locator(`${selector} td`).allTextContents()).map(Number);
    assert.deepEqual(await rowOf('tr[data-row="score"]'), csv["1 3 7"], "kingdom builder: totals");
    for (const [name, key] of [["castles", "core"], ["discoverers", "s1"], ["fishermen", "s3"], ["hermits", "s7"]]) {
      assert.deepEqual(await rowOf(`tr[data-detail="${name}"]`), csv[key], `kingdom builder: ${name} row`);
    }
    assert.equal(await page.locator("tr[data-detail]").count(), 5, "settlements and four score rows");
    assert.deepEqual(errors, [], "kingdom builder: no script errors");
    await page.screenshot({ path: path.join(shots, "kingdom-builder-scored.png"), fullPage: true });
    console.log("ok   realm score kingdom-builder --view: 400 hexes, settlements per player, 4 card rows = CSV");
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  // A working folder without a results store, so the page lists replays only.
  const cwd = mkdtempSync(path.join(os.tmpdir(), "realm-serve-"));
  const { child, url } = await startRealm(["serve", "--replays", replayDir], cwd);
  await withBrowser(child, async (page) => {
    await page.goto(url);
    const entries = await (await fetch(new URL("api/replays", url))).json();
    const listed = await page.locator("#replays tbody tr[data-replay]").count();
    assert.equal(listed, entries.filter((e) => e.summary).length, "index lists every replay");
    await page.screenshot({ path: path.join(shots, "index.png"), fullPage: true });
    assert.ok(entries.length > 0, `no replays in ${replayDir}`);
    for (const entry of entries.filter((e) => e.summary)) await checkReplay(page, url, entry);
    await checkRenderersTolerateBadFrames(page);

    // Traversal, as a browser sends it and byte for byte.
    const viaBrowser = await page.goto(new URL("api/replay/%2e%2e/%2e%2e/Cargo.toml", url).href);
    assert.equal(viaBrowser.status(), 404, "browser traversal");
    for (const target of ["/api/replay/../../../Cargo.toml", "/api/replay/%2e%2e/%2e%2e/%2e%2e/Cargo.toml", "//etc/passwd", "/replay/..%2f..%2fCargo.toml"]) {
      const { status, body } = await rawStatus(url, target);
      assert.equal(status, 404, `raw traversal ${target}`);
      assert.ok(!body.includes("[package]"), `${target} leaked a file`);
    }
    console.log("ok   traversal URLs get 404");
    await checkScoredBoard(page);
    console.log(`all e2e checks passed; screenshots in ${shots}`);
  });
  rmSync(cwd, { recursive: true, force: true });
}

main();
