// The players' pad (templates/nights/pad/): its panel polls the page every few seconds
// (hx-trigger "every 5s"), but never while a deal is being typed: a poll is skipped, and an
// answer on its way is not swapped in, while the focus is in a deal form or one of its fields
// was changed since the panel was last swapped. A poll does not dim the panel (its indicator
// is the hidden status region); a player's action does.
// After a swap, the live region outside the panel (#pad-status, in the page from the start)
// says what happened: what the panel marks data-announce and, after a poll, what the other
// phones did since (the panel's #pad-events, each with a key: an event is said once). After a
// player's own action the focus goes to the first field in error, else to what the table
// waits for; after a poll it stays where the player is (the same element, by its id), or, if
// the poll took that element away, goes to the new state's heading: never to the page's body.
// A file of its own: the content security policy allows no inline script.
let typing = false;
const inDealForm = (element) => element instanceof Element && element.closest("#pad-panel form.deal");
for (const type of ["input", "change"]) {
  document.addEventListener(type, (event) => {
    if (inDealForm(event.target)) typing = true;
  });
}
// Answers may arrive out of order (a poll sent just before a player's action answered after
// it): each request is numbered when sent, and a poll's answer older than what is on screen
// is not swapped in; no poll is sent while a player's action waits for its answer.
let issued = 0;
let shown = 0;
let acting = 0;
const isPoll = (event) => event.detail.elt && event.detail.elt.id === "pad-panel";
document.addEventListener("htmx:beforeRequest", (event) => {
  if (isPoll(event)) {
    if (acting > 0 || typing || inDealForm(document.activeElement)) {
      event.preventDefault(); // a poll, while a deal is being typed or an action is on its way
      return;
    }
  } else {
    acting += 1;
    event.detail.xhr.padAction = true;
  }
  issued += 1;
  event.detail.xhr.padIssued = issued;
});
document.addEventListener("htmx:afterRequest", (event) => {
  if (event.detail.xhr && event.detail.xhr.padAction) acting = Math.max(0, acting - 1);
});
// A poll that brings nothing new is not swapped in (the forms' CSRF tokens aside, which
// differ on every answer), and none is while a finger or the mouse is down on the page: a
// tap is never lost to a panel replaced under it.
let pressing = false;
document.addEventListener("pointerdown", () => { pressing = true; }, true);
for (const type of ["pointerup", "pointercancel"]) {
  document.addEventListener(type, () => { window.setTimeout(() => { pressing = false; }, 0); }, true);
}
let onScreen = null;
// What the phone has shown of the table's events (accepted, rejected, withdrawn, entered).
const seen = new Set();
const events = (panel) => [...panel.querySelectorAll("#pad-events [data-event]")];
const first = document.getElementById("pad-panel");
if (first) for (const element of events(first)) seen.add(element.dataset.event);
// Where the focus was when a panel was swapped in: its id, if it was in the panel.
let focusWas = null;
const unmasked = (html) => html.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, "");
document.addEventListener("htmx:beforeSwap", (event) => {
  const xhr = event.detail.xhr;
  const number = xhr && xhr.padIssued;
  if (!number) return;
  const text = unmasked(event.detail.serverResponse || "");
  const busy = typing || inDealForm(document.activeElement) || pressing;
  if (!xhr.padAction && (number < shown || busy || text === onScreen)) {
    event.detail.shouldSwap = false;
    return;
  }
  shown = Math.max(shown, number);
  onScreen = text;
  const active = document.activeElement;
  const panel = document.getElementById("pad-panel");
  focusWas = panel && active && panel.contains(active) ? { id: active.id || "" } : null;
});
const HEADINGS = [
  "#pad-waiting-title", "#pad-form-title", "#fix", "#pad-over", "#pad-not-started", "#pad-gone",
  "#pad-title",
];
const focusOn = (element) => {
  if (!element.hasAttribute("tabindex") && !element.matches("input, button, select, textarea, a")) {
    element.setAttribute("tabindex", "-1");
  }
  element.focus();
};
document.addEventListener("htmx:afterSettle", (event) => {
  const panel = document.getElementById("pad-panel");
  if (!panel || !event.target || event.target.id !== "pad-panel") return;
  const polled = event.detail.requestConfig && event.detail.requestConfig.verb === "get";
  typing = false;
  const news = events(panel).filter((element) => !seen.has(element.dataset.event));
  for (const element of events(panel)) seen.add(element.dataset.event);
  const said = [...panel.querySelectorAll("[data-announce]"), ...(polled ? news : [])]
    .map((element) => element.textContent.replace(/\s+/g, " ").trim())
    .filter(Boolean)
    .join(" ");
  const status = document.getElementById("pad-status");
  if (status && said) {
    status.textContent = "";
    window.setTimeout(() => { status.textContent = said; }, 50);
  }
  const was = focusWas;
  focusWas = null;
  if (polled) {
    // A poll leaves the focus where the player is; if it took that element away, the focus
    // goes to what the table now shows, not to the page's body.
    if (!was || panel.contains(document.activeElement)) return;
    const same = was.id && document.getElementById(was.id);
    const heading = HEADINGS.map((selector) => panel.querySelector(selector)).find(Boolean);
    const next = same && panel.contains(same) ? same : heading;
    if (next) focusOn(next);
    return;
  }
  const next =
    panel.querySelector("[aria-invalid=true]") ||
    panel.querySelector(".errorlist[tabindex]") ||
    panel.querySelector("#pad-waiting-title") ||
    panel.querySelector("#pad-title");
  if (next) focusOn(next);
});
