// adk-memory inspector: small progressive enhancements; every page works without them.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  // Filters apply as soon as a choice changes.
  for (const select of document.querySelectorAll("select[data-autosubmit]")) {
    select.addEventListener("change", () => select.form.submit());
  }
  // Erase stays disabled until the user id is typed exactly (the server checks it too).
  for (const input of document.querySelectorAll("input[data-must-equal]")) {
    const button = input.form.querySelector("button[type=submit]");
    const sync = () => { button.disabled = input.value !== input.dataset.mustEqual; };
    input.addEventListener("input", sync);
    sync();
  }
  // Forgetting deletes for good: ask once more.
  for (const button of document.querySelectorAll("button[data-action=forget]")) {
    button.addEventListener("click", (event) => {
      if (!window.confirm(button.dataset.confirm)) event.preventDefault();
    });
  }
});
