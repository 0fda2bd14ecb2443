/* Zoom Zoom Vroom: progressive enhancement for the game table.
 *
 * The table works without this file (plain forms, full pages). With it:
 *  - the move form shows a live preview ("Your card: 7 — best so far: 8"), computed only
 *    from numbers the server rendered into data attributes (no game rules here);
 *  - keyboard shortcuts: 1–9 pick a card, T face up / Tune Up, + and - gas, Enter plays,
 *    ? shows the list;
 *  - after a move the story since your card plays out on ONE timeline: the finished trick
 *    stays on the table while the bots' cards land on it one by one, its winner is marked,
 *    its cards travel to the winner's chip, then it clears for the next trick; the feed,
 *    the race log and the aria-live sentences follow the same steps (speed setting kept
 *    in this browser; instant when the reader prefers reduced motion and has not chosen
 *    otherwise); the header, the racer strip, the racetrack and the middle keep showing
 *    the table as it was before the move until the reveal is over (the status line tells
 *    each step), so nothing on screen runs ahead of the cards, and the hand waits until
 *    the trick it answers is face up (a new round's hand stays unseen until the round's
 *    end is told);
 *  - the trick, the status and Play are brought back into view after every move, and on a
 *    phone the hand clears the play bar fixed to the bottom of the screen;
 *  - "Bots are thinking…" appears when a reply takes more than a moment;
 *  - a request that cannot reach the server, or that the server cannot answer, says so
 *    (#net-status) until the next one goes through;
 *  - the tab title follows the table ("Your turn");
 *  - a link to a place inside a folded <details> unfolds it (the review's mistakes);
 *  - on the start page, your last choices fill "Race now" (kept in this browser); a record
 *    per bot level an older version kept in this browser is sent to the server once
 *    (it lives there now, on "Your races") and then forgotten here.
 * No inline code anywhere: CSP is script-src 'self'.
 */
(function () {
  "use strict";

  var STEP_MS = 520;        // a card landing on the table
  var RESULT_MS = 260;      // each consequence that follows it
  var WINNER_MS = 1100;     // the finished trick, winner marked, before the next card lands
  var HOLD_MS = 1600;       // the finished trick when no card follows it
  var FLY_DELAY = 0.3;      // of WINNER_MS: the winner marked before its cards travel to it
  var FLY_SHARE = 0.6;      // of WINNER_MS: the travel itself, over before the next card
  var THINK_MS = 300;       // a reply slower than this shows "Bots are thinking…"
  // "normal" keeps a turn's median wait near one second (a whole race's waits are measured
  // by tests/web/test_reveal_wait.py); a tap or Escape ends any reveal at once.
  var SPEEDS = { slow: 1, normal: 0.3, fast: 0.15 };
  var SPEED_KEY = "zzv.revealSpeed";
  var SOUND_KEY = "zzv.sound";
  var MOMENT_MS = { lap: 2200, big: 1600, win: 3600, lose: 3600 };
  var PLAY_KINDS = ["card_played", "tuned_up", "zero_five_played"];
  var END_KINDS = ["trick_won", "trick_all_tuned_up"];
  var reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  var revealTimer = null;
  var thinkTimer = null;
  var before = null;        // the replaced table's header, strip, lanes and middle (see onBeforeSwap)
  var revealing = null;     // the reveal on screen: its plan's parts to put back when it ends

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

  function fill(words, values) {
    return words.replace(/\{(\w+)\}/g, function (whole, key) {
      return key in values ? String(values[key]) : whole;
    });
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
      total.textContent = preview.dataset.pick || "pick a card";
      return;
    }
    if (choice.dataset.mode === "down") {
      total.textContent = preview.dataset.tune || "Tune Up: shares the middle";
      gas.value = "0";
      return;
    }
    var n = numbersFor(form, choice);
    gas.max = String(n.gasMax);
    var spent = Math.max(0, Math.min(num(gas.value), n.gasMax));
    if (String(spent) !== gas.value) { gas.value = String(spent); }
    var sum = n.value + spent + n.speed;
    // The words are the page's (data-sum, in the reader's language), the numbers filled in.
    total.textContent = fill(preview.dataset.sum || "{total} = {value} + {gas} gas + {speed} speed",
      { total: sum, value: n.value, gas: spent, speed: n.speed });
    var best = choice.dataset.best;
    if (bestEl) {
      bestEl.textContent = best
        ? fill(preview.dataset.bestOf || "{final} ({name})", { final: best, name: choice.dataset.bestWho })
        : preview.dataset.nothing || "nothing face up yet";
    }
    preview.classList.toggle("is-ahead", best === "" || best === undefined || sum > num(best));
  }

  function stepGas(form, delta) {
    if (waiting(form)) { return; }
    var gas = form.querySelector("#gas");
    if (!gas) { return; }
    var max = gas.max === "" ? 99 : num(gas.max);
    gas.value = String(Math.max(0, Math.min(max, num(gas.value) + delta)));
    updatePreview(form);
  }

  /* While the reveal runs the hand waits: the trick it answers is not face up yet. */
  function waiting(form) {
    return form.classList.contains("is-waiting");
  }

  function pick(form, index) {
    if (waiting(form)) { return; }
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
    if (waiting(form)) { return; }
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
    if (form.classList.contains("htmx-request") || waiting(form)) { return; }
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

  /* A link to a place inside a folded <details> (the review's later mistakes) unfolds it
     before the browser scrolls there, where the browser does not do so itself. */
  document.addEventListener("click", function (event) {
    var link = event.target && event.target.closest ? event.target.closest('a[href^="#"]') : null;
    var target = link ? document.getElementById(link.getAttribute("href").slice(1)) : null;
    for (var fold = target; fold; fold = fold.parentElement) {
      if (fold.tagName === "DETAILS") { fold.open = true; }
    }
  });

  /* On the replay, the arrow keys step through the tricks (the links do the work). */
  function stepReplay(event) {
    var nav = document.querySelector("[data-replay-keys]");
    if (!nav || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) { return false; }
    var link = nav.querySelector(event.key === "ArrowLeft" ? 'a[rel="prev"]' : 'a[rel="next"]');
    if (!link) { return false; }
    link.click();
    return true;
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) { return; }
    if (!isTyping(event.target) && stepReplay(event)) {
      event.preventDefault();
      return;
    }
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

  /* ---------------------------------------------------------------- browser storage */

  function load(key) {
    try {
      return window.localStorage.getItem(key);
    } catch (err) {
      return null;  // storage off (private mode, policy): everything still works
    }
  }

  function store(key, value) {
    try {
      window.localStorage.setItem(key, value);
    } catch (err) {
      /* not kept: the page works the same */
    }
  }

  function loadJSON(key, fallback) {
    var raw = load(key);
    if (!raw) { return fallback; }
    try {
      var value = JSON.parse(raw);
      return value && typeof value === "object" ? value : fallback;
    } catch (err) {
      return fallback;
    }
  }

  /* ---------------------------------------------------------------- staged reveal */

  /* "slow", "normal", "fast" or "instant": the reader's choice, else instant when they
     prefer reduced motion. */
  function revealSpeed() {
    var chosen = load(SPEED_KEY);
    if (chosen === "instant" || SPEEDS.hasOwnProperty(chosen)) { return chosen; }
    return reduceMotion.matches ? "instant" : "normal";
  }

  function say(line) {
    var region = document.getElementById("announcer");
    if (!region || !line) { return; }
    var p = document.createElement("p");
    p.textContent = line;
    region.appendChild(p);
  }

  function hasKind(item, kinds) {
    return kinds.indexOf(item.dataset.kind) !== -1;
  }

  /* The log's sentences in the order they happened (it lists rounds and tricks newest
     first). Each event has exactly one sentence there and one item in the feed, so the
     feed's items are the last sentences of this list. */
  function logLines(table) {
    var lines = [];
    var rounds = Array.prototype.slice.call(table.querySelectorAll(".log-round")).reverse();
    rounds.forEach(function (round) {
      var intro = round.querySelector(".log-intro");
      if (intro) { lines.push(intro); }
      var tricks = Array.prototype.slice.call(round.querySelectorAll(".log-trick")).reverse();
      tricks.forEach(function (trick) {
        Array.prototype.push.apply(lines, trick.querySelectorAll("ul > li"));
      });
    });
    return lines;
  }

  /* A trick or round heading of the log shows once one of its sentences does. */
  function tidyLog(table) {
    table.querySelectorAll(".log-trick, .log-round").forEach(function (group) {
      var lines = group.querySelectorAll("ul > li, .log-intro");
      var shown = Array.prototype.some.call(lines, function (line) {
        return !line.classList.contains("is-pending");
      });
      group.classList.toggle("is-pending", lines.length > 0 && !shown);
    });
  }

  function slotOf(board, seat) {
    return board ? board.querySelector('.trick-slot[data-seat="' + seat + '"]') : null;
  }

  /* Plan the steps: which feed item, log line and table place each one reveals, and where
     the finished trick is marked and cleared. No rules here: only the order the server
     wrote the story in. */
  function planReveal(table, items, start) {
    var trick = table.querySelector("#trick");
    var done = table.querySelector("#trick-done");
    var now = trick ? trick.querySelector(".trick-now") : null;
    var lines = logLines(table);
    var offset = lines.length - items.length;
    var finishes = !!done && items.slice(start).some(function (item) { return hasKind(item, END_KINDS); });
    var phase = finishes ? "done" : "now";
    var steps = [];
    for (var i = start; i < items.length; i++) {
      var item = items[i];
      var step = { item: item, line: offset + i >= 0 ? lines[offset + i] : null };
      if (hasKind(item, PLAY_KINDS)) {
        if (phase === "after") {
          step.clearDone = true;
          phase = "now";
        }
        step.slot = slotOf(phase === "done" ? done : now, item.dataset.seat);
      } else if (hasKind(item, END_KINDS) && phase === "done") {
        step.winner = true;
        phase = "after";
      }
      steps.push(step);
    }
    return { trick: trick, done: finishes ? done : null, steps: steps, lines: lines, holdDone: phase !== "now" };
  }

  function stopReveal() {
    if (revealTimer) {
      clearTimeout(revealTimer);
      revealTimer = null;
    }
  }

  function clearDone(plan) {
    if (!plan.done) { return; }
    plan.done.hidden = true;
    if (plan.trick) { plan.trick.classList.remove("is-showing-done"); }
  }

  /* The parts of the table that tell the position (header, racer strip, racetrack lanes,
     the middle): while the reveal runs, the replaced table's copies stand in for them. */
  var PARTS = [".table-bar", ".track-strip", "#track .lanes", "#trick .pot"];

  function copyParts(table) {
    var parts = {};
    PARTS.forEach(function (selector) {
      var el = table.querySelector(selector);
      if (el) { parts[selector] = el.cloneNode(true); }
    });
    return parts;
  }

  /* Put the earlier parts in place of the new ones; returns how to undo it. */
  function holdParts(table, earlier) {
    var held = [];
    PARTS.forEach(function (selector) {
      var now = table.querySelector(selector);
      var then = earlier[selector];
      if (!now || !then) { return; }
      now.replaceWith(then);
      held.push({ now: now, then: then });
    });
    return held;
  }

  function releaseParts(held) {
    var focused = false;
    held.forEach(function (pair) {
      if (pair.then.contains(document.activeElement)) { focused = true; }
      if (pair.then.isConnected) { pair.then.replaceWith(pair.now); }
    });
    return focused;
  }

  function setWaiting(table, on) {
    var form = table.querySelector("#move-form");
    if (!form) { return; }
    form.classList.toggle("is-waiting", on);
    form.querySelectorAll('input[name="choice"]').forEach(function (input) { input.disabled = on; });
    form.setAttribute("aria-busy", on ? "true" : "false");
    table.classList.toggle("is-revealing", on);
  }

  function showStep(plan, step, table) {
    step.item.classList.remove("is-pending");
    step.item.classList.add("is-new");
    if (step.line) { step.line.classList.remove("is-pending"); }
    if (step.clearDone) { clearDone(plan); }
    if (step.slot) {
      step.slot.classList.remove("is-pending");
      step.slot.classList.add("is-new");
    }
    if (step.winner && plan.done) {
      var winner = plan.done.querySelector("[data-winner]");
      if (winner) { winner.classList.add("is-best"); }
      var result = plan.done.querySelector(".trick-done-result");
      if (result) { result.textContent = step.item.dataset.say; }
      if (winner && !plan.skipping) { flyToWinner(plan, winner, table); }
    }
    if (plan.trick && step.at) { plan.trick.dataset.shownAt = String(step.at); }
    // The held header's status line tells the step as it lands.
    var status = table.querySelector(".table-bar .status");
    if (status && plan.held.length) { status.textContent = step.item.dataset.say; }
    tidyLog(table);
    say(step.item.dataset.say);
    cueStep(step.item);
    showMoment(table, step.at);
  }

  /* The finished trick's cards travel to its winner's seat chip once the winner is marked,
     within the pause the reveal already makes before the next card (no wait is added);
     none under reduced motion, nor at the race's end, where the last trick stays. The
     trick carries data-flight ("flying", then "landed") while it runs. */
  var flightTimer = null;

  function flyToWinner(plan, winner, table) {
    var chip = winner.querySelector(".seat-chip");
    if (reduceMotion.matches || !chip || table.classList.contains("is-over")) { return; }
    var to = chip.getBoundingClientRect();
    var pause = WINNER_MS * SPEEDS[revealSpeed()];
    plan.done.style.setProperty("--fly-delay", Math.round(pause * FLY_DELAY) + "ms");
    plan.done.style.setProperty("--fly-ms", Math.round(pause * FLY_SHARE) + "ms");
    plan.done.querySelectorAll(".slot-card > *").forEach(function (card) {
      var from = card.getBoundingClientRect();
      var dx = to.left + to.width / 2 - (from.left + from.width / 2);
      var dy = to.top + to.height / 2 - (from.top + from.height / 2);
      card.style.setProperty("--fly-x", Math.round(dx) + "px");
      card.style.setProperty("--fly-y", Math.round(dy) + "px");
    });
    plan.done.dataset.flight = "flying";
    clearTimeout(flightTimer);
    flightTimer = setTimeout(function () { landFlight(plan); }, pause * (FLY_DELAY + FLY_SHARE));
  }

  /* The flight at its end, at once (a skip lands it too): the cards are with the winner. */
  function landFlight(plan) {
    clearTimeout(flightTimer);
    flightTimer = null;
    if (!plan.done || plan.done.dataset.flight !== "flying") { return; }
    plan.done.dataset.flight = "landed";
  }

  function endHolding(plan, table) {
    if (revealing !== plan) { return; }
    revealing = null;
    var refocus = releaseParts(plan.held);
    plan.held = [];
    if (plan.trick) { plan.trick.dataset.shownAt = table.dataset.at || ""; }
    setWaiting(table, false);
    table.classList.remove("is-dealing");
    handAboveBar(table);  // the status line is the table's own again: its height may differ
    if (refocus || document.activeElement === document.body) { focusTable(table); }
  }

  function finishReveal(plan, table) {
    table.querySelectorAll(".summary.is-pending").forEach(function (box) {
      box.classList.remove("is-pending");
    });
    endHolding(plan, table);
    table.dataset.revealed = "true";
    document.dispatchEvent(new CustomEvent("zzv:revealed"));
    // At the end of the race the last trick stays on the table.
    if (plan.done && plan.holdDone && !table.classList.contains("is-over")) {
      revealTimer = setTimeout(function () {
        revealTimer = null;
        clearDone(plan);
      }, HOLD_MS * SPEEDS[revealSpeed()]);
    }
  }

  /* Where the story worth staging starts: after the viewer's own card, after what the
     previous table already showed, and (when the list holds more than one finished trick,
     as on a watch page) at the first card of the last finished trick, the one the table
     lays out. */
  function stageStart(items, total, shownAt) {
    var start = items.length && items[0].dataset.mine === "true" ? 1 : 0;
    if (shownAt !== null && shownAt <= total) {
      start = Math.max(start, items.length - (total - shownAt));
    }
    var ends = [];
    for (var i = start; i < items.length; i++) {
      if (hasKind(items[i], END_KINDS)) { ends.push(i); }
    }
    if (ends.length > 1) {
      var j = ends[ends.length - 2] + 1;
      while (j < items.length && !hasKind(items[j], PLAY_KINDS)) { j++; }
      start = Math.max(start, j);
    }
    return Math.min(Math.max(start, 0), items.length);
  }

  function reveal(table, earlier) {
    stopReveal();
    revealing = null;
    var region = document.getElementById("announcer");
    if (region) { region.textContent = ""; }
    var items = Array.prototype.slice.call(table.querySelectorAll(".feed-item"));
    var total = num(table.dataset.at);
    // Each feed item is one event: the list ends with the table's last event.
    items.forEach(function (item, i) { item.dataset.at = String(total - items.length + i + 1); });
    var start = stageStart(items, total, earlier ? earlier.at : null);
    var speed = revealSpeed();
    var trick = table.querySelector("#trick");
    if (trick) { trick.dataset.shownAt = String(total); }
    if (speed === "instant" || items.length <= start) {
      items.slice(start).forEach(function (item) {
        say(item.dataset.say);
        showMoment(table, num(item.dataset.at));
      });
      table.dataset.revealed = "true";
      document.dispatchEvent(new CustomEvent("zzv:revealed"));
      return;
    }
    var factor = SPEEDS[speed];
    var plan = planReveal(table, items, start);
    plan.held = earlier ? holdParts(table, earlier.parts) : [];
    revealing = plan;
    if (trick) { trick.dataset.shownAt = String(total - items.length + start); }
    setWaiting(table, true);
    // A round's end still being told: the next round's hand is not dealt yet on screen.
    var dealt = items.slice(start).some(function (item) { return hasKind(item, ["round_dealt"]); });
    table.classList.toggle("is-dealing", dealt);
    plan.steps.forEach(function (step) {
      step.at = num(step.item.dataset.at);
      step.item.classList.add("is-pending");
      if (step.line) { step.line.classList.add("is-pending"); }
      if (step.slot) { step.slot.classList.add("is-pending"); }
    });
    table.querySelectorAll(".summary").forEach(function (box) { box.classList.add("is-pending"); });
    if (plan.done) {
      var best = plan.done.querySelector(".trick-slot.is-best");
      if (best) {
        best.classList.remove("is-best");
        best.setAttribute("data-winner", "");
      }
      plan.done.hidden = false;
      plan.trick.classList.add("is-showing-done");
    }
    tidyLog(table);
    var queue = plan.steps.slice();
    plan.queue = queue;
    plan.table = table;
    var next = function () {
      revealTimer = null;
      var step = queue.shift();
      if (!step) { return; }
      showStep(plan, step, table);
      var following = queue[0];
      if (!following) {
        finishReveal(plan, table);
        return;
      }
      var wait = following.item.classList.contains("is-result") ? RESULT_MS : STEP_MS;
      if (following.clearDone) { wait = WINNER_MS; }
      revealTimer = setTimeout(next, wait * factor);
    };
    revealTimer = setTimeout(next, RESULT_MS * factor);
  }

  /* ---------------------------------------------------------------- moments and sound */

  var momentTimer = null;

  function hideMoments() {
    clearTimeout(momentTimer);
    momentTimer = null;
    document.querySelectorAll(".moment.is-on").forEach(function (m) { m.classList.remove("is-on"); });
  }

  /* The moment the event numbered ``at`` makes, if any: over the trick until it times out
     or is tapped; a sound and, for the viewer's own lap or win, a buzz on phones. */
  function showMoment(table, at) {
    var moment = table.querySelector('.moment[data-at="' + at + '"]');
    if (!moment) { return; }
    hideMoments();
    moment.classList.add("is-on");
    say(moment.dataset.say);
    var kind = moment.className.match(/moment-(\w+)/);
    kind = kind ? kind[1] : "lap";
    cue(kind === "lap" && !moment.classList.contains("is-mine") ? "card" : kind);
    if (moment.classList.contains("is-mine") && (kind === "lap" || kind === "win")) { buzz(); }
    momentTimer = setTimeout(hideMoments, MOMENT_MS[kind] || 2000);
  }

  document.addEventListener("click", function (event) {
    if (event.target && event.target.closest && event.target.closest(".moment.is-on")) { hideMoments(); }
  });

  /* Sounds are made with the Web Audio API: nothing is downloaded, and no audio context
     exists before the viewer's first move (browsers allow sound only after a gesture). */
  var audio = null;
  var armed = false;
  var CUES = {
    play: [[587, 0, 0.06]],
    card: [[392, 0, 0.05]],
    trick: [[523, 0, 0.08], [784, 0.08, 0.14]],
    big: [[523, 0, 0.07], [659, 0.07, 0.07], [988, 0.14, 0.2]],
    lap: [[523, 0, 0.1], [659, 0.1, 0.1], [784, 0.2, 0.1], [1047, 0.3, 0.32]],
    win: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.12], [1047, 0.36, 0.5], [784, 0.5, 0.12], [1047, 0.62, 0.6]],
    lose: [[392, 0, 0.16], [330, 0.16, 0.16], [262, 0.32, 0.4]]
  };

  function soundOn() {
    return load(SOUND_KEY) !== "off";
  }

  function cue(name) {
    if (!armed || !soundOn() || !CUES[name]) { return; }
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) { return; }
    try {
      audio = audio || new Context();
      if (audio.state === "suspended") { audio.resume(); }
      var start = audio.currentTime;
      CUES[name].forEach(function (note) {
        var osc = audio.createOscillator();
        var gain = audio.createGain();
        var at = start + note[1];
        osc.type = "triangle";
        osc.frequency.value = note[0];
        gain.gain.setValueAtTime(0.0001, at);
        gain.gain.exponentialRampToValueAtTime(0.18, at + 0.012);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + note[2]);
        osc.connect(gain);
        gain.connect(audio.destination);
        osc.start(at);
        osc.stop(at + note[2] + 0.03);
      });
    } catch (err) {
      /* no sound: the table works the same */
    }
  }

  function buzz() {
    if (soundOn() && navigator.vibrate) { navigator.vibrate([70, 50, 140]); }
  }

  function cueStep(item) {
    if (hasKind(item, PLAY_KINDS)) {
      cue("card");
    } else if (item.dataset.kind === "trick_won" && item.dataset.mine === "true") {
      cue("trick");
    }
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail ? event.detail.elt : null;
    if (elt && elt.id === "move-form") {
      armed = true;
      cue("play");
    }
  });

  function showSound() {
    var on = soundOn();
    document.querySelectorAll("[data-sound]").forEach(function (button) {
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest ? event.target.closest("[data-sound]") : null;
    if (!button) { return; }
    store(SOUND_KEY, soundOn() ? "off" : "on");
    showSound();
  });

  /* A tap on the table or Escape while the cards are still landing: show the rest at
     once. A tap on the hand is spent on that (it picks no card), so nothing is chosen
     unseen. */
  function skipReveal() {
    var plan = revealing;
    if (!plan || !plan.queue) { return false; }
    stopReveal();
    plan.skipping = true;
    while (plan.queue.length) { showStep(plan, plan.queue.shift(), plan.table); }
    finishReveal(plan, plan.table);
    if (plan.done && plan.done.dataset.flight) {
      // The trick's cards have gone to the winner: the trick is done with.
      landFlight(plan);
      if (!plan.table.classList.contains("is-over")) {
        stopReveal();
        clearDone(plan);
      }
    }
    return true;
  }

  document.addEventListener("click", function (event) {
    if (!revealing || !event.target || !event.target.closest) { return; }
    if (!event.target.closest("#table") || event.target.closest("[data-reveal-speed], [data-sound]")) { return; }
    // A tap in the move form is spent on the skip (no card is picked unseen); any other
    // control (a link, a summary, a button) skips the reveal and works as well.
    if (skipReveal() && event.target.closest("#move-form")) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && revealing && skipReveal()) { event.preventDefault(); }
  }, true);

  /* The position the replaced table showed, kept as htmx swaps in the next one: how many
     events it had on screen (fewer while its own reveal was still running) and copies of
     the parts that tell the position. */
  function onBeforeSwap(event) {
    var table = document.getElementById("table");
    var target = event.detail ? event.detail.target : null;
    if (!table || target !== table) { return; }
    var trick = table.querySelector("#trick");
    var at = trick && trick.dataset.shownAt ? num(trick.dataset.shownAt) : num(table.dataset.at);
    before = { at: at, parts: copyParts(table) };
  }
  document.addEventListener("htmx:beforeSwap", onBeforeSwap);

  /* ---------------------------------------------------------------- keeping the table in view */

  /* After a move, bring the status, the trick and Play back on screen (Play sticks to the
     bottom of the screen while the hand is visible). Nothing moves if they already show.
     In the lesson the coach's words and the card it points at matter most: on a short
     screen the coach goes to the top, so its card clears the play bar, and so does the
     rest of the hand where that fits (the coach talks of the other cards too). */
  function keepInView(table) {
    var coach = table.querySelector("#coach");
    if (coach) { coachInView(table, coach); return; }
    var trick = table.querySelector("#trick");
    var status = table.querySelector("#table-status");
    if (!trick || !status) { return; }
    var box = trick.getBoundingClientRect();
    if (!(box.top >= 0 && box.bottom <= window.innerHeight && status.getBoundingClientRect().top >= 0)) {
      scrollToTop(status);
    }
    handAboveBar(table);
  }

  /* On a phone the play bar is fixed to the bottom of the screen. Where the hand's last
     row would sit under it (a status line on two lines, a friend's clock), the page
     scrolls just that far, as long as the status line stays on screen. */
  function handAboveBar(table) {
    var form = table.querySelector("#move-form");
    var bar = form ? form.querySelector(".play-row") : null;
    var status = table.querySelector("#table-status");
    if (!bar || !status || window.getComputedStyle(bar).position !== "fixed") { return; }
    var bottom = 0;
    form.querySelectorAll(".pick, .move-details").forEach(function (part) {
      var box = part.getBoundingClientRect();
      if (box.height > 0) { bottom = Math.max(bottom, box.bottom); }
    });
    var over = bottom - bar.getBoundingClientRect().top;
    var room = status.getBoundingClientRect().top - 4;
    if (over > 0 && room > 0) {
      window.scrollBy({ top: Math.min(over, room), left: 0, behavior: "instant" });
    }
  }

  function coachInView(table, coach) {
    var pick = table.querySelector("[data-coach='pick']");
    var card = pick ? table.querySelector("label[for='" + pick.id + "']") : null;
    var hand = table.querySelector("#move-form .hand");
    var bar = table.querySelector(".play-row");
    var floor = bar ? Math.min(window.innerHeight, bar.getBoundingClientRect().top) : window.innerHeight;
    var status = table.querySelector("#table-status");
    var tops = status ? [status, coach] : [coach];
    // The whole hand above the bar if the status line or the coach on top allows it, else
    // the coach's card alone; nothing moves while the coach shows and that much clears.
    var wanted = [hand, card].filter(Boolean);
    for (var w = 0; w < wanted.length; w++) {
      var bottom = wanted[w].getBoundingClientRect().bottom;
      if (coach.getBoundingClientRect().top >= 0 && bottom <= floor) { return; }
      for (var t = 0; t < tops.length; t++) {
        if (bottom - (tops[t].getBoundingClientRect().top - 8) <= floor) {
          scrollToTop(tops[t]);
          return;
        }
      }
    }
    // Too short a screen for the whole coach and its card (320x640): the card above the
    // bar, the coach's words scrolled up only as far as its request stays in view.
    scrollToTop(coach);
    if (!card) { return; }
    var over = card.getBoundingClientRect().bottom + 8 - floor;
    var ask = coach.querySelector(".coach-ask") || coach;
    var room = Math.max(0, ask.getBoundingClientRect().top - 8);
    if (over > 0) { window.scrollBy({ top: Math.min(over, room), left: 0, behavior: "instant" }); }
  }

  function scrollToTop(element) {
    var top = element.getBoundingClientRect().top + window.pageYOffset - 8;
    window.scrollTo({ top: Math.max(0, top), left: 0, behavior: "instant" });
  }

  /* ---------------------------------------------------------------- bots thinking */

  function thinking(on) {
    var note = document.getElementById("thinking");
    var table = document.getElementById("table");
    if (note) { note.textContent = on ? note.dataset.words || "Bots are thinking…" : ""; }
    if (table) {
      if (on) { table.setAttribute("aria-busy", "true"); } else { table.removeAttribute("aria-busy"); }
    }
  }

  document.addEventListener("htmx:beforeRequest", function () {
    clearTimeout(thinkTimer);
    thinkTimer = setTimeout(function () { thinking(true); }, THINK_MS);
  });
  ["htmx:afterRequest", "htmx:sendError", "htmx:responseError"].forEach(function (name) {
    document.addEventListener(name, function () {
      clearTimeout(thinkTimer);
      thinking(false);
    });
  });

  /* ---------------------------------------------------------------- connection trouble */

  // The words are the page's (#net-status's data-, in the reader's language).
  function netWords(name, english) {
    var note = document.getElementById("net-status");
    return (note && note.dataset[name]) || english;
  }

  function netStatus(sentence) {
    var note = document.getElementById("net-status");
    if (!note) { return; }
    note.textContent = sentence || "";
    note.hidden = !sentence;
  }

  // The server's own sentence (a restart, a store out of reach): to htmx it answers the
  // error page's panel alone.
  function serverSentence(xhr) {
    try {
      var panel = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
      var heading = panel.querySelector(".error-panel h1");
      return heading ? heading.textContent.trim() : "";
    } catch (e) { return ""; }
  }

  document.addEventListener("htmx:sendError", function () {
    netStatus(netWords("offline", "No connection: nothing was sent. Try again once you are back online."));
  });
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.status >= 500) {
      var said = serverSentence(xhr);
      var failed = netWords("failed", "The server could not answer just now.");
      netStatus((said || failed) + " " + netWords("reload", "Reload the page to see the race as it stands."));
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) { netStatus(""); }
  });

  /* ---------------------------------------------------------------- reveal speed setting */

  document.addEventListener("change", function (event) {
    var select = event.target;
    if (select && select.matches && select.matches("[data-reveal-speed]")) {
      store(SPEED_KEY, select.value);
    }
  });

  function showSpeed(table) {
    var select = table.querySelector("[data-reveal-speed]");
    if (select) { select.value = revealSpeed(); }
  }

  /* ---------------------------------------------------------------- start page and record */

  var CHOICES_KEY = "zzv.choices";
  var RECORD_KEY = "zzv.record";
  var GAMES_KEY = "zzv.games";
  var STARTING_KEY = "zzv.starting";
  var VARIANT_FIELDS = ["larger_hands", "zero_suit", "zero_five"];
  var SOLO_SETUP = ".setup-form:not(.friends-form)";

  /* The settings form's choices, as the names and values it posts. */
  function formChoices(form) {
    var choices = {};
    ["players", "bots"].forEach(function (name) {
      var input = form.querySelector('input[name="' + name + '"]:checked');
      if (input) { choices[name] = input.value; }
    });
    VARIANT_FIELDS.forEach(function (name) {
      var box = form.querySelector('input[name="' + name + '"]');
      if (box && box.checked) { choices[name] = "on"; }
    });
    var replaces = form.querySelector('select[name="zero_replaces"]');
    if (replaces && choices.zero_suit) { choices.zero_replaces = replaces.value; }
    return choices;
  }

  function fillSetup(form, choices) {
    ["players", "bots"].forEach(function (name) {
      if (!choices[name]) { return; }
      var input = form.querySelector('input[name="' + name + '"][value="' + CSS.escape(choices[name]) + '"]');
      if (input) { input.checked = true; }
    });
    VARIANT_FIELDS.forEach(function (name) {
      var box = form.querySelector('input[name="' + name + '"]');
      if (box) { box.checked = choices[name] === "on"; }
    });
    var replaces = form.querySelector('select[name="zero_replaces"]');
    if (replaces && choices.zero_replaces) { replaces.value = choices.zero_replaces; }
  }

  /* "Race now" posts the remembered choices instead of the defaults. */
  function fillRaceNow(form, choices) {
    Object.keys(choices).forEach(function (name) {
      var input = form.querySelector('input[name="' + name + '"]');
      if (!input) {
        input = document.createElement("input");
        input.type = "hidden";
        input.name = name;
        form.appendChild(input);
      }
      input.value = choices[name];
    });
    var note = form.querySelector(".race-now-note");
    // The words are the page's (its language's): data- attributes of the note.
    if (note && note.dataset.choice && choices.players && choices.bots) {
      var words = note.dataset;
      var variants = VARIANT_FIELDS.filter(function (n) { return choices[n] === "on"; })
        .map(function (n) { return words[n]; });
      note.textContent = words.choice
        .replace("%(players)s", choices.players)
        .replace("%(level)s", words["level_" + choices.bots] || choices.bots)
        .replace("%(rules)s", variants.length ? variants.join(words.separator) : words.base);
    }
  }

  /* The record per bot level used to live in this browser; it is on the server now. A
     record still here is sent once (the server keeps the first it gets), then forgotten. */
  function importOldRecord() {
    var raw = load(RECORD_KEY);
    if (!raw || !window.fetch) { return; }
    var record = loadJSON(RECORD_KEY, null);
    var forget = function () {
      try {
        window.localStorage.removeItem(RECORD_KEY);
        window.localStorage.removeItem(GAMES_KEY);
        window.localStorage.removeItem(STARTING_KEY);
      } catch (err) { /* storage off: nothing to forget */ }
    };
    if (!record) { forget(); return; }
    window.fetch("/me/import", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ record: record })
    }).then(function (response) {
      // 2xx: kept (or one was kept before); 422: not a record; either way done with it.
      if (response.ok || response.status === 422) { forget(); }
    }).catch(function () { /* offline: try again on the next page */ });
  }

  function setupStartPage() {
    var setup = document.querySelector(SOLO_SETUP);
    var raceNow = document.querySelector("form.race-now");
    var choices = loadJSON(CHOICES_KEY, null);
    if (setup && choices) { fillSetup(setup, choices); }
    if (raceNow && choices) { fillRaceNow(raceNow, choices); }
  }

  /* The settings form's choices are remembered for "Race now". */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || !form.matches || form.matches(".friends-form")) { return; }
    if (form.matches(SOLO_SETUP)) {
      store(CHOICES_KEY, JSON.stringify(formChoices(form)));
    }
  });

  /* ---------------------------------------------------------------- settling a new table */

  /* The first card when the hand may pick (the picked one if any), else the status line. */
  function focusTable(table) {
    var form = table.querySelector("#move-form");
    var target = null;
    if (form && !waiting(form)) {
      target = checkedChoice(form) || form.querySelector('input[name="choice"]');
    }
    target = target || table.querySelector("#table-status");
    if (target) { target.focus({ preventScroll: true }); }
  }

  /* Fold the round-by-round story on phones; open it where there is room. */
  function openWide(table) {
    if (!window.matchMedia("(min-width: 761px) and (min-height: 521px)").matches) { return; }
    table.querySelectorAll("details[data-open-wide]").forEach(function (d) { d.open = true; });
  }

  function settle(animate, swapped) {
    var table = document.getElementById("table");
    if (!table) {
      setupStartPage();
      return;
    }
    table.dataset.settled = "true";
    clearTimeout(thinkTimer);
    thinking(false);
    if (table.dataset.title) { document.title = table.dataset.title; }
    showSpeed(table);
    showSound();
    openWide(table);
    var form = moveForm();
    if (form) { updatePreview(form); }
    var earlier = before;
    before = null;
    if (animate) {
      reveal(table, earlier);
      keepInView(table);
      focusTable(table);
    } else {
      table.dataset.revealed = "true";
      // A swapped table (a suggestion, a refused move) comes back into view too, and so
      // does the lesson's first step.
      if (swapped || table.querySelector("#coach")) { keepInView(table); } else { handAboveBar(table); }
    }
  }

  /* htmx replaced #table (outerHTML): stage the new one once, in the same task as the
     swap, so the finished story never flashes on screen before the reveal hides it. */
  function onSwap() {
    var table = document.getElementById("table");
    if (!table || table.dataset.settled) { return; }
    settle(table.dataset.animate === "true", true);
  }
  document.addEventListener("htmx:afterSwap", onSwap);
  document.addEventListener("htmx:afterSettle", onSwap);

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { settle(false); });
  } else {
    settle(false);
  }
  importOldRecord();
})();
