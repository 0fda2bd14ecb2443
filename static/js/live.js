/* Zoom Zoom Vroom: small helpers for races with friends and for sharing a result
 * (no inline code: CSP is script-src 'self').
 *
 *  - turn clocks ([data-seconds-left]) count down every second between server updates;
 *  - "Copy" buttons ([data-copy="<id>"]) copy an invite link (a field's value) or a result
 *    to share (an element's text) to the clipboard;
 *  - "Share" buttons ([data-share="<id>"], hidden until shown here) open the phone's share
 *    sheet with an element's text, where the browser has one.
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
      // The unit's words are the page's, in the reader's language ("{n} s").
      var words = clocks[i].closest("[data-seconds-words]");
      var form = words ? words.getAttribute("data-seconds-words") : "{n} s";
      clocks[i].textContent = form.replace("{n}", String(left));
    }
  }

  // A field's value (selected, as a person would), or the text of any other element.
  function copy(button) {
    var source = document.getElementById(button.getAttribute("data-copy"));
    if (!source) { return; }
    var isField = "value" in source && typeof source.select === "function";
    var text = isField ? source.value : source.textContent.trim();
    var done = function () { button.textContent = button.getAttribute("data-copied") || "Copied"; };
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

  // The phone's own share sheet, where the browser has one (the button stays hidden
  // elsewhere, and Copy does the work); closing the sheet unshared is no error.
  function share(button) {
    var source = document.getElementById(button.getAttribute("data-share"));
    if (!source || !navigator.share) { return; }
    navigator.share({ text: source.textContent.trim() }).catch(function () {});
  }

  function offerSharing() {
    if (!navigator.share) { return; }
    var buttons = document.querySelectorAll("[data-share][hidden]");
    for (var i = 0; i < buttons.length; i++) { buttons[i].hidden = false; }
  }

  document.addEventListener("click", function (event) {
    if (!event.target.closest) { return; }
    var button = event.target.closest("[data-copy]");
    if (button) { copy(button); }
    button = event.target.closest("[data-share]");
    if (button) { share(button); }
  });
  // A replay's next trick comes by htmx with its own hidden Share button.
  document.addEventListener("htmx:afterSwap", offerSharing);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", offerSharing);
  } else {
    offerSharing();
  }
  window.setInterval(tick, 1000);
})();
