/* The hand replayer: steps through games.runtime.history.hand_replay (embedded in the page as JSON): stacks, bets,
   pots, board and shown cards after every step. Other players' cards appear only if they were shown at showdown.
   The compliance desk's review replay (compliance.replay) adds every seat's cards (hand.hole_cards), each action's
   decision time (step.decision_ms) and the equities of the players still in on each street (step.equities). */
(function () {
  "use strict";
  var P = window.Poker;
  var Cards = window.Cards;
  var gettext = P.t;
  var f = function (text, values) { return P.format(text, values, true); };
  var source = document.getElementById("replay-data");
  if (!source) { return; }
  var replay = JSON.parse(source.textContent);
  var hand = replay.hand;
  // Tournament hands are in chips (TRN-16), cash hands in euro cents.
  var money = hand.currency === "CHIPS" ? P.chips : P.money;
  var steps = replay.steps || [];
  var position = 0;
  var playing = null;
  var seatNumbers = Object.keys(hand.seats || {}).map(Number).sort(function (a, b) { return a - b; });
  var seatsElement = document.getElementById("replay-seats");
  var board = document.getElementById("replay-board");
  var pots = document.getElementById("replay-pots");
  var stepText = document.getElementById("replay-step-text");
  var list = document.getElementById("replay-steps");
  var positionText = document.getElementById("replay-position");
  var playButton = document.getElementById("replay-play");

  function name(seat) {
    var entry = hand.seats[String(seat)];
    var text = entry ? entry.player : f(gettext("Seat %(number)s"), { number: seat });
    return Number(seat) === hand.my_seat ? f(gettext("%(name)s (you)"), { name: text }) : text;
  }

  var BLIND_NAMES = { small_blind: gettext("small blind"), big_blind: gettext("big blind"), ante: gettext("ante"),
    out_of_position_big_blind: gettext("big blind out of position") };
  var STREETS = { flop: gettext("Flop"), turn: gettext("Turn"), river: gettext("River") };

  function percent(value) { return (Math.round(value * 1000) / 10) + "%"; }

  function reviewNotes(step) {
    var notes = "";
    if (typeof step.decision_ms === "number") {
      notes += " " + f(gettext("(decided in %(seconds)s s)"), { seconds: (step.decision_ms / 1000).toFixed(1) });
    }
    if (step.equities && step.equities.length) {
      notes += " — " + gettext("equity:") + " " + step.equities.map(function (entry) {
        return name(entry.seat) + " " + percent(entry.equity);
      }).join(", ");
    }
    return notes;
  }

  function describe(step) {
    return describeStep(step) + reviewNotes(step);
  }

  function describeStep(step) {
    switch (step.kind) {
      case "hand_started": return f(gettext("The hand starts. %(name)s has the dealer button."), { name: name(step.button) });
      case "forced_bet_posted": return f(gettext("%(name)s posts the %(blind)s %(amount)s"), { name: name(step.seat), blind: BLIND_NAMES[step.blind] || step.blind, amount: money(step.amount) });
      case "action_taken": {
        var text = {
          fold: f(gettext("%(name)s folds"), { name: name(step.seat) }),
          check: f(gettext("%(name)s checks"), { name: name(step.seat) }),
          call: f(gettext("%(name)s calls %(amount)s"), { name: name(step.seat), amount: money(step.amount) }),
          bet: f(gettext("%(name)s bets %(amount)s"), { name: name(step.seat), amount: money(step.total_bet) }),
          raise: f(gettext("%(name)s raises to %(amount)s"), { name: name(step.seat), amount: money(step.total_bet) })
        }[step.action] || f(gettext("%(name)s acts"), { name: name(step.seat) });
        if (step.all_in) { text += " " + gettext("(all-in)"); }
        if (step.timed_out) { text += " " + gettext("(time ran out)"); }
        return text;
      }
      case "street_dealt": return f(gettext("%(street)s: %(cards)s"), { street: STREETS[step.street] || step.street, cards: Cards.list(step.cards) });
      case "uncalled_bet_returned": return f(gettext("Uncalled bet of %(amount)s returned to %(name)s"), { amount: money(step.amount), name: name(step.seat) });
      case "hand_shown": return f(gettext("%(name)s shows %(cards)s"), { name: name(step.seat), cards: Cards.list(step.cards) }) +
        (step.hand_name ? " – " + P.handName(step.hand_name) : "");
      case "pot_awarded": {
        var winners = (step.shares || []).map(function (share) { return f(gettext("%(name)s wins %(amount)s"), { name: name(share[0]), amount: money(share[1]) }); }).join(", ");
        var pot = step.pot_index === 0 ? gettext("Main pot") : f(gettext("Side pot %(number)s"), { number: step.pot_index });
        return pot + ": " + winners + (step.hand_name ? " (" + P.handName(step.hand_name) + ")" : "");
      }
      case "hand_ended": return step.showdown ? gettext("The hand ends at showdown.") : gettext("The hand ends.");
      case "hand_settled": return f(gettext("Rake %(amount)s is taken from the pot."), { amount: money(step.rake) });
      case "hand_cancelled": return f(gettext("The hand was cancelled: %(reason)s"), { reason: step.reason });
      case "result": return gettext("Final result");
      default: return step.kind;
    }
  }

  function drawSeats(step) {
    seatsElement.innerHTML = "";
    var count = Math.max(seatNumbers.length, 2);
    var anchorIndex = Math.max(0, seatNumbers.indexOf(hand.my_seat));
    seatNumbers.forEach(function (seat, index) {
      var angle = Math.PI / 2 + (2 * Math.PI * ((index - anchorIndex + count) % count)) / count;
      var wrapper = document.createElement("div");
      wrapper.className = "seat" + (seat === hand.my_seat ? " me" : "") + ((step.folded || []).indexOf(seat) !== -1 ? " folded" : "") +
        (step.seat === seat && step.kind === "action_taken" ? " to-act" : "");
      wrapper.style.left = (50 + 42 * Math.cos(angle)) + "%";
      wrapper.style.top = (50 + 38 * Math.sin(angle)) + "%";
      wrapper.setAttribute("data-seat", seat);
      var hole = document.createElement("div");
      hole.className = "hole";
      var shown = step.shown && step.shown[String(seat)];
      var every = hand.hole_cards && hand.hole_cards[String(seat)];
      var cards = every || (seat === hand.my_seat ? hand.my_cards : shown ? shown.cards : null);
      if (cards && cards.length) {
        cards.forEach(function (code) { hole.appendChild(Cards.element(code, true)); });
      } else if ((step.folded || []).indexOf(seat) === -1) {
        var count2 = hand.game === "omaha" || (hand.my_cards && hand.my_cards.length === 4) ? 4 : 2;
        for (var i = 0; i < count2; i += 1) { hole.appendChild(Cards.element(null, true)); }
      }
      wrapper.appendChild(hole);
      var box = document.createElement("div");
      box.className = "seat-box";
      box.setAttribute("role", "group");
      box.setAttribute("aria-label", f(gettext("Seat %(number)s: %(name)s"), { number: seat, name: name(seat) }));
      if (seat === hand.button) {
        var markers = document.createElement("div");
        markers.className = "markers";
        var dealer = document.createElement("span");
        dealer.className = "marker dealer";
        dealer.textContent = "D";
        dealer.setAttribute("role", "img");
        dealer.setAttribute("aria-label", gettext("Dealer button"));
        markers.appendChild(dealer);
        box.appendChild(markers);
      }
      var nameElement = document.createElement("div");
      nameElement.className = "name";
      nameElement.textContent = name(seat);
      box.appendChild(nameElement);
      var stack = document.createElement("div");
      stack.className = "stack";
      var cents = step.stacks ? step.stacks[String(seat)] : null;
      if (step.kind === "result" && step.result) {
        // The final step shows the settled stacks (after rake), as the ledger holds them.
        (step.result.players || []).forEach(function (entry) {
          if (Number(entry.seat) === seat && entry.end_stack !== null && entry.end_stack !== undefined) { cents = entry.end_stack; }
        });
      }
      stack.setAttribute("data-cents", cents);
      stack.textContent = money(cents);
      box.appendChild(stack);
      var status = document.createElement("div");
      status.className = "status";
      status.textContent = (step.folded || []).indexOf(seat) !== -1 ? gettext("Folded") : shown && shown.hand_name ? P.handName(shown.hand_name) : "";
      box.appendChild(status);
      wrapper.appendChild(box);
      seatsElement.appendChild(wrapper);
      var bet = step.bets && step.bets[String(seat)];
      if (bet) {
        var chip = document.createElement("div");
        chip.className = "seat-bet";
        chip.style.left = (50 + 25 * Math.cos(angle)) + "%";
        chip.style.top = (50 + 21 * Math.sin(angle)) + "%";
        chip.textContent = money(bet);
        chip.setAttribute("data-cents", bet);
        seatsElement.appendChild(chip);
      }
    });
  }

  function draw() {
    var step = steps[position] || {};
    drawSeats(step);
    board.innerHTML = "";
    for (var i = 0; i < 5; i += 1) { board.appendChild(Cards.element(step.board && step.board[i] ? step.board[i] : "placeholder")); }
    pots.innerHTML = "";
    var total = document.createElement("span");
    total.className = "pot";
    total.id = "replay-pot";
    total.setAttribute("data-cents", step.pot || 0);
    total.textContent = f(gettext("Pot %(amount)s"), { amount: money(step.pot || 0) });
    pots.appendChild(total);
    stepText.textContent = describe(step);
    positionText.textContent = f(gettext("Step %(current)s of %(total)s"), { current: position + 1, total: steps.length });
    Array.prototype.forEach.call(list.children, function (item, index) {
      if (index === position) { item.setAttribute("aria-current", "step"); } else { item.removeAttribute("aria-current"); }
      item.classList.toggle("future", index > position);
    });
    var current = list.children[position];
    if (current && current.scrollIntoView) { current.scrollIntoView({ block: "nearest" }); }
    document.getElementById("replay-first").disabled = position === 0;
    document.getElementById("replay-previous").disabled = position === 0;
    document.getElementById("replay-next").disabled = position >= steps.length - 1;
    document.getElementById("replay-last").disabled = position >= steps.length - 1;
    var result = document.getElementById("replay-result");
    result.hidden = !(step.kind === "result" && step.result);
    if (!result.hidden) { drawResult(step.result); }
  }

  function drawResult(result) {
    var body = document.querySelector("#replay-result-table tbody");
    body.innerHTML = "";
    (result.players || []).forEach(function (player) {
      var row = document.createElement("tr");
      row.setAttribute("data-seat", player.seat);
      [String(player.seat), player.player, money(player.start_stack), money(player.end_stack),
        player.net === null ? "" : (player.net > 0 ? "+" : "") + money(player.net)].forEach(function (text, index) {
        var cell = document.createElement("td");
        cell.textContent = text;
        if (index >= 2) { cell.className = "money"; }
        if (index === 4 && player.net !== null) { cell.setAttribute("data-cents", player.net); }
        row.appendChild(cell);
      });
      body.appendChild(row);
    });
    document.getElementById("replay-rake").textContent = result.rake !== null && result.rake !== undefined ?
      f(gettext("Pot %(pot)s, rake %(rake)s."), { pot: money(result.pot_total || 0), rake: money(result.rake) }) : "";
  }

  function go(index) {
    position = Math.max(0, Math.min(steps.length - 1, index));
    draw();
  }

  function stop() {
    clearInterval(playing);
    playing = null;
    playButton.textContent = gettext("Play");
  }

  steps.forEach(function (step, index) {
    var item = document.createElement("li");
    var button = document.createElement("button");
    button.type = "button";
    button.className = "linkish";
    button.textContent = (index + 1) + ". " + describe(step);
    button.addEventListener("click", function () { stop(); go(index); });
    item.appendChild(button);
    list.appendChild(item);
  });
  document.getElementById("replay-first").addEventListener("click", function () { stop(); go(0); });
  document.getElementById("replay-previous").addEventListener("click", function () { stop(); go(position - 1); });
  document.getElementById("replay-next").addEventListener("click", function () { stop(); go(position + 1); });
  document.getElementById("replay-last").addEventListener("click", function () { stop(); go(steps.length - 1); });
  playButton.addEventListener("click", function () {
    if (playing) { stop(); return; }
    if (position >= steps.length - 1) { go(0); }
    playButton.textContent = gettext("Pause");
    playing = setInterval(function () {
      if (position >= steps.length - 1) { stop(); return; }
      go(position + 1);
    }, 1200);
  });
  document.getElementById("replayer").addEventListener("keydown", function (event) {
    if (event.target && /^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) { return; }
    if (event.key === "ArrowRight") { event.preventDefault(); stop(); go(position + 1); }
    if (event.key === "ArrowLeft") { event.preventDefault(); stop(); go(position - 1); }
  });
  go(0);
}());
