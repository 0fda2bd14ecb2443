/* Explanations on the table (templates/partials/explain.html): the popovers open and close
   natively, without this script. It only moves focus into an explanation as it opens, so
   screen readers read it out at once, and back to its button as it closes. */
(function () {
  "use strict";
  var opener = null;
  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest ? event.target.closest("[popovertarget]") : null;
    if (button && button.classList.contains("explain")) { opener = button; }
  }, true);
  document.addEventListener("toggle", function (event) {
    var pop = event.target;
    if (!pop || !pop.classList || !pop.classList.contains("explain-pop")) { return; }
    if (event.newState === "open") {
      pop.focus({ preventScroll: true });
    } else if (opener && document.activeElement && (document.activeElement === document.body || pop.contains(document.activeElement))) {
      opener.focus({ preventScroll: true });
    }
  }, true);
})();
