// Accessibility and small-screen checks of the viewer (issue 41 items 1, 9, 10, 11, 16, 17, 18,
// 20), in headless Chromium: axe-core's colour-contrast and naming rules on every page in both
// themes, long names, colour-blind palettes, a 400 px window, and the replay page's details
// (the arena's warnings on the slider, panel keys, ANSI colours, empty outputs, format
// versions, the board's description and the step announcement).
//
// Usage: node a11y.test.mjs REALM_BINARY REPLAY_DIR RUN_STORE RUN_STORE_REPLAYS
// Env: CHROMIUM (default /usr/bin/chromium).

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CVD, lab, startRealm, withBrowser } from "./checks.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const [realm, replayArg, db, storeReplays] = process.argv.slice(2);
if (!realm || !replayArg || !db || !storeReplays) {
  console.error("usage: node a11y.test.mjs REALM_BINARY REPLAY_DIR RUN_STORE RUN_STORE_REPLAYS");
  process.exit(2);
}
const replayDir = path.resolve(replayArg);
const shots = path.join(here, "screenshots");
mkdirSync(shots, { recursive: true });
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const REAL = ["real-kingdomino.json", "real-kingdomino-4p.json", "real-blocking-3p.json", "real-ice-and-fire.json",
  "real-carcassonne-3p.json", "real-kingdom-builder.json", "real-kingdom-builder-3p.json", "debug-kingdomino-3p.json"];
const load = (name) => JSON.parse(readFileSync(path.join(replayDir, name), "utf8"));
// The README's own tuning workflow: names longer than any label, two of them sharing a long prefix.
const LONG = ["builtin:mcts:ms=20,c=0.7,iters=5000,prior=0.25,rollout=greedy#1", "builtin:mcts:ms=20,c=0.7,iters=5000,prior=0.25,rollout=greedy#2"];

// The folder served: the real replays and copies made to show one thing each.
function makeFolder() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "realm-a11y-"));
  for (const name of REAL) copyFileSync(path.join(replayDir, name), path.join(dir, name));
  const write = (name, replay) => writeFileSync(path.join(dir, name), JSON.stringify(replay));
  // The arena's own warnings (recorded with --timings), an ANSI-coloured stderr, an empty output.
  const warned = load("real-kingdomino.json");
  warned.turns[3].late = true;
  warned.turns[6].stderr_after_answer = true;
  warned.turns[4].stderr = "\u001b[1;31merror\u001b[0m in \u001b[32mgreen\u001b[0m\n";
  warned.turns[5].output = [];
  write("warned-kingdomino.json", warned);
  const newer = load("real-kingdomino.json");
  newer.format_version = 99;
  write("newer-kingdomino.json", newer);
  const long = load("real-kingdomino.json");
  long.players.forEach((p, i) => (p.name = LONG[i]));
  write("long-kingdomino.json", long);
  const longCarcassonne = load("real-carcassonne-3p.json");
  longCarcassonne.players.forEach((p, i) => (p.name = LONG[i % 2] + (i === 2 ? "-third" : "")));
  write("long-carcassonne-3p.json", longCarcassonne);
  const longBlocking = load("real-blocking-3p.json");
  longBlocking.players.forEach((p, i) => (p.name = LONG[i % 2] + (i === 2 ? "-third" : "")));
  write("long-blocking-3p.json", longBlocking);
  return dir;
}

async function open(page, base, file, step = 0) {
  await page.goto(new URL(`replay/${file}#step=${step}`, base).href);
  await page.waitForSelector('#app[data-ready="true"]');
  await page.waitForFunction((s) => document.querySelector("#board")?.dataset.step === String(s), step);
}

// axe-core's colour-contrast and naming rules on the page as shown: violations as text lines.
async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe === "object"))) await page.evaluate(AXE);
  const result = await page.evaluate(() => window.axe.run(document, {
    runOnly: { type: "rule", values: ["color-contrast", "button-name", "link-name", "image-alt", "svg-img-alt", "label",
      "select-name", "input-button-name", "aria-input-field-name", "document-title", "summary-name", "role-img-alt"] },
  }));
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")} ${n.failureSummary.split("\n").slice(1, 2).join("").trim()}`));
}

// Text drawn in a board's SVG (axe-core does not look there): each text's fill against the
// first filled shape under its middle, or the board's background. [ratio, text, fill, under].
async function boardTextContrast(page) {
  return page.evaluate(() => {
    const rgb = (c) => {
      const m = c.match(/[\d.]+/g);
      if (c.startsWith("#")) {
        const hex = c.length === 4 || c.length === 5 ? [...c.slice(1, 4)].map((x) => x + x).join("") : c.slice(1, 7);
        return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
      }
      return m ? m.slice(0, 3).map(Number) : null;
    };
    const lum = (c) => {
      const [r, g, b] = rgb(c).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const opaque = (fill) => fill && fill !== "none" && fill !== "transparent" && !/rgba\(.*, 0\)$/.test(fill);
    const board = document.querySelector("#board");
    const boardBg = getComputedStyle(board).backgroundColor;
    const out = [];
    for (const t of board.querySelectorAll("svg text")) {
      const box = t.getBoundingClientRect();
      if (!t.textContent.trim() || box.width === 0) continue;
      const stack = document.elementsFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      // Text under something drawn over it (an eliminated kingdom's veil) is not shown text.
      const top = stack.find((e) => !["title", "tspan"].includes(e.tagName));
      if (top && top !== t && !t.contains(top) && !["svg", "g"].includes(top.tagName) && opaque(getComputedStyle(top).fill)) continue;
      const under = stack
        .filter((e) => e.closest("#board") && !["text", "tspan", "title", "svg", "g"].includes(e.tagName) && e.namespaceURI.endsWith("svg"))
        .map((e) => getComputedStyle(e).fill).find(opaque);
      const bg = under ?? boardBg;
      const fg = getComputedStyle(t).fill;
      const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      out.push([(a + 0.05) / (b + 0.05), t.textContent.trim().slice(0, 30), fg, bg]);
    }
    return out;
  });
}

// Item 9: every text on every board and page meets 4.5:1 in both themes; names everywhere.
async function checkAxe(page, base, runs) {
  const pages = [
    ...REAL.map((name) => [name, new URL(`replay/${name}#step=${Math.floor(load(name).turns.length / 2)}`, base).href]),
    ["index", base],
    ["run page", new URL("runs/1", runs.store).href],
    ["matches", new URL("runs/1/matches", runs.store).href],
    ["league page", new URL("runs/1", runs.league).href],
  ];
  const failures = [];
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [label, url] of pages) {
      await page.goto(url);
      if (url.includes("/replay/")) await page.waitForSelector('#app[data-ready="true"]');
      failures.push(...(await axeViolations(page)).map((v) => `${scheme} ${label}: ${v}`));
      if (url.includes("/replay/")) {
        await page.screenshot({ path: path.join(shots, `a11y-${scheme}-${label.replace(/\.json$/, "")}.png`) });
        const low = (await boardTextContrast(page)).filter(([ratio]) => ratio < 4.5);
        failures.push(...low.map(([r, t, fg, bg]) => `${scheme} ${label}: board text "${t}" ${fg} on ${bg}: ${r.toFixed(2)}`));
      }
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  if (failures.length) console.error(failures.join("\n"));
  assert.equal(failures.length, 0, "axe: contrast and names");
  console.log(`ok   axe-core: colour contrast and names on ${pages.length} pages, light and dark`);
}

// Item 1: the arena's warnings (a late answer, stderr after the answer) are marks on the slider
// beside the referee's, f stops at them, and the call says which.
async function checkArenaWarnings(page, base) {
  const replay = load("real-kingdomino.json");
  await open(page, base, "warned-kingdomino.json", 0);
  const marks = await page.locator("[data-mark-step]").evaluateAll((ms) => ms.map((m) => [Number(m.dataset.markStep), m.dataset.markKind]));
  const verdicts = replay.turns.map((t, i) => [i + 1, t.verdict.status]).filter(([, s]) => s !== "ok");
  const expected = [...verdicts.filter(([s]) => s !== 4 && s !== 7), [4, "warning"], [7, "warning"]].sort((a, b) => a[0] - b[0]);
  assert.deepEqual(marks, expected, "a mark at each late answer and stderr after the answer");
  assert.match(await page.locator('[data-mark-step="4"]').getAttribute("title"), /late/);
  assert.match(await page.locator('[data-mark-step="7"]').getAttribute("title"), /stderr written after the answer/);
  await page.click("#board");
  for (const [step] of expected.filter(([s]) => s <= 7)) {
    await page.keyboard.press("f");
    await page.waitForFunction((s) => document.querySelector("#board")?.dataset.step === String(s), step);
  }
  assert.equal(await page.locator('[data-arena-warning="stderr-after-answer"]').count(), 1, "the call says its stderr came late");
  await page.keyboard.press("Shift+F");
  await page.waitForFunction(() => document.querySelector("#board")?.dataset.step !== "7");
  await page.goto(new URL("replay/warned-kingdomino.json#step=4", base).href);
  await page.waitForFunction(() => document.querySelector("#board")?.dataset.step === "4");
  assert.equal(await page.locator('[data-arena-warning="late"]').count(), 1, "the call says it was late");
  assert.ok(!(await page.locator("#call").textContent()).includes("null"), "no stray null in the call panel");
  console.log("ok   late answers and stderr after the answer are marked on the slider and said on the call");
}

// Item 18: the replay page's small faults.
async function checkDetails(page, base, runs) {
  // Space on a focused panel heading folds it and does not start playback.
  await open(page, base, "real-kingdomino.json", 3);
  await page.focus('details[data-block="output"] summary');
  await page.keyboard.press(" ");
  assert.equal(await page.locator('details[data-block="output"]').getAttribute("open"), null, "Space folded the output");
  await page.waitForTimeout(800);
  assert.equal(await page.locator("#board").getAttribute("data-step"), "3", "Space on a heading does not play");
  // ANSI colour codes in stderr are stripped, in the call and in the console.
  await open(page, base, "warned-kingdomino.json", 5);
  assert.equal(await page.locator("#io-stderr").textContent(), "error in green");
  assert.ok((await page.locator("#console-lines").textContent()).includes("error in green"), "console without escape codes");
  // An empty output says so.
  await open(page, base, "warned-kingdomino.json", 6);
  assert.equal(await page.locator("#io-output").evaluate((e) => getComputedStyle(e, "::before").content), '"no output"');
  // Score-table labels break between words only.
  for (const [file, step] of [["real-kingdom-builder.json", 0], ["real-carcassonne-3p.json", 5], ["real-blocking-3p.json", 5]]) {
    await open(page, base, file, step);
    const split = await page.$$eval("#scores tr > th:first-child", (ths) => ths.filter((th) => {
      const range = document.createRange();
      const words = th.textContent.split(/\s+/).filter(Boolean);
      let at = 0;
      return words.some((w) => {
        const node = th.firstChild;
        const start = node.textContent.indexOf(w, at);
        at = start + w.length;
        range.setStart(node, start);
        range.setEnd(node, start + w.length);
        return range.getClientRects().length > 1;
      });
    }).map((th) => th.textContent));
    assert.deepEqual(split, [], `${file}: no label split inside a word`);
  }
  // Carcassonne says "bag empty" only when the game ran its course.
  const carcassonne = load("real-carcassonne-3p.json");
  const ended = { ...carcassonne, outcome: { ...carcassonne.outcome, end: { kind: "fault", player: 1, fault: "timeout" } } };
  const text = await page.evaluate(async ([frame, end]) => {
    const mod = await import("/assets/renderers/carcassonne.js");
    const env = { nPlayers: 3, names: ["a", "b", "c"], spec: {}, step: 1, call: null, end };
    return mod.render({ ...frame, tile_to_place: null }, env).querySelector(".board-aside .small").textContent;
  }, [carcassonne.turns.at(-1).frame, ended.outcome.end]);
  assert.equal(text, "none (the game ended: fault)");
  // A newer format is said.
  await open(page, base, "newer-kingdomino.json", 0);
  assert.match(await page.locator("#format-warning").textContent(), /format 99; this viewer knows format 1/);
  await open(page, base, "real-kingdomino.json", 0);
  assert.equal(await page.locator("#format-warning").count(), 0, "no warning for the known format");
  // Kingdom Builder's one position: no seed, no play controls.
  await open(page, base, "real-kingdom-builder.json", 0);
  assert.equal(await page.locator("#play, #step-slider").count(), 0, "no play controls for one position");
  assert.ok(!(await page.title()).includes("seed") && !(await page.locator("h1").textContent()).includes("seed"), await page.title());
  // A stored match's page keeps "Run #N match M" in its title; the list counts calls.
  await page.goto(new URL("runs/1/matches/1", runs.store).href);
  await page.waitForSelector('#app[data-ready="true"]');
  assert.match(await page.title(), /^Run #1 match 1 · kingdomino/);
  await page.goto(new URL("runs/1/matches", runs.store).href);
  assert.equal(await page.locator("#matches thead th:nth-child(5)").textContent(), "Calls");
  console.log("ok   panel keys, ANSI stripped, 'no output', labels whole, Carcassonne's end, format warning, one position, match title");
}

// Item 10: a tuning run's long names (two sharing a 40-character prefix) keep the page within a
// 1,400 px window, and the board's seat labels stay distinct with the full name on hover.
async function checkLongNames(page, base, folder) {
  await page.setViewportSize({ width: 1400, height: 950 });
  for (const file of ["long-kingdomino.json", "long-carcassonne-3p.json", "long-blocking-3p.json"]) {
    const replay = JSON.parse(readFileSync(path.join(folder, file), "utf8"));
    const n = replay.turns.length;
    for (const step of [0, Math.floor(n / 2), n]) {
      await open(page, base, file, step);
      const [scroll, inner] = await page.evaluate(() => [document.scrollingElement.scrollWidth, window.innerWidth]);
      assert.ok(scroll <= inner, `${file} step ${step}: the page is ${scroll} px wide in a ${inner} px window`);
      // No part of the page left out shows as a stray "null".
      assert.deepEqual(await page.$eval("#app", (app) => [...app.childNodes]
        .filter((c) => c.nodeType === 3 && c.textContent.trim()).map((c) => c.textContent)), [], `${file}: stray text`);
      const labels = await page.$$eval("#board [data-seat-label]", (ts) => ts.map((t) => [t.firstChild.textContent, t.querySelector("title")?.textContent]));
      const names = replay.players.map((p) => p.name);
      if (file.includes("carcassonne")) {
        // Carcassonne names its seats in an HTML list that wraps, with the full name as a title.
        assert.deepEqual(await page.$$eval("#board ul.men-left span", (ss) => ss.map((s) => s.title)), names, `${file}: names kept`);
        continue;
      }
      assert.equal(labels.length, names.length, `${file} step ${step}: a label per seat`);
      assert.equal(new Set(labels.map(([l]) => l)).size, names.length, `${file} step ${step}: distinct labels ${labels.map(([l]) => l)}`);
      assert.deepEqual(labels.map(([, title]) => title), names, `${file} step ${step}: the full name on hover`);
    }
  }
  console.log("ok   long names: the page stays in the window, seat labels distinct with the full name on hover");
}

// The closest two colours come for any reader: [distance, simulation].
function closest(a, b) {
  return Object.entries(CVD).map(([name, m]) => [Math.hypot(...lab(a, m).map((v, i) => v - lab(b, m)[i])), name]).sort((x, y) => x[0] - y[0])[0];
}
const CVD_MIN = 20;

// Item 11: what each renderer draws, region kind by kind ([data-kind] with its fill) and the
// second cues beside the colour ([data-cue] for a kind: a letter, a glyph, a pattern, an
// outline). Every pair of kinds is at least CVD_MIN apart in CIELAB under normal vision,
// deuteranopia, protanopia and tritanopia, or carries different cues (which every region of a
// cued kind has). Men of different seats are the seat palette, audit.test.mjs's check.
async function checkColourBlindness(page, base) {
  await open(page, base, "real-kingdomino.json", 0);
  const empty = "_0".repeat(9);
  const kingdomino = { size: 9, kingdoms: [[empty, "c0f1g0l0w0m2*0_0_0", ...Array(7).fill(empty)]], current: [], next: [], slot: 0 };
  const boards = [
    ["kingdomino", kingdomino, 1],
    ["carcassonne", load("real-carcassonne-3p.json").turns.at(-1).frame, 3],
    ["kingdom-builder", load("real-kingdom-builder.json").initial_frame, 4],
    ["kingdom-builder", load("real-kingdom-builder-3p.json").turns.at(-1).frame, 3, "kingdom-builder match"],
  ];
  const failures = [];
  for (const [game, frame, n, label = game] of boards) {
    const drawn = await page.evaluate(async ([game, frame, n]) => {
      const mod = await import(`/assets/renderers/${game}.js`);
      const names = Array.from({ length: n }, (_, i) => `p${i}`);
      const root = mod.render(frame, { nPlayers: n, names, spec: {}, step: 1, call: null, history: [frame] });
      const kinds = {};
      for (const e of root.querySelectorAll("[data-kind]")) {
        const k = (kinds[e.dataset.kind] ??= { fills: new Set(), count: 0, cues: new Set(), cued: 0 });
        k.fills.add(e.getAttribute("fill") ?? e.getAttribute("stroke"));
        k.count++;
      }
      for (const e of root.querySelectorAll("[data-cue-for]")) {
        const k = kinds[e.dataset.cueFor];
        if (k) { k.cues.add(e.dataset.cue); k.cued++; }
      }
      return Object.entries(kinds).map(([name, k]) => ({ name, fills: [...k.fills], count: k.count, cue: [...k.cues].sort().join(","), cued: k.cued }));
    }, [game, frame, n]);
    const names = drawn.map((k) => k.name);
    const expected = { kingdomino: ["corn field", "forest", "grassland", "lake", "wetland", "mine"],
      carcassonne: ["field", "castle", "road", "man-0", "man-1", "man-2"], "kingdom-builder": ["plain", "water", "mountain", "town", "castle"],
      "kingdom-builder match": ["grass", "canyon", "desert", "flower", "forest", "water", "mountain", "location", "castle"] }[label];
    for (const k of expected) if (!names.includes(k)) failures.push(`${label}: no ${k} drawn with data-kind`);
    for (const k of drawn) {
      if (k.fills.length !== 1) failures.push(`${game}: ${k.name} drawn in ${k.fills}`);
      if (k.cue && k.cued < k.count) failures.push(`${game}: ${k.cued} of ${k.count} ${k.name} regions carry their cue`);
    }
    for (let i = 0; i < drawn.length; i++) for (let j = i + 1; j < drawn.length; j++) {
      const [a, b] = [drawn[i], drawn[j]];
      if (a.name.startsWith("man-") && b.name.startsWith("man-")) continue;
      const [d, vision] = closest(a.fills[0], b.fills[0]);
      if (d < CVD_MIN && a.cue === b.cue) failures.push(`${game}: ${a.name} ${a.fills[0]} and ${b.name} ${b.fills[0]} are ${d.toFixed(1)} apart under ${vision}, cues "${a.cue}" / "${b.cue}"`);
    }
  }
  if (failures.length) console.error(failures.join("\n"));
  assert.deepEqual(failures, [], "colour-blind readers tell every drawn kind apart");
  console.log("ok   colour blindness: Kingdomino's, Carcassonne's and Kingdom Builder's (scored board and match) kinds apart under 4 visions or by a second cue");
}

// Item 16: at 400 px nothing makes the page scroll sideways (tables scroll in their own box)
// and every board takes the width.
async function checkSmallScreen(page, base, runs) {
  await page.setViewportSize({ width: 400, height: 800 });
  try {
    const pages = [
      ...REAL.map((name) => [name, new URL(`replay/${name}#step=${Math.floor(load(name).turns.length / 2)}`, base).href]),
      ["long-carcassonne-3p.json", new URL("replay/long-carcassonne-3p.json#step=10", base).href],
      ["index", base],
      ["run page", new URL("runs/1", runs.store).href],
      ["matches", new URL("runs/1/matches", runs.store).href],
      ["league page", new URL("runs/1", runs.league).href],
    ];
    const failures = [];
    for (const [label, url] of pages) {
      await page.goto(url);
      const replay = url.includes("/replay/");
      if (replay) await page.waitForSelector('#app[data-ready="true"]');
      const width = await page.evaluate(() => document.scrollingElement.scrollWidth);
      if (width > 400) failures.push(`${label}: the page is ${width} px wide`);
      if (replay) {
        const boards = await page.$$eval("#board .board-svg", (ss) => ss.map((s) => s.getBoundingClientRect().width));
        if (!boards.length || boards.some((w) => w < 0.9 * 400)) failures.push(`${label}: board ${boards} px wide`);
      }
    }
    await page.goto(new URL("runs/1", runs.store).href);
    await page.screenshot({ path: path.join(shots, "a11y-400-run.png"), fullPage: true });
    await page.goto(new URL("replay/real-carcassonne-3p.json#step=10", base).href);
    await page.waitForSelector('#app[data-ready="true"]');
    await page.screenshot({ path: path.join(shots, "a11y-400-carcassonne.png"), fullPage: true });
    if (failures.length) console.error(failures.join("\n"));
    assert.deepEqual(failures, [], "400 px");
  } finally {
    await page.setViewportSize({ width: 1400, height: 950 });
  }
  console.log("ok   400 px: no page scrolls sideways, boards take the width");
}

// Item 17: Kingdomino's running score is what a player counts (empty kingdoms score 0); the
// tie-break points show only in the final score, labelled.
async function checkKingdominoScore(page, base) {
  const replay = load("real-kingdomino.json");
  await open(page, base, "real-kingdomino.json", 0);
  assert.deepEqual(await page.locator('tr[data-row="score"] td').allTextContents(), ["0", "0"], "empty kingdoms score 0");
  await open(page, base, "real-kingdomino.json", replay.turns.length);
  const final = page.locator('tr[data-row="final-score"]');
  if (await final.count()) assert.match(await final.locator("th").textContent(), /tie-break/);
  console.log("ok   Kingdomino: empty kingdoms score 0; tie-break points only in the labelled final score");
}

// Item 20: the board's label says the position, a live region says each step, the chart has a
// label and a legend.
async function checkDescriptions(page, base) {
  const replay = load("real-kingdomino.json");
  const names = replay.players.map((p) => p.name);
  const step = 5;
  await open(page, base, "real-kingdomino.json", step);
  const label = await page.locator("#board .board-svg").first().getAttribute("aria-label");
  const call = replay.turns[step - 1];
  names.forEach((n, i) => assert.ok(label.includes(`${n} ${call.frame.scores[i]}`), `the label gives ${n}'s score: ${label}`));
  assert.ok(label.includes(`Step ${step} of ${replay.turns.length}`), label);
  assert.ok(label.includes(`last move: ${names[call.player]} (seat ${call.player}) answered ${call.output.join(", ")}`), label);
  assert.ok(label.includes(`to play: ${names[replay.turns[step].player]}`), label);
  const live = page.locator("#step-status");
  assert.equal(await live.getAttribute("aria-live"), "polite");
  await page.click("#next");
  await page.waitForFunction(() => document.querySelector("#board")?.dataset.step === "6");
  const said = await live.textContent();
  assert.ok(said.startsWith(`Step 6 of ${replay.turns.length}`) && said.includes(replay.turns[5].output.join(", ")), said);
  const chart = page.locator("#chart svg.chart");
  assert.equal(await chart.getAttribute("role"), "img");
  const chartLabel = await chart.getAttribute("aria-label");
  names.forEach((n) => assert.ok(chartLabel.includes(n), chartLabel));
  assert.deepEqual(await page.locator("#chart-legend li").allTextContents(), names, "the chart's legend names every line");
  await open(page, base, "real-kingdomino.json", replay.turns.length);
  const end = await page.locator("#board .board-svg").first().getAttribute("aria-label");
  assert.match(end, /game over: #1 /);
  console.log("ok   the board's label says scores, the last move and who plays; each step is announced; the chart has a label and a legend");
}

async function main() {
  const folder = makeFolder();
  const cwd = mkdtempSync(path.join(os.tmpdir(), "realm-a11y-serve-"));
  const leagueDir = mkdtempSync(path.join(os.tmpdir(), "realm-a11y-league-"));
  const realmIn = (...args) => execFileSync(realm, args, { cwd: leagueDir, stdio: ["ignore", "pipe", "pipe"] }).toString();
  realmIn("league", "new", "main", "kingdomino");
  realmIn("league", "add", "main", "builtin:greedy");
  realmIn("league", "add", "main", "builtin:random");
  realmIn("league", "run", "main", "--games", "2", "--quiet");
  const store = await startRealm(realm, ["serve", "--db", db, "--replays", storeReplays, "--port", "0"], cwd);
  const league = await startRealm(realm, ["serve", "--db", "realm.sqlite", "--port", "0"], leagueDir);
  const { child, url } = await startRealm(realm, ["serve", "--replays", folder, "--port", "0"], cwd);
  const runs = { store: store.url, league: league.url };
  await withBrowser(child, async (page) => {
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const only = process.env.A11Y_ONLY;
    const run = async (name, f) => { if (!only || only.split(",").includes(name)) await f(); };
    await run("warnings", () => checkArenaWarnings(page, url));
    await run("details", () => checkDetails(page, url, runs));
    await run("long-names", () => checkLongNames(page, url, folder));
    await run("colour-blindness", () => checkColourBlindness(page, url));
    await run("small-screen", () => checkSmallScreen(page, url, runs));
    await run("kingdomino-score", () => checkKingdominoScore(page, url));
    await run("descriptions", () => checkDescriptions(page, url));
    await run("axe", () => checkAxe(page, url, runs));
    assert.deepEqual(errors, [], "no script errors");
    console.log("all a11y checks passed");
  });
  store.child.kill();
  league.child.kill();
  for (const dir of [folder, cwd, leagueDir]) rmSync(dir, { recursive: true, force: true });
}

main();
