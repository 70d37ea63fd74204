// End-to-end test of realm's replay viewer, as a person sees it: starts the viewer on a folder
// of replays (`cargo run -p realm-viewer --example serve_dir -- DIR`), opens every replay in
// headless Chromium, steps through it with the buttons, the keyboard and the step box, checks
// at several steps that the drawn board has exactly the pieces, units, tiles and settlements of
// the replay's frame, saves screenshots, and checks that path-traversal URLs get 404.
//
// Usage: node viewer.test.mjs [REPLAY_DIR]   (default: crates/viewer/tests/fixtures)
// Env: CHROMIUM (default /usr/bin/chromium), CARGO_TARGET_DIR (passed to cargo).

import { spawn } from "node:child_process";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkStep, withBrowser } from "./checks.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const replayDir = path.resolve(process.argv[2] ?? path.join(repo, "crates/viewer/tests/fixtures"));
const shots = path.join(here, "screenshots");
mkdirSync(shots, { recursive: true });

// ---- the server ----

function startServer() {
  return new Promise((resolve, reject) => {
    const child = spawn("cargo", ["run", "-q", "-p", "realm-viewer", "--example", "serve_dir", "--", replayDir], {
      cwd: repo,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let buffer = "";
    child.stdout.on("data", (chunk) => {
      buffer += chunk;
      const line = buffer.split("\n")[0];
      if (buffer.includes("\n")) resolve({ child, url: line.trim() });
    });
    child.on("exit", (code) => reject(new Error(`serve_dir exited with ${code}`)));
  });
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
  assert.equal(await page.locator("#step-input").getAttribute("max"), String(last), `${label}: last step`);
  let checks = await checkStep(page, replay, 0, label);

  // One step with the button, one with the keyboard, one back.
  await page.click("#next");
  checks += await checkStep(page, replay, 1, label);
  await page.keyboard.press("ArrowRight");
  checks += await checkStep(page, replay, Math.min(2, last), label);
  await page.keyboard.press("ArrowLeft");
  checks += await checkStep(page, replay, 1, label);

  // Jump to the middle with the step box, then to the end with the End key.
  const mid = Math.floor(last / 2);
  await page.fill("#step-input", String(mid));
  await page.press("#step-input", "Enter");
  checks += await checkStep(page, replay, mid, label);
  await page.screenshot({ path: path.join(shots, `${entry.name.replace(/\.json$/, "").replaceAll("/", "_")}-step${mid}.png`), fullPage: true });
  // Keys typed into the step box stay there; a click on the board gives them back to the page.
  await page.click("#board");
  await page.keyboard.press("End");
  checks += await checkStep(page, replay, last, label);
  assert.equal(await page.locator("tr.final").count(), 1, `${label}: final ranks shown`);
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

async function main() {
  const { child, url } = await startServer();
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
    console.log(`all e2e checks passed; screenshots in ${shots}`);
  });
}

main();
