// Checks shared by the e2e scripts: what a frame should show, computed from the replay
// independently of the renderers, and the check of one step of the replay page.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

// Debian's headless Chromium, driven by playwright-core (no browser download).
function launchBrowser(profile) {
  return chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1400, height: 950 },
  });
}

// Runs `checks(page)` in a fresh browser profile, then closes the browser, stops the server
// process and removes the profile; any failure exits with status 1.
export async function withBrowser(server, checks) {
  const profile = mkdtempSync(path.join(os.tmpdir(), "realm-e2e-"));
  let context;
  try {
    context = await launchBrowser(profile);
    await checks(context.pages()[0] ?? (await context.newPage()));
  } catch (err) {
    console.error(err);
    process.exitCode = 1;
  } finally {
    await context?.close();
    server.kill();
    rmSync(profile, { recursive: true, force: true });
  }
}

// Starts `REALM ARGS` in `cwd` and resolves with the URL it prints (after any other output).
export function startRealm(realm, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(realm, args, { cwd, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\/\S*/);
      if (m) resolve({ child, url: m[0], out });
    });
    child.on("exit", (code) => reject(new Error(`realm ${args.join(" ")} exited with ${code}: ${out}`)));
  });
}

// ---- expected counts, computed from a frame independently of the renderers ----

const chars = (rows, pred) => (Array.isArray(rows) ? rows : []).join("").split("").filter(pred).length;
const kingdominoCells = (rows) => {
  let n = 0;
  for (const row of rows ?? []) for (let i = 0; i < row.length; i += 2) if (row[i] !== "_") n++;
  return n;
};
const kbTokens = (rows) => (rows ?? []).flatMap((r) => (/\s/.test(r.trim()) ? r.trim().split(/\s+/) : [...r.trim()]));

// selector -> expected count, for one frame of one game.
export function expectedCounts(game, f, nPlayers, variant, initial = {}) {
  const out = {};
  const seats = [...Array(nPlayers).keys()];
  switch (game) {
    case "kingdomino": {
      seats.forEach((p) => (out[`[data-kingdom="${p}"] [data-cell]`] = kingdominoCells(f.kingdoms?.[p])));
      // ID 0 is a placeholder, not a domino (spec §3: turn 1's CURRENT, turn T's NEXT).
      const real = (line) => (line ?? []).filter((d) => d.id !== 0);
      out["[data-domino]"] = real(f.current).length + real(f.next).length;
      out["[data-domino][data-played]"] = real(f.current).filter((_, i) => i < f.slot).length;
      // Kings (spec §1.3): 2 per player with 2 players, else 1. Every king of a player still
      // in the game stands on the draft line (waiting to pick in turn 1, on its current tile
      // until played, then on the tile it picked), except in the last turn (no line to pick
      // from, R10), where a king leaves once its tile is played. Eliminated players' kings
      // are off the board (R30).
      const kingsEach = nPlayers === 2 ? 2 : 1;
      const active = (p) => typeof p === "number" && p >= 0 && f.eliminated?.[p] !== true;
      const lastTurn = (f.next ?? []).every((d) => d.id === 0);
      seats.forEach((p) => {
        const unplayed = (f.current ?? []).filter((d, i) => i >= f.slot && d.owner === p).length;
        out[`[data-king="${p}"]`] = !active(p) ? 0 : lastTurn ? unplayed : kingsEach;
      });
      out["[data-king]"] = seats.reduce((sum, p) => sum + out[`[data-king="${p}"]`], 0);
      break;
    }
    case "blocking":
      seats.forEach((p) => (out[`[data-cell][data-player="${p}"]`] = chars(f.board, (c) => c === String(p))));
      out["[data-last]"] = (f.last_move?.cells ?? []).length;
      // Every remaining shape drawn beside the board; every placed one outlined on it.
      seats.forEach((p) => (out[`[data-piece][data-player="${p}"]`] = (f.remaining?.[p] ?? []).length));
      seats.forEach((p) => (out[`[data-piece-outline][data-player="${p}"]`] = (initial.remaining?.[p] ?? []).length - (f.remaining?.[p] ?? []).length));
      if (variant === "duo") {
        // Blokus Duo's two start cells (4,4) and (9,9) are either player's: drawn neutral
        // while still empty, never in a player's colour.
        out['[data-start="shared"]'] = [[4, 4], [9, 9]].filter(([x, y]) => f.board?.[y]?.[x] === ".").length;
        out['[data-start]:not([data-start="shared"])'] = 0;
      }
      break;
    case "ice-and-fire":
      out['[data-cell][data-owner="0"][data-active="true"]'] = chars(f.cells, (c) => c === "R");
      out['[data-cell][data-owner="0"][data-active="false"]'] = chars(f.cells, (c) => c === "r");
      out['[data-cell][data-owner="1"][data-active="true"]'] = chars(f.cells, (c) => c === "B");
      out['[data-cell][data-owner="1"][data-active="false"]'] = chars(f.cells, (c) => c === "b");
      for (const level of [1, 2, 3]) out[`[data-unit][data-level="${level}"]`] = (f.units ?? []).filter((u) => u.level === level).length;
      for (const type of ["hq", "mine", "tower"]) out[`[data-building="${type}"]`] = (f.buildings ?? []).filter((b) => b.type === type).length;
      out["[data-mine-spot]"] = (f.mine_spots ?? []).length;
      break;
    case "carcassonne":
      out["[data-tile]"] = (f.tiles ?? []).length;
      seats.forEach((p) => (out[`[data-man][data-player="${p}"]`] = (f.men ?? []).filter((m) => m.player === p).length));
      out["[data-tile] [data-monastery]"] = (f.tiles ?? []).filter((t) => t.center === 1).length;
      out["[data-next-tile]"] = f.tile_to_place ? 1 : 0;
      break;
    case "kingdom-builder": {
      const toks = kbTokens(f.rows);
      out["[data-cell]"] = toks.length;
      seats.forEach((p) => (out[`[data-settlement][data-player="${p}"]`] = toks.filter((t) => t === String(p + 1)).length));
      out['[data-token="C"]'] = toks.filter((t) => t === "C").length;
      if (Array.isArray(f.map)) {
        // A match frame: every location hex with its tiles left, each seat's tiles listed, and
        // the cells the last turn's commands name outlined (MOVE names two).
        out["[data-location]"] = (f.locations ?? []).length;
        out["[data-tile-left]"] = (f.locations ?? []).reduce((sum, l) => sum + l.left, 0);
        seats.forEach((p) => (out[`[data-seat-tiles="${p}"][data-count="${(f.tiles?.[p] ?? []).length}"]`] = 1));
        const cells = (f.last?.commands ?? []).flatMap((c) => {
          const words = c.trim().split(/\s+/);
          const n = words.slice(words[0].toUpperCase() === "BUILD" ? 1 : 2);
          return n.length === 4 ? [`${n[0]} ${n[1]}`, `${n[2]} ${n[3]}`] : [`${n[0]} ${n[1]}`];
        });
        out["[data-last]"] = new Set(cells).size;
        out["[data-card]"] = typeof f.mover === "number" && f.card?.[f.mover] ? 1 : 0;
      }
      break;
    }
    default:
      out["[data-fallback]"] = 1;
  }
  return out;
}

// ---- one step of the replay page ----

export async function checkStep(page, replay, step, label) {
  const game = replay.spec.game;
  await page.waitForFunction((s) => document.querySelector("#board")?.dataset.step === String(s), step);
  const frame = step === 0 ? replay.initial_frame : replay.turns[step - 1].frame;
  const expected = expectedCounts(game, frame, replay.spec.n_players, replay.spec.variant, replay.initial_frame);
  for (const [selector, count] of Object.entries(expected)) {
    const got = await page.locator(`#board ${selector}`).count();
    assert.equal(got, count, `${label} step ${step}: ${selector}`);
  }
  const scores = await page.locator('tr[data-row="score"] td').allTextContents();
  assert.deepEqual(scores.map(Number), frame.scores.map(Number), `${label} step ${step}: scores`);
  if (step === replay.turns.length) {
    const ranks = await page.locator('tr[data-row="rank"] td').allTextContents();
    assert.deepEqual(ranks, replay.outcome.ranks.map((r) => `#${r}`), `${label}: final ranks`);
    // Result figures beyond the score (outcome.stats), one row each under the final ranks.
    for (const stat of replay.outcome.stats ?? []) {
      const row = await page.locator(`tr[data-stat="${stat.name}"] td`).allTextContents();
      assert.deepEqual(row.map(Number), stat.values, `${label} step ${step}: stat ${stat.name}`);
    }
  }
  if (step > 0) {
    const call = replay.turns[step - 1];
    assert.equal(await page.locator("#verdict").getAttribute("data-status"), call.verdict.status, `${label} step ${step}: verdict`);
    assert.equal(await page.locator("#io-output").textContent(), call.output.join("\n"), `${label} step ${step}: output`);
    assert.equal(await page.locator("#io-input").textContent(), call.input.join("\n"), `${label} step ${step}: input`);
    if (call.stderr) assert.equal((await page.locator("#io-stderr").textContent()).trim(), call.stderr.trim());
  }
  return Object.keys(expected).length;
}

// ---- colour blindness ----

// CIELAB of a colour ("#rrggbb") as seen with normal vision or under a simulated colour
// blindness (a CVD matrix: Machado et al. 2009, severity 1).
export const CVD = {
  normal: null,
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.3039]],
};

export function lab(hex, matrix) {
  const lin = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  const rgb = matrix ? matrix.map((row) => Math.min(1, Math.max(0, row[0] * lin[0] + row[1] * lin[1] + row[2] * lin[2]))) : lin;
  const [X, Y, Z] = [0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2], 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2],
    0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]];
  const f = (t) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(Y) - 16, 500 * (f(X / 0.95047) - f(Y)), 200 * (f(Y) - f(Z / 1.08883))];
}
