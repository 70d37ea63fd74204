// A run page that follows its run: while the run may still be playing (a running run, or a
// league), its title, progress line, leaderboard, pairwise matrix and report are fetched again
// every two seconds and swapped in place, without reloading the page. Each part has a
// container that is always there, so a part absent at first (the matrix of an empty league)
// appears once it exists. Polling stops when the run is no longer running, or when nothing
// changed for five minutes (an idle league); the page then says so.

const main = document.getElementById("run");
const PARTS = ["run-title", "run-meta", "leaderboard", "pairwise-section", "report"];
const PERIOD_MS = 2000;
const QUIET_LIMIT = 150; // refreshes without a change before the page stops asking

let quiet = 0;
let timer = null;

function stop(reason) {
  clearInterval(timer);
  main.dataset.live = "false";
  main.dataset.stopped = reason;
  const note = document.getElementById("live-note");
  if (note) note.textContent = reason === "quiet"
    ? "Not following any more: nothing changed for five minutes. Reload to follow again."
    : "";
}

async function refresh() {
  const response = await fetch(location.href, { cache: "no-store" });
  if (!response.ok) return;
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  let changed = false;
  for (const id of PARTS) {
    const now = document.getElementById(id);
    const next = fresh.getElementById(id);
    if (now && next && now.outerHTML !== next.outerHTML) {
      now.replaceWith(document.adoptNode(next));
      changed = true;
    }
  }
  main.dataset.refreshed = String(Number(main.dataset.refreshed ?? 0) + 1);
  quiet = changed ? 0 : quiet + 1;
  if (fresh.getElementById("run")?.dataset.live !== "true") stop("finished");
  else if (quiet >= QUIET_LIMIT) stop("quiet");
}

if (main?.dataset.live === "true") {
  timer = setInterval(() => refresh().catch((err) => console.warn("refresh failed", err)), PERIOD_MS);
}
