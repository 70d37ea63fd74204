// A run page that follows its run: while the run may still be playing (a league, or a run not
// finished), the progress line, the leaderboard and the pairwise matrix are fetched again every
// two seconds and swapped in place, without reloading the page.

const main = document.getElementById("run");
const PARTS = ["run-meta", "leaderboard", "pairwise"];

async function refresh() {
  const response = await fetch(location.href, { cache: "no-store" });
  if (!response.ok) return;
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  for (const id of PARTS) {
    const now = document.getElementById(id);
    const next = fresh.getElementById(id);
    if (now && next && now.outerHTML !== next.outerHTML) now.replaceWith(document.adoptNode(next));
  }
  main.dataset.refreshed = String(Number(main.dataset.refreshed ?? 0) + 1);
}

if (main?.dataset.live === "true") {
  setInterval(() => refresh().catch((err) => console.warn("refresh failed", err)), 2000);
}
