// "Print" buttons (data-print): the page's own print stylesheet does the rest.
// A file of its own, as the content security policy allows no inline script.
document.querySelectorAll("[data-print]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
});
