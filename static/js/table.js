// The table page, after htmx swaps in a new panel (a deal recorded, an error shown): the
// live region outside the panel (#table-status) says what happened (the panel's messages and
// errors, marked data-announce), and the focus goes where the director goes next: the first
// field in error, else an error at the top of a form, else the first field of the next deal,
// else the line that says the match is over. A file of its own: the content security policy
// allows no inline script.
document.addEventListener("htmx:afterSettle", (event) => {
  const panel = event.target;
  if (panel.id !== "table-panel") return;
  const status = document.getElementById("table-status");
  const said = [...panel.querySelectorAll("[data-announce]")]
    .map((element) => element.textContent.replace(/\s+/g, " ").trim())
    .filter(Boolean)
    .join(" ");
  status.textContent = "";
  // A change after the region was emptied is announced even when the words are the same.
  window.setTimeout(() => { status.textContent = said; }, 50);
  const next =
    panel.querySelector("[aria-invalid=true]") ||
    panel.querySelector(".errorlist[tabindex]") ||
    panel.querySelector("form.deal input[name=level]") ||
    panel.querySelector("#match-over");
  if (next) next.focus();
});
