/* The lesson's coach stays whole on screen. static/js/table.js brings the coach and its
   card into view as a step opens, while the last trick's cards are still landing; once
   they have landed the page can be shorter or taller, so the coach is fitted again then,
   as far as its card still clears the play bar. Loaded by the lesson's table only. */
(function () {
  "use strict";

  var MARGIN = 8;

  function fitCoach() {
    var coach = document.getElementById("coach");
    if (!coach) { return; }
    var box = coach.getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= window.innerHeight) { return; }
    var shift = box.top - MARGIN;
    var pick = document.querySelector("#table [data-coach='pick']");
    var card = pick ? document.querySelector("label[for='" + pick.id + "']") : null;
    var bar = document.querySelector("#move-form .play-row");
    if (shift < 0 && card && bar) {
      // The play bar sticks to the screen's foot at worst (a phone's is fixed there).
      var floor = window.innerHeight - bar.getBoundingClientRect().height - MARGIN;
      shift = Math.max(shift, -Math.max(0, floor - card.getBoundingClientRect().bottom));
    }
    if (shift !== 0) { window.scrollBy({ top: shift, left: 0, behavior: "instant" }); }
  }

  document.addEventListener("htmx:afterSettle", fitCoach);
  new MutationObserver(function (changes) {
    for (var i = 0; i < changes.length; i++) {
      if (changes[i].target.id === "table" && changes[i].target.dataset.revealed) {
        fitCoach();
        return;
      }
    }
  }).observe(document.body, { attributes: true, subtree: true, attributeFilter: ["data-revealed"] });
  fitCoach();
})();
