// The director's board (templates/nights/board.html): htmx fetches the tables every 5 s and
// swaps them in. What had the focus keeps it (found again by its id), and the status line
// outside the board says, once, how many deals wait when that changes. A file of its own: the
// content security policy allows no inline script.
let focusedId = null;
let lastSummary = null;

document.addEventListener("htmx:beforeSwap", (event) => {
  if (event.detail.target.id !== "board") return;
  const active = document.activeElement;
  focusedId = active && event.detail.target.contains(active) && active.id ? active.id : null;
});

document.addEventListener("htmx:afterSettle", () => {
  const board = document.getElementById("board");
  if (!board) return;
  if (focusedId) {
    const again = document.getElementById(focusedId);
    if (again && again !== document.activeElement) again.focus({ preventScroll: true });
    focusedId = null;
  }
  const summary = board.dataset.summary || "";
  if (lastSummary !== null && summary !== lastSummary) {
    document.getElementById("board-status").textContent = summary;
  }
  lastSummary = summary;
});

document.addEventListener("DOMContentLoaded", () => {
  const board = document.getElementById("board");
  if (board) lastSummary = board.dataset.summary || "";
  const error = document.getElementById("board-error");
  if (error) error.focus();
});
