/*
 * The protocol page, progressively enhanced. Without this file the page works as plain forms.
 *
 * - (A number field selects its content when focused: number-fields.js, shared with the table.)
 * - (A field with a problem the live check placed is marked aria-invalid: field-problems.js, shared
 *   with the table.)
 * - What was typed before the scripts had loaded (a quick typist on a slow phone) is checked as
 *   soon as they have: htmx only hears the input events that come after it has started.
 * - A number field holding what is not a number ("12e", "5-5") has an empty value to the browser,
 *   which would count as 0. A hidden twin then sends "?" instead, so the server says which deal,
 *   side and field is wrong, and nothing is saved.
 * - The live check is of the deal as typed so far: card points not yet written count as 0 there;
 *   saving refuses them.
 * - After a refused save the page opens at the first field with a problem, not at its top.
 * - Saving waits for a live check under way, and no check starts once the page is being sent:
 *   leaving the page would cut the check off halfway, which the browser reports as an error.
 * - Canasta points typed where the paper has points, not counts: the live check says which counts
 *   they make (or asks which, or empties them while undecided), and they go into the count fields.
 * - The live check is folded on a phone (one row at the foot of the screen, protocol.css) and open
 *   on a wide screen, where it is a column beside the fields; turning a tablet refolds it.
 * No score is computed here: the numbers come from the server's engine.
 */
(function () {
  "use strict";

  function checkWhatWasTypedEarly() {
    document.querySelectorAll(".deal-form").forEach(function (form) {
      var typed = Array.prototype.find.call(form.elements, function (input) {
        if (input.type === "radio" || input.type === "checkbox") {
          return input.checked !== input.defaultChecked;
        }
        return input.type !== "hidden" && "defaultValue" in input && input.value !== input.defaultValue;
      });
      if (typed) {
        typed.dispatchEvent(new Event("input", { bubbles: true }));
      }
    });
  }

  // Submitted after the field itself, so the server reads "?" (Django takes a name's last value).
  function markNotANumber(event) {
    var input = event.target;
    if (!input || !input.matches || !input.matches(".deal-form input.num") || !input.form) {
      return;
    }
    var twin = input.form.querySelector("input[type='hidden'][data-not-a-number='" + input.name + "']");
    if (input.validity && input.validity.badInput) {
      if (!twin) {
        twin = document.createElement("input");
        twin.type = "hidden";
        twin.name = input.name;
        twin.value = "?";
        twin.setAttribute("data-not-a-number", input.name);
        input.form.appendChild(twin);
      }
    } else if (twin) {
      twin.remove();
    }
  }

  function showFirstProblem() {
    var form = document.querySelector(".deal-form[data-refused]");
    if (!form) {
      return;
    }
    var target =
      form.querySelector("input[aria-invalid='true'], select[aria-invalid='true'], textarea[aria-invalid='true']") ||
      form.querySelector(".error-summary");
    if (!target) {
      return;
    }
    if (!target.matches("input, select, textarea")) {
      target.setAttribute("tabindex", "-1");
    }
    target.scrollIntoView({ block: "center" });
    target.focus({ preventScroll: true });
  }

  // The counts a side's canasta points came to, as the live check's answer gives them
  // (data-natural, data-mixed on the side's .canasta-choice): the server has checked the deal with
  // them already, so setting them starts no new check.
  function fillCanastaCounts(root) {
    var form = (root && root.closest && root.closest(".deal-form")) || document.querySelector(".deal-form");
    if (!form) {
      return;
    }
    form.querySelectorAll(".canasta-choice[data-natural]").forEach(function (block) {
      var side = block.id.replace(/^canasta-choice-/, "");
      [["natural", block.dataset.natural], ["mixed", block.dataset.mixed]].forEach(function (count) {
        var input = form.querySelector("input[name='" + side + "_" + count[0] + "']");
        if (input && input.value !== count[1]) {
          input.value = count[1];
        }
      });
    });
  }

  // The width at which protocol.css puts the check beside the fields (64em).
  var WIDE = window.matchMedia ? window.matchMedia("(min-width: 64em)") : null;

  function foldTheCheck() {
    document.querySelectorAll("details.live-check").forEach(function (details) {
      details.open = !WIDE || WIDE.matches;
    });
  }

  var sending = false;

  function waitForTheCheck(event) {
    var form = event.target;
    if (!form.matches || !form.matches(".deal-form")) {
      return;
    }
    if (form.classList.contains("htmx-request") && typeof form.requestSubmit === "function") {
      event.preventDefault();
      var submitter = event.submitter || null;
      form.addEventListener(
        "htmx:afterRequest",
        function () {
          form.requestSubmit(submitter);
        },
        { once: true }
      );
      return;
    }
    sending = true;
  }

  // The live check is of the deal as typed so far: card points not yet written count as 0 there
  // (forms.protocol CHECKING), and no field the secretary has not come to is marked. Saving, and
  // the check button without JavaScript, refuse them.
  function markTheLiveCheck(event) {
    var source = event.detail && event.detail.elt;
    if (!source || !source.matches || !source.matches(".deal-form")) {
      return;
    }
    if (event.detail.formData && event.detail.formData.set) {
      event.detail.formData.set("checking", "1");
    } else if (event.detail.parameters) {
      event.detail.parameters.checking = "1";
    }
  }

  function noCheckWhileSending(event) {
    var source = event.detail && event.detail.elt;
    if (sending && source && source.matches && source.matches(".deal-form")) {
      event.preventDefault();
    }
  }

  document.addEventListener("submit", waitForTheCheck);
  document.addEventListener("htmx:beforeRequest", noCheckWhileSending);
  document.addEventListener("htmx:configRequest", markTheLiveCheck);
  // A page shown again from the browser's history checks as typed once more.
  window.addEventListener("pageshow", function () {
    sending = false;
  });

  // Capturing, so the twin is in place before htmx (listening on the form) sends the check.
  document.addEventListener("input", markNotANumber, true);
  if (WIDE && WIDE.addEventListener) {
    WIDE.addEventListener("change", foldTheCheck);
  }
  // htmx starts on DOMContentLoaded too; the timeout lets it attach its listeners first.
  document.addEventListener("DOMContentLoaded", function () {
    foldTheCheck();
    showFirstProblem();
    window.setTimeout(checkWhatWasTypedEarly, 0);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    fillCanastaCounts(event.target);
  });
})();
