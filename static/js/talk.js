/* Zoom Zoom Vroom: the table talk's small helpers (no inline code: CSP is script-src 'self').
 *
 *  - a quick message sent too soon answers 429 with its sentence: htmx shows it in the
 *    talk's status line (htmx leaves other 4xx answers of this kind unswapped);
 *  - a live table that reloads keeps the messages that arrived while the reload was on
 *    its way (the new table was drawn before them): lines and bubbles newer than the new
 *    table's latest are put back;
 *  - the talk's lines stay scrolled to the newest one as lines arrive.
 * Sending and receiving are htmx's (hx-post, sse-swap in partials/talk.html).
 */
(function () {
  "use strict";

  var kept = null;

  function newest(nodes) {
    var most = 0;
    for (var i = 0; i < nodes.length; i++) {
      most = Math.max(most, parseInt(nodes[i].getAttribute("data-n"), 10) || 0);
    }
    return most;
  }

  function clones(selector) {
    var found = document.querySelectorAll(selector);
    var copies = [];
    for (var i = 0; i < found.length; i++) { copies.push(found[i].cloneNode(true)); }
    return copies;
  }

  function putBack() {
    var lines = document.getElementById("talk-lines");
    if (!kept || !lines) { kept = null; return; }
    var since = newest(lines.querySelectorAll(".talk-line"));
    kept.lines.forEach(function (line) {
      var n = parseInt(line.getAttribute("data-n"), 10) || 0;
      if (n > since && !document.getElementById(line.id)) { lines.appendChild(line); }
    });
    kept.bubbles.forEach(function (bubble) {
      var n = parseInt(bubble.getAttribute("data-n"), 10) || 0;
      var slot = document.getElementById(bubble.id);
      var shown = slot ? parseInt(slot.getAttribute("data-n"), 10) || 0 : 0;
      if (slot && n > since && n > shown) { slot.replaceWith(bubble); }
    });
    kept = null;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    var form = detail.requestConfig && detail.requestConfig.elt;
    if (detail.xhr.status === 429 && form && form.closest && form.closest(".talk")) {
      detail.shouldSwap = true;
      detail.isError = false;
    }
    if (detail.target && detail.target.id === "table" && document.getElementById("talk-lines")) {
      kept = {
        lines: clones("#talk-lines .talk-line"),
        bubbles: clones(".said-bubble.is-fresh[data-n]")
      };
    }
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    if (kept) { putBack(); }
    var lines = document.getElementById("talk-lines");
    if (lines && (event.target === lines || !event.target.isConnected ||
                  event.target.contains(lines))) {
      lines.scrollTop = lines.scrollHeight;
    }
  });
})();
