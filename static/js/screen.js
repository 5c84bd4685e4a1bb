// The club screen (templates/nights/screen.html, its pages laid out by nights/screen.py): when
// there is more than one page, one shows at a time and they turn by themselves every
// data-turn seconds ("?turn=N" in the address sets another pace: the tests), fading in unless
// the viewer asked for less motion; the page shown stays shown when the live region's poll
// (static/js/live.js) swaps in a new copy. What a page shows is made a little smaller when it
// would not fit the window (very long names, a screen that is not 16:9). A narrow window (a
// phone) shows every page, one under another, as a page without JavaScript does.
(() => {
  const wide = window.matchMedia("(min-width: 48.01rem)");
  const still = window.matchMedia("(prefers-reduced-motion: reduce)");
  let current = 0;

  const layout = () => document.getElementById("screen-layout");

  function seconds(element) {
    const asked = Number(new URLSearchParams(window.location.search).get("turn"));
    const given = asked > 0 ? asked : Number(element ? element.dataset.turn : 0);
    return Math.min(Math.max(given || 14, 1), 120);
  }

  function overflows() {
    const root = document.documentElement;
    return root.scrollHeight > window.innerHeight || root.scrollWidth > window.innerWidth;
  }

  function fit(element) {
    let scale = 1;
    element.style.setProperty("--fit", "1");
    while (wide.matches && scale > 0.65 && overflows()) {
      scale -= 0.05;
      element.style.setProperty("--fit", scale.toFixed(2));
    }
    element.dataset.fit = scale.toFixed(2);
  }

  function show(turned) {
    const element = layout();
    if (!element) return;
    const pages = [...element.querySelectorAll(".screen-page")];
    const paged = pages.length > 1 && wide.matches;
    current = pages.length ? current % pages.length : 0;
    element.classList.toggle("screen-paged", paged);
    pages.forEach((page, index) => {
      const shown = !paged || index === current;
      page.hidden = !shown;
      page.classList.toggle("turned", paged && turned && shown && !still.matches);
    });
    element.dataset.current = String(current + 1);
    fit(element);
  }

  function turn() {
    const element = layout();
    const count = element ? element.querySelectorAll(".screen-page").length : 0;
    if (count > 1 && wide.matches) {
      current = (current + 1) % count;
      show(true);
    }
    window.setTimeout(turn, seconds(element) * 1000);
  }

  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target.id === "live-screen") show(false);
  });
  window.addEventListener("resize", () => show(false));
  document.addEventListener("DOMContentLoaded", () => {
    show(false);
    window.setTimeout(turn, seconds(layout()) * 1000);
  });
})();
