/*
 * A number field of a deal (the protocol page's and the table's) selects its content when it gets
 * the focus: a tap puts the cursor where the finger was, so what is typed would go beside what is
 * there (450, 045 for 45); selected, it replaces it. The selection is made after the tap has placed
 * the caret (or it would be lost again), and once more at the first key typed before the player
 * moved the caret: a quick thumb, or a browser that put the caret back after the tap, still
 * replaces the content.
 */
(function () {
  "use strict";

  var NUMBER_FIELD = "input.num, input[type=number]";
  var freshlyFocused = null;

  function selectAll(input) {
    try {
      input.select();
    } catch (e) {
      /* some input types do not support selection */
    }
  }

  function selectOnFocus(event) {
    var input = event.target;
    if (!input || !input.matches || !input.matches(NUMBER_FIELD)) {
      return;
    }
    freshlyFocused = input;
    window.setTimeout(function () {
      // Only if still focused: select() would pull the focus back from the next field.
      if (document.activeElement === input && freshlyFocused === input) {
        selectAll(input);
      }
    }, 0);
  }

  function selectOnFirstKey(event) {
    var input = event.target;
    if (input !== freshlyFocused) {
      return;
    }
    freshlyFocused = null;
    // A character (or a phone keyboard's key, which says no more): it replaces the content.
    if ((event.key && event.key.length === 1 || event.key === "Unidentified") && !event.ctrlKey && !event.metaKey && !event.altKey) {
      selectAll(input);
    }
  }

  function caretMoved(event) {
    // A second tap in the focused field: the player puts the caret where it is wanted (as an arrow
    // key does, which selectOnFirstKey leaves alone).
    if (event.target === freshlyFocused && document.activeElement === event.target) {
      freshlyFocused = null;
    }
  }

  document.addEventListener("focusin", selectOnFocus);
  document.addEventListener("keydown", selectOnFirstKey, true);
  document.addEventListener("mousedown", caretMoved, true);
})();
