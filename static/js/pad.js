// The players' pad (templates/nights/pad/): its panel polls the page every few seconds
// (hx-trigger "every 5s"), but never while a deal is being typed: a poll is skipped while the
// focus is in a deal form or one of its fields was changed since the panel was last swapped.
// After a swap, the live region outside the panel (#pad-status) says what happened (what the
// panel marks data-announce), and after a player's own action the focus goes to the first
// field in error, else to what the table waits for. A file of its own: the content security
// policy allows no inline script.
let typing = false;
const inDealForm = (element) => element instanceof Element && element.closest("#pad-panel form.deal");
for (const type of ["input", "change"]) {
  document.addEventListener(type, (event) => {
    if (inDealForm(event.target)) typing = true;
  });
}
document.addEventListener("htmx:beforeRequest", (event) => {
  const element = event.detail.elt;
  if (!element || element.id !== "pad-panel") return; // a form's own request
  if (typing || inDealForm(document.activeElement)) event.preventDefault();
});
document.addEventListener("htmx:afterSettle", (event) => {
  const panel = document.getElementById("pad-panel");
  if (!panel || !event.target || event.target.id !== "pad-panel") return;
  const polled = event.detail.requestConfig && event.detail.requestConfig.verb === "get";
  typing = false;
  const said = [...panel.querySelectorAll("[data-announce]")]
    .map((element) => element.textContent.replace(/\s+/g, " ").trim())
    .filter(Boolean)
    .join(" ");
  const status = document.getElementById("pad-status");
  if (status && said) {
    status.textContent = "";
    window.setTimeout(() => { status.textContent = said; }, 50);
  }
  if (polled) return; // a poll leaves the focus where the player is
  const next =
    panel.querySelector("[aria-invalid=true]") ||
    panel.querySelector(".errorlist[tabindex]") ||
    panel.querySelector("#pad-waiting-title") ||
    panel.querySelector("#pad-title");
  if (next) {
    if (!next.hasAttribute("tabindex") && !next.matches("input, button, select, textarea, a")) {
      next.setAttribute("tabindex", "-1");
    }
    next.focus();
  }
});
