/* Zoom Zoom Vroom: small helpers for races with friends (no inline code: CSP is script-src 'self').
 *
 *  - turn clocks ([data-seconds-left]) count down every second between server updates;
 *  - "Copy" buttons ([data-copy="<input id>"]) copy an invite link to the clipboard.
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

  function copy(button) {
    var input = document.getElementById(button.getAttribute("data-copy"));
    if (!input) { return; }
    input.select();
    var done = function () { button.textContent = "Copied"; };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(input.value).then(done, function () {
        document.execCommand("copy");
        done();
      });
    } else {
      document.execCommand("copy");
      done();
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-copy]") : null;
    if (button) { copy(button); }
  });
  window.setInterval(tick, 1000);
})();
