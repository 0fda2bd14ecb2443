/* Explanations on the table (templates/partials/explain.html): the popovers open and close
   natively, without this script. It only moves focus into an explanation as it opens, so
   screen readers read it out at once, and back to its button as it closes.
   The lesson's coach (templates/partials/coach.html) speaks in a role="status" box inside
   the table, which htmx replaces whole after a move; a region that is replaced is not
   reliably read, so its words are also copied into one live region that stays. */
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
  function coachSays() {
    var says = document.getElementById("coach-says");
    if (!says) { return; }
    var live = document.getElementById("coach-live");
    if (!live) {
      live = document.createElement("div");
      live.id = "coach-live";
      live.className = "visually-hidden";
      live.setAttribute("aria-live", "polite");
      (document.getElementById("main") || document.body).appendChild(live);
    }
    live.textContent = says.textContent.replace(/\s+/g, " ").trim();
  }
  document.addEventListener("htmx:afterSettle", coachSays);
})();
