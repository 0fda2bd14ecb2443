/* Zoom Zoom Vroom: small helpers for races with friends (no inline code: CSP is script-src 'self').
 *
 *  - turn clocks ([data-seconds-left]) count down every second between server updates;
 *  - "Copy" buttons ([data-copy="<id>"]) copy an invite link (a field's value) or a result
 *    to share (an element's text) to the clipboard.
 * Live updates themselves come from the htmx SSE extension (sse-connect in game.html).
 */
(function () {
  "use strict";

  function tick() {
    var clocks = document.querySelectorAll("[data-seconds-left]");
    for (var i = 0; i < clocks.length; i++) {
      var left = parseInt(clocks[i].getAttribute("data-seconds-left"), 10);
      if (isNaN(left) || left <= 0) { continue; }
      left -= 1;
      clocks[i].setAttribute("data-seconds-left", String(left));
      clocks[i].textContent = left + " s";
    }
  }

  // A field's value (selected, as a person would), or the text of any other element.
  function copy(button) {
    var source = document.getElementById(button.getAttribute("data-copy"));
    if (!source) { return; }
    var isField = "value" in source && typeof source.select === "function";
    var text = isField ? source.value : source.textContent.trim();
    var done = function () { button.textContent = "Copied"; };
    var copySelection = function () {  // where the Clipboard API is missing or refused
      if (!isField) { window.getSelection().selectAllChildren(source); }
      document.execCommand("copy");
      done();
    };
    if (isField) { source.select(); }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, copySelection);
    } else {
      copySelection();
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-copy]") : null;
    if (button) { copy(button); }
  });
  window.setInterval(tick, 1000);
})();
