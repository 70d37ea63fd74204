// The renderer for a game without its own: prints the frame's JSON so the replay is still
// readable turn by turn.

export function render(frame) {
  const pre = document.createElement("pre");
  pre.className = "frame-json";
  pre.dataset.fallback = "true";
  pre.textContent = JSON.stringify(frame, null, 1);
  return pre;
}
