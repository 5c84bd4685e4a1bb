// The new-night form: the tie rule is asked only when the movement is winners move, and the
// rounds' suggestion is the chosen movement's. Without JavaScript the form shows the tie rule
// (its help says it is for winners move only) and the suggestion for every movement. A file of
// its own: the content security policy allows no inline script.
(() => {
  const form = document.querySelector("form.night-new");
  if (!form) return;
  const tieRule = document.getElementById("field-tie_rule");
  const roundsHelp = document.getElementById("id_rounds_helptext");
  const update = () => {
    const checked = form.querySelector("input[name=movement]:checked");
    const movement = checked ? checked.value : "round_robin";
    // A tie rule in error stays in sight, whatever the movement.
    if (tieRule && !tieRule.classList.contains("has-error")) {
      tieRule.hidden = movement !== "winners_move";
    }
    const help = roundsHelp && roundsHelp.getAttribute(`data-help-${movement}`);
    if (help) roundsHelp.textContent = help;
  };
  form.addEventListener("change", (event) => {
    if (event.target.name === "movement") update();
  });
  update();
})();
