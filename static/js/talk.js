/* Zoom Zoom Vroom: the table talk's small helpers (no inline code: CSP is script-src 'self').
 *
 *  - a quick message sent too soon answers 429 with its sentence: htmx shows it in the
 *    talk's status line (htmx leaves other 4xx answers of this kind unswapped);
 *  - the talk's lines stay scrolled to the newest one as lines arrive.
 * Sending and receiving are htmx's (hx-post, sse-swap in partials/talk.html).
 */
(function () {
  "use strict";

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    var form = detail.requestConfig && detail.requestConfig.elt;
    if (detail.xhr.status === 429 && form && form.closest && form.closest(".talk")) {
      detail.shouldSwap = true;
      detail.isError = false;
    }
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    var lines = document.getElementById("talk-lines");
    if (lines && (event.target === lines || event.target.contains(lines))) {
      lines.scrollTop = lines.scrollHeight;
    }
  });
})();
