// The new-night form: a night's option (the tie rule, the players left over) is asked only
// when the chosen movement uses it, a movement's own fields only when it is chosen, and the
// rounds' suggestion is the chosen movement's. Which movement uses which option comes from the
// registry of movements (nights/movements), in the page as JSON (#movement-options). Without
// JavaScript the form shows every option and field (their help says which movement they are
// for) and the suggestion for every movement. A file of its own: the content security policy
// allows no inline script.
(() => {
  const form = document.querySelector("form.night-new");
  if (!form) return;
  const data = document.getElementById("movement-options");
  const options = data ? JSON.parse(data.textContent) : {};
  const roundsHelp = document.getElementById("id_rounds_helptext");
  const update = () => {
    const checked = form.querySelector("input[name=movement]:checked");
    const movement = checked ? checked.value : "round_robin";
    for (const [option, movements] of Object.entries(options)) {
      const field = document.getElementById(`field-${option}`);
      // An option in error stays in sight, whatever the movement.
      if (field && !field.classList.contains("has-error")) {
        field.hidden = !movements.includes(movement);
      }
    }
    for (const fields of form.querySelectorAll(".movement-fields")) {
      if (!fields.querySelector(".has-error")) fields.hidden = fields.dataset.movement !== movement;
    }
    const help = roundsHelp && roundsHelp.getAttribute(`data-help-${movement}`);
    if (help) roundsHelp.textContent = help;
  };
  form.addEventListener("change", (event) => {
    if (event.target.name === "movement") update();
  });
  update();
})();
