/* Zoom Zoom Vroom: progressive enhancement for the game table.
 *
 * The table works without this file (plain forms, full pages). With it:
 *  - the move form shows a live preview ("Your card: 7 — best so far: 8"), computed only
 *    from numbers the server rendered into data attributes (no game rules here);
 *  - keyboard shortcuts: 1–9 pick a card, T face up / Tune Up, + and - gas, Enter plays,
 *    ? shows the list;
 *  - after a move the bots' plays are revealed one by one (instantly when the reader
 *    prefers reduced motion) and each sentence is announced in an aria-live region;
 *  - the tab title follows the table ("Your turn").
 * No inline code anywhere: CSP is script-src 'self'.
 */
(function () {
  "use strict";

  var STEP_MS = 350;        // a card being played
  var RESULT_MS = 220;      // the consequences that follow it
  var reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  var revealTimer = null;

  document.documentElement.classList.add("js");

  function num(value) {
    var n = parseInt(value, 10);
    return isNaN(n) ? 0 : n;
  }

  function moveForm() {
    return document.getElementById("move-form");
  }

  function checkedChoice(form) {
    return form.querySelector('input[name="choice"]:checked');
  }

  function checkedValue(form, name) {
    var input = form.querySelector('input[name="' + name + '"]:checked');
    return input ? input.value : null;
  }

  /* What the picked option would score: printed value after any 1, plus gas, plus speed. */
  function numbersFor(form, choice) {
    var data = {
      value: num(choice.dataset.value),
      speed: num(choice.dataset.speed),
      gasMax: num(choice.dataset.gasMax)
    };
    if (!choice.dataset.previews) {
      return data;
    }
    var previews;
    try {
      previews = JSON.parse(choice.dataset.previews);
    } catch (err) {
      return data;
    }
    var key = choice.dataset.mode === "zf" ? checkedValue(form, "zf_value") : checkedValue(form, "zero_effect");
    var preview = previews[key];
    if (preview) {
      if (preview.value !== undefined) { data.value = num(preview.value); }
      if (preview.speed !== undefined) { data.speed = num(preview.speed); }
      if (preview.gas_max !== undefined) { data.gasMax = num(preview.gas_max); }
    }
    return data;
  }

  function updatePreview(form) {
    var choice = checkedChoice(form);
    var gas = form.querySelector("#gas");
    var total = form.querySelector("#preview-total");
    var preview = form.querySelector("#preview");
    if (!gas || !total || !preview) { return; }
    var bestEl = preview.querySelector(".preview-best b");
    preview.classList.remove("is-ahead");
    if (!choice) {
      total.textContent = "pick a card";
      return;
    }
    if (choice.dataset.mode === "down") {
      total.textContent = "Tune Up (no number, shares the middle)";
      gas.value = "0";
      return;
    }
    var n = numbersFor(form, choice);
    gas.max = String(n.gasMax);
    var spent = Math.max(0, Math.min(num(gas.value), n.gasMax));
    if (String(spent) !== gas.value) { gas.value = String(spent); }
    var sum = n.value + spent + n.speed;
    total.textContent = sum + " = " + n.value + " + " + spent + " gas + " + n.speed + " speed";
    var best = choice.dataset.best;
    if (bestEl) {
      bestEl.textContent = best ? best + " (" + choice.dataset.bestWho + ")" : "nothing face up yet";
    }
    preview.classList.toggle("is-ahead", best === "" || best === undefined || sum > num(best));
  }

  function stepGas(form, delta) {
    var gas = form.querySelector("#gas");
    if (!gas) { return; }
    var max = gas.max === "" ? 99 : num(gas.max);
    gas.value = String(Math.max(0, Math.min(max, num(gas.value) + delta)));
    updatePreview(form);
  }

  function pick(form, index) {
    var options = form.querySelectorAll('input[name="choice"][data-key="' + index + '"]');
    if (!options.length) { return; }
    var target = options[0];
    for (var i = 0; i < options.length; i++) {
      if (options[i].dataset.mode !== "down") { target = options[i]; break; }
    }
    target.checked = true;
    target.focus({ preventScroll: true });
    updatePreview(form);
  }

  function toggleTuneUp(form) {
    var choice = checkedChoice(form);
    if (!choice) {
      var first = form.querySelector('input[name="choice"][data-mode="down"]');
      if (first) { first.checked = true; first.focus({ preventScroll: true }); }
      updatePreview(form);
      return;
    }
    var key = choice.dataset.key;
    var wanted = choice.dataset.mode === "down" ? "up" : "down";
    var other = form.querySelector('input[name="choice"][data-key="' + key + '"][data-mode="' + wanted + '"]');
    if (other) {
      other.checked = true;
      other.focus({ preventScroll: true });
    }
    updatePreview(form);
  }

  function submit(form) {
    if (form.classList.contains("htmx-request")) { return; }
    // htmx wires up freshly swapped content a moment after the swap; a very quick Enter
    // must not find the form without its handler (process() is idempotent).
    if (window.htmx && typeof window.htmx.process === "function") {
      window.htmx.process(form);
    }
    if (typeof form.requestSubmit === "function") {
      form.requestSubmit();
    } else {
      form.submit();
    }
  }

  function isTyping(target) {
    return target && target.matches && target.matches("input[type=text], input:not([type]), textarea, select");
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) { return; }
    var help = document.getElementById("keys-help");
    if (help && help.open) { return; }
    var target = event.target;
    if (event.key === "?" && !isTyping(target)) {
      if (help && typeof help.showModal === "function") {
        help.showModal();
        event.preventDefault();
      }
      return;
    }
    var form = moveForm();
    if (!form || isTyping(target)) { return; }
    var inGas = target && target.id === "gas";
    if (/^[1-9]$/.test(event.key) && !inGas) {
      pick(form, event.key);
      event.preventDefault();
    } else if ((event.key === "t" || event.key === "T") && !inGas) {
      toggleTuneUp(form);
      event.preventDefault();
    } else if (event.key === "+" || event.key === "=" || (inGas && event.key === "ArrowUp")) {
      stepGas(form, 1);
      event.preventDefault();
    } else if (event.key === "-" || event.key === "_" || (inGas && event.key === "ArrowDown")) {
      stepGas(form, -1);
      event.preventDefault();
    } else if (event.key === "Enter") {
      if (target && target.matches && target.matches("a, button, summary, textarea")) { return; }
      if (!checkedChoice(form)) { return; }
      submit(form);
      event.preventDefault();
    }
  });

  document.addEventListener("change", function (event) {
    var form = event.target && event.target.closest ? event.target.closest("#move-form") : null;
    if (form) { updatePreview(form); }
  });
  document.addEventListener("input", function (event) {
    if (event.target && event.target.id === "gas") {
      var form = event.target.closest("#move-form");
      if (form) { updatePreview(form); }
    }
  });
  document.addEventListener("click", function (event) {
    var opener = event.target && event.target.closest ? event.target.closest("[data-open-keys]") : null;
    var dialog = document.getElementById("keys-help");
    if (opener && dialog && typeof dialog.showModal === "function") {
      dialog.showModal();
      return;
    }
    var button = event.target && event.target.closest ? event.target.closest(".btn-step") : null;
    if (!button) { return; }
    var form = button.closest("#move-form");
    if (form) { stepGas(form, num(button.dataset.step)); }
  });

  /* ---------------------------------------------------------------- staged reveal */

  function announce(lines) {
    var region = document.getElementById("announcer");
    if (!region || !lines.length) { return; }
    region.textContent = "";
    lines.forEach(function (line) {
      var p = document.createElement("p");
      p.textContent = line;
      region.appendChild(p);
    });
  }

  function say(line) {
    var region = document.getElementById("announcer");
    if (!region) { return; }
    var p = document.createElement("p");
    p.textContent = line;
    region.appendChild(p);
  }

  function reveal(table) {
    if (revealTimer) {
      clearTimeout(revealTimer);
      revealTimer = null;
    }
    var items = Array.prototype.slice.call(table.querySelectorAll(".feed-item"));
    var region = document.getElementById("announcer");
    if (region) { region.textContent = ""; }
    if (!items.length) { return; }
    // The viewer's own card opens the list; the story worth staging starts after it.
    var start = items[0].dataset.mine === "true" ? 1 : 0;
    if (reduceMotion.matches) {
      announce(items.slice(start).map(function (item) { return item.dataset.say; }));
      return;
    }
    var pending = items.slice(start);
    pending.forEach(function (item) { item.classList.add("is-pending"); });
    var next = function () {
      var item = pending.shift();
      revealTimer = null;
      if (!item) { return; }
      item.classList.remove("is-pending");
      item.classList.add("is-new");
      say(item.dataset.say);
      var following = pending[0];
      if (following) {
        var wait = following.classList.contains("is-result") ? RESULT_MS : STEP_MS;
        revealTimer = setTimeout(next, wait);
      }
    };
    next();
  }

  function settle(animate) {
    var table = document.getElementById("table");
    if (!table) { return; }
    table.dataset.settled = "true";
    if (table.dataset.title) { document.title = table.dataset.title; }
    var form = moveForm();
    if (form) { updatePreview(form); }
    if (animate) {
      reveal(table);
      var focusTarget = form ? checkedChoice(form) || form.querySelector('input[name="choice"]') : null;
      (focusTarget || document.getElementById("table-status")).focus({ preventScroll: true });
    }
  }

  /* htmx replaced #table (outerHTML) and finished wiring it up: stage the new one once. */
  function onSettle() {
    var table = document.getElementById("table");
    if (!table || table.dataset.settled) { return; }
    settle(table.dataset.animate === "true");
  }
  document.addEventListener("htmx:afterSettle", onSettle);

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { settle(false); });
  } else {
    settle(false);
  }
})();
