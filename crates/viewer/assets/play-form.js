// The Play page of `realm serve`: a form that starts a match against a bot (game, variant or
// league, players, opponent, your seat, seed) and opens its page. The server starts it only for
// a request carrying X-Realm-Play, which a page of another site cannot send.

import { h } from "./dom.js";

const app = document.getElementById("play-form");


const field = (id, text, control) => h("p", { class: "play-field" }, h("label", { for: id }, text), " ", control);
const options = (values, selected) => values.map((v) => h("option", { value: v, selected: String(v) === String(selected) }, String(v)));

main().catch((err) => app.append(h("p", { class: "error" }, `Cannot load the games: ${err.message}`)));

async function main() {
  const response = await fetch("/play/catalog");
  if (!response.ok) throw new Error(`${response.status}`);
  const catalog = await response.json();
  const games = catalog.games;
  const game = h("select", { id: "form-game", name: "game" }, ...games.map((g) => h("option", { value: g.slug }, g.title)));
  const variant = h("select", { id: "form-variant", name: "variant" });
  const league = h("select", { id: "form-league", name: "league" });
  const players = h("select", { id: "form-players", name: "players" });
  const opponent = h("select", { id: "form-opponent", name: "opponent" });
  const command = h("input", { id: "form-command", name: "command", type: "text", placeholder: "python3 my_bot.py", size: 30, disabled: !catalog.commands });
  const seat = h("select", { id: "form-seat", name: "seat" });
  const seed = h("input", { id: "form-seed", name: "seed", type: "text", inputmode: "numeric", placeholder: "random", size: 12 });
  const message = h("p", { id: "form-message", role: "status" });
  const refresh = () => {
    const g = games.find((x) => x.slug === game.value);
    const v0 = variant.value;
    variant.replaceChildren(...options(g.variants.map((v) => v.name), v0));
    const v = g.variants.find((x) => x.name === variant.value) ?? g.variants[0];
    const l0 = league.value || g.default_league;
    league.replaceChildren(...options(g.leagues, l0));
    const p0 = players.value;
    players.replaceChildren(...options(v.players, v.players.includes(Number(p0)) ? p0 : v.players[0]));
    const s0 = seat.value;
    seat.replaceChildren(...Array.from({ length: Number(players.value) }, (_, i) => h("option", { value: i, selected: String(i) === s0 }, `seat ${i}${i === 0 ? " (first)" : ""}`)));
    opponent.replaceChildren(...options(g.bots.map((b) => `builtin:${b}`), opponent.value || "builtin:greedy"));
  };
  for (const s of [game, variant, players]) s.addEventListener("change", refresh);
  refresh();
  const form = h("form", { id: "play-new", onsubmit: async (e) => {
    e.preventDefault();
    const q = new URLSearchParams({ game: game.value, variant: variant.value, league: league.value, players: players.value,
      opponent: command.value.trim() || opponent.value, seat: seat.value, seed: seed.value.trim() });
    message.textContent = "Starting…";
    const r = await fetch(`/play/new?${q}`, { method: "POST", headers: { "X-Realm-Play": "1" } });
    const body = await r.json();
    if (!r.ok) {
      message.textContent = `Cannot start: ${body.error}`;
      return;
    }
    location.href = body.url;
  } },
    field("form-game", "Game", game), field("form-variant", "Variant", variant), field("form-league", "League", league),
    field("form-players", "Players", players), field("form-opponent", "Opponents", opponent),
    field("form-command", catalog.commands ? "or a command" : "or a command (needs realm serve --play-commands)", command),
    field("form-seat", "Your seat", seat), field("form-seed", "Seed", seed),
    h("p", {}, h("button", { type: "submit", id: "form-start", class: "primary" }, "Start the match")), message);
  app.querySelector(".loading")?.remove();
  app.append(form);
}
