/*
 * A deal form's problems (the protocol page's and the table's): after the live check (htmx) has
 * placed problems beside the fields, or the table has placed a refusal of the server the same way,
 * each field with a problem is marked aria-invalid and shown as such, and a collapsed part that
 * holds one is opened.
 */
(function () {
  "use strict";

  function markProblems(root) {
    var form = root && root.closest && root.closest("form");
    if (!form) {
      return;
    }
    form.querySelectorAll(".field-problems").forEach(function (slot) {
      var name = slot.id.replace(/^problems-/, "");
      var hasProblem = slot.textContent.trim() !== "";
      form.querySelectorAll("[name='" + name + "']").forEach(function (input) {
        if (input.type === "radio") {
          return; // a radio group says it through its fieldset
        }
        if (hasProblem) {
          input.setAttribute("aria-invalid", "true");
        } else {
          input.removeAttribute("aria-invalid");
        }
      });
      var field = slot.closest(".deal-field");
      if (field) {
        field.classList.toggle("deal-field--error", hasProblem);
      }
      var details = hasProblem && slot.closest("details");
      if (details && !details.open) {
        details.open = true;
      }
    });
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    markProblems(event.target);
  });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    markProblems(event.target);
  });
})();
