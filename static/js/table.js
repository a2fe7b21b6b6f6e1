/* The live cash table: draws the domain's snapshot, follows the sequence-numbered events of /ws/tables/<id>/
   (docs/protocol.md), and sends the player's commands. The server decides everything (legal actions, amounts,
   whose turn): after each batch of events the page asks for a fresh snapshot, so the buttons always show exactly the
   legal actions the engine reports. A dropped connection reconnects and starts again from a snapshot; a gap in the
   sequence numbers asks the server to resync. */
(function () {
  "use strict";
  var P = window.Poker;
  var Cards = window.Cards;
  var gettext = P.t;
  var f = function (text, values) { return P.format(text, values, true); };

  var app = document.getElementById("table-app");
  if (!app) { return; }
  var tableId = Number(app.getAttribute("data-table-id"));
  var authenticated = app.getAttribute("data-authenticated") === "true";
  // A self-excluded player (the page's notice says until when) is offered no seat: the server would refuse it.
  var playRefused = app.getAttribute("data-play-refused") === "true";
  var elements = {
    seats: document.getElementById("seats"),
    community: document.getElementById("community-cards"),
    pots: document.getElementById("pots"),
    handInfo: document.getElementById("hand-info"),
    notices: document.getElementById("table-notices"),
    status: document.getElementById("table-status"),
    banner: document.getElementById("connection-banner"),
    prompt: document.getElementById("action-prompt"),
    actionBar: document.getElementById("action-bar"),
    buttons: document.getElementById("action-buttons"),
    betControl: document.getElementById("bet-control"),
    betAmount: document.getElementById("bet-amount"),
    betSlider: document.getElementById("bet-slider"),
    betLimits: document.getElementById("bet-limits"),
    betLabel: document.querySelector("label[for=bet-amount]"),
    actionNotices: document.getElementById("action-notices"),
    madeHand: document.getElementById("made-hand"),
    advance: document.getElementById("advance-actions"),
    sound: document.getElementById("toggle-sound"),
    myClock: document.getElementById("my-clock"),
    myClockBar: document.getElementById("my-clock-bar"),
    myClockText: document.getElementById("my-clock-text"),
    seatControls: document.getElementById("seat-controls"),
    sitOut: document.getElementById("toggle-sit-out"),
    sitOutNextBigBlind: document.getElementById("toggle-sit-out-next-big-blind"),
    autoTopUp: document.getElementById("toggle-auto-top-up"),
    sitInPost: document.getElementById("sit-in-post"),
    sitOutInfo: document.getElementById("sit-out-info"),
    topUp: document.getElementById("top-up-button"),
    leave: document.getElementById("leave-button"),
    results: document.getElementById("results"),
    resultsEmpty: document.getElementById("results-empty"),
    log: document.getElementById("action-log"),
    closing: document.getElementById("table-closing"),
    otherTables: document.getElementById("other-tables"),
    commitment: document.getElementById("deck-commitment")
  };

  var state = {
    freshConnection: true,
    snapshot: null,
    sequence: 0,
    clockOffset: 0,          // server time minus browser time, milliseconds
    clockBase: {},           // "seat:deadline" -> milliseconds the bar started from
    finished: null,          // the last finished hand, drawn until the next one starts
    current: null,           // the hand being followed from events (for results)
    results: [],
    pending: false,
    historyLoaded: false,
    lastTurnKey: null,
    resyncing: false,
    catchUp: null,           // {waiting: snapshot, requestId}: a snapshot waits while the events it skipped are fetched
    amountKey: null,         // the decision the bet amount was set up for
    amountChosen: false,     // the player chose the amount (preset, slider, typing) during that decision
    seatNames: {},           // seat -> the name of its player as of the events applied (a seat_left has no name)
    validAmount: null,       // the last amount in the bet / raise range shown (the slider stays there while a typed one is not)
    pressedAmount: null,     // the amount shown when the player pressed Bet / Raise (pointer down)
    advance: null,           // {choice, hand, street, highest}: an action chosen before the player's turn
    lastActions: {},         // seat -> {hand, street, text}: the seat's last action in this betting round
    clockWarned: null,       // the turn whose "time running low" sound was played
    commitment: null         // the deck commitment shown: {handId, number, commitment, seed, mine, kept}
  };

  // Table chat (issue 22; static/js/chat.js): lines arrive as chat_message events, sent with the "chat" command.
  var chatPanel = document.getElementById("chat-panel");
  var chat = chatPanel && window.Chat ? window.Chat.create({
    root: chatPanel,
    userId: Number(app.getAttribute("data-user-id")) || null,
    send: function (text) { return socket.request({ type: "chat", text: text }); }
  }) : null;

  // --- Helpers -------------------------------------------------------------------------------------------

  function snapshot() { return state.snapshot || {}; }
  function hand() { return snapshot().hand || null; }
  function viewer() { return snapshot().viewer || {}; }
  function tableInfo() { return snapshot().table || {}; }
  function seats() { return snapshot().seats || []; }
  function seatByNumber(number) {
    return seats().filter(function (seat) { return seat.number === Number(number); })[0] || null;
  }
  function nameOf(number) {
    var seat = seatByNumber(number);
    if (seat && seat.occupied) { return seat.name; }
    return f(gettext("Seat %(number)s"), { number: number });
  }
  /* The name of the player who sat in seat ``number`` in the hand ``record`` (its own names: from hand_started, which
     the server sends with the names of the players dealt in), never a later occupant of the seat; a hand without
     names falls back to the seat's occupant now. */
  function nameIn(record, number) {
    return (record && record.names && record.names[number]) || nameOf(number);
  }
  function holeCardCount() { return tableInfo().variant === "PO" ? 4 : 2; }
  function mySeat() { return viewer().seat ? seatByNumber(viewer().seat) : null; }
  function serverNow() { return Date.now() + state.clockOffset; }

  /* A table-wide error fades after ERROR_MILLISECONDS; any error goes as soon as the player's next command succeeds
     (clearErrors), so nothing stale stays on screen after an action worked. */
  var ERROR_MILLISECONDS = 8000;
  function notify(text, kind) {
    var notice = P.notify(elements.notices, text, kind || "error");
    if (notice && (kind || "error") === "error") { setTimeout(function () { notice.remove(); }, ERROR_MILLISECONDS); }
    return notice;
  }
  function clearErrors() {
    [elements.notices, elements.actionNotices].forEach(function (area) {
      if (area) { area.querySelectorAll(".notice[data-kind=error]").forEach(function (notice) { notice.remove(); }); }
    });
  }

  /* Errors about the player's own action are shown next to the action buttons, one at a time; they are cleared when
     the player's next turn starts (see drawActions). */
  function actionError(text) {
    if (!elements.actionNotices) { return notify(text); }
    P.clearNotices(elements.actionNotices);
    return P.notify(elements.actionNotices, text, "error");
  }
  function clearActionErrors() { if (elements.actionNotices) { P.clearNotices(elements.actionNotices); } }

  /* Every amount on this page goes through money(): euros for cash tables, whole chips for tournament tables
     (snapshot.table.currency "CHIPS"). Amounts travel as integers either way (cents or chips). */
  function chipTable() { return tableInfo().currency === "CHIPS"; }
  function money(amount) { return chipTable() ? P.chips(amount) : P.money(amount); }
  /* A result with its sign, as the hand history and the replayer show it: "+€0.90", "−€0.50", "€0.00". */
  function signedMoney(amount) { return (amount > 0 ? "+" : amount < 0 ? "-" : "") + money(Math.abs(amount)); }
  function amountToInput(amount) {
    return chipTable() ? String(Math.max(0, Math.trunc(Number(amount) || 0))) : P.centsToInput(amount);
  }
  function parseAmount(text) {
    if (!chipTable()) { return P.parseMoney(text); }
    var cleaned = String(text === null || text === undefined ? "" : text).replace(/[\s\u00a0,]/g, "");
    return /^\d{1,15}$/.test(cleaned) ? Number(cleaned) : null;
  }
  function amountHint() {
    return chipTable() ? gettext("Please enter a whole number of chips, for example 400.") :
      gettext("Please enter an amount in euros, for example 0.40.");
  }
  function errorFrom(message) { return P.errorText(message && message.code, message && message.message); }

  // --- Drawing -------------------------------------------------------------------------------------------

  /* Seats sit on an ellipse, the viewer at the bottom, clockwise; a portrait (phone) table is narrower and taller.
     On a portrait table the side seats sit out at the rim (clear of the community cards) and the bottom seat — the
     viewer's — stands on the rim by its lower edge ("bottom"), so its cards and box stay inside the felt.
     A crowded table (seven seats or more: nine-handed tournaments) does not fit an ellipse: its seats stand on a
     rounded rectangle instead, a row along the top and columns down the sides (CROWDED_SLOTS, in per cent of the
     felt, the viewer's first). */
  var CROWDED_SLOTS = {
    landscape: {
      7: [[50, 98], [20, 78], [10, 36], [33, 12], [67, 12], [90, 36], [80, 78]],
      8: [[50, 98], [24, 82], [10, 50], [20, 14], [50, 12], [80, 14], [90, 50], [76, 82]],
      9: [[50, 98], [24, 82], [10, 50], [20, 14], [40, 12], [60, 12], [80, 14], [90, 50], [76, 82]],
      10: [[50, 98], [27, 83], [10, 64], [10, 30], [27, 12], [50, 12], [73, 12], [90, 30], [90, 64], [73, 83]]
    },
    portrait: {
      7: [[50, 98], [16, 74], [16, 40], [32, 10], [68, 10], [84, 40], [84, 74]],
      8: [[50, 98], [16, 87], [15, 58], [16, 31], [50, 9], [84, 31], [85, 58], [84, 87]],
      9: [[50, 98], [16, 87], [15, 58], [15, 33], [32, 9], [68, 9], [85, 33], [85, 58], [84, 87]],
      10: [[50, 98], [16, 87], [15, 62], [15, 38], [18, 14], [50, 8], [82, 14], [85, 38], [85, 62], [84, 87]]
    }
  };
  function crowded(count) { return count >= 7 && count <= 10; }
  function seatPosition(index, count) {
    var angle = Math.PI / 2 + (2 * Math.PI * index) / count;
    var felt = document.getElementById("felt");
    var portrait = felt && felt.clientWidth < felt.clientHeight;
    if (crowded(count)) {
      var slot = CROWDED_SLOTS[portrait ? "portrait" : "landscape"][count][index];
      // The viewer's seat stands on the rim by its lower edge, its cards and clock inside the felt.
      return index === 0 ? { x: 50, y: 98, bottom: true } : { x: slot[0], y: slot[1], bottom: false };
    }
    var radiusX = portrait ? 38 : 42, radiusY = portrait ? 41 : 37;
    var position = { x: 50 + radiusX * Math.cos(angle), y: 50 + radiusY * Math.sin(angle), bottom: false, top: false };
    if (portrait && index === 0) { position.y = 98; position.bottom = true; }
    // On a portrait table a seat at the top hangs from the rim by its upper edge: a tall seat (cards, a hand name on
    // two lines) grows down into the felt, never up over the hand's title line and its waiting messages. (A
    // landscape felt is too short for that: its board is near.)
    if (portrait && position.y < 15) { position.y = 1.5; position.top = true; }
    return position;
  }

  /* A seat near the top of a short (landscape) felt stands out over its rim with its cards: the felt moves down by
     as much, so that the hand's title line and its waiting messages above it never cover a card (issue 28). */
  function keepTheTitleClear() {
    var felt = document.getElementById("felt");
    if (!felt) { return; }
    felt.style.marginTop = "";
    var top = felt.getBoundingClientRect().top;
    var highest = top;
    elements.seats.querySelectorAll(".seat").forEach(function (seat) { highest = Math.min(highest, seat.getBoundingClientRect().top); });
    if (highest < top) {
      felt.style.marginTop = (parseFloat(getComputedStyle(felt).marginTop) || 0) + Math.ceil(top - highest) + "px";
    }
  }

  /* Each player's bet chip goes next to their seat on the side facing the middle of the table, at the first place
     (the direction of the middle first, then turning away from it on either side) where it covers no seat, no
     community card, no pot and no other bet: measured once the seats and the board are drawn, so that it holds
     whatever the screen, the number of seats and the length of the names. */
  function placeBets() {
    var felt = document.getElementById("felt");
    var bets = elements.seats.querySelectorAll(".seat-bet");
    if (!felt || !bets.length) { return; }
    var outer = felt.getBoundingClientRect();
    // The bets are placed in the felt's padding box (inside its rim), as the seats are.
    var origin = { left: outer.left + felt.clientLeft, top: outer.top + felt.clientTop };
    function box(element) {
      var r = element.getBoundingClientRect();
      return { left: r.left - origin.left, top: r.top - origin.top, right: r.right - origin.left, bottom: r.bottom - origin.top };
    }
    function overlaps(a, b) {
      return Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0;
    }
    var taken = [];
    elements.seats.querySelectorAll(".seat").forEach(function (seat) { taken.push(box(seat)); });
    elements.community.querySelectorAll("*").forEach(function (card) { taken.push(box(card)); });
    elements.pots.querySelectorAll(".pot").forEach(function (pot) { taken.push(box(pot)); });
    var fixed = taken.length;  // the seats, cards and pots; the bets placed so far come after them
    var board = box(elements.community);
    var middle = { x: (board.left + board.right) / 2, y: (board.top + board.bottom) / 2 };
    var width = felt.clientWidth, height = felt.clientHeight, gap = 3;
    Array.prototype.forEach.call(bets, function (bet) {
      var seat = elements.seats.querySelector(".seat[data-seat='" + bet.getAttribute("data-bet-seat") + "']");
      if (!seat) { return; }
      var own = box(seat);
      var chip = box(bet);
      var halfWidth = (chip.right - chip.left) / 2 + gap, halfHeight = (chip.bottom - chip.top) / 2 + gap;
      var centre = { x: (own.left + own.right) / 2, y: (own.top + own.bottom) / 2 };
      var halfX = (own.right - own.left) / 2 + halfWidth, halfY = (own.bottom - own.top) / 2 + halfHeight;
      var toward = Math.atan2(middle.y - centre.y, middle.x - centre.x);
      // Where no place is free, the one that covers the least: a seat or a card is worse than another bet.
      var best = null;
      for (var step = 0; step <= 12 && !(best && best.cost === 0); step += 1) {
        var turns = step === 0 ? [0] : [step, -step];
        for (var t = 0; t < turns.length; t += 1) {
          var angle = toward + turns[t] * Math.PI / 24;
          var dx = Math.cos(angle), dy = Math.sin(angle);
          // Where the ray from the seat's centre leaves the seat's box grown by half the chip (and a gap).
          var reach = Math.min(Math.abs(dx) > 1e-6 ? halfX / Math.abs(dx) : Infinity, Math.abs(dy) > 1e-6 ? halfY / Math.abs(dy) : Infinity);
          var x = centre.x + dx * reach, y = centre.y + dy * reach;
          var place = { left: x - halfWidth + gap, top: y - halfHeight + gap, right: x + halfWidth - gap, bottom: y + halfHeight - gap };
          var cost = place.left >= 0 && place.top >= 0 && place.right <= width && place.bottom <= height ? 0 : 1;
          taken.forEach(function (other, number) { if (overlaps(place, other)) { cost += number < fixed ? 10 : 1; } });
          if (!best || cost < best.cost) { best = { x: x, y: y, place: place, cost: cost }; }
          if (cost === 0) { break; }
        }
      }
      bet.style.left = (100 * best.x / width) + "%";
      bet.style.top = (100 * best.y / height) + "%";
      taken.push(best.place);
    });
  }

  function statusText(seat, currentHand) {
    if (seat.disconnected) { return gettext("Disconnected"); }
    if (seat.sitting_out) { return gettext("Sitting out"); }
    if (seat.leaving_after_hand) { return gettext("Leaving after this hand"); }
    if (currentHand && seat.in_hand) {
      if (seat.folded) { return gettext("Folded"); }
      var last = state.lastActions[seat.number];
      if (last && last.hand === currentHand.id && last.street === currentHand.street) { return last.text; }
      if (seat.all_in) { return gettext("All-in"); }
      return "";
    }
    if (seat.status === "waiting_big_blind") { return gettext("Waiting for the big blind"); }
    if (seat.status === "posting") { return gettext("Posts a big blind next hand"); }
    return "";
  }

  function drawSeats() {
    var table = tableInfo();
    var count = table.seat_count || seats().length || 6;
    var felt = document.getElementById("felt");
    if (felt) { felt.classList.toggle("crowded", crowded(count)); }  // before the seats are placed: its size follows
    var currentHand = hand();
    var finished = !currentHand ? state.finished : null;
    var anchor = viewer().seat || 1;
    var canSit = authenticated && !playRefused && !viewer().seat && table.kind !== "tournament";
    // Seats are assigned (CASH-04): no "sit here" per seat, one "Seat me at this stake" for the table's stake.
    var seatMe = document.getElementById("seat-me");
    if (seatMe) { seatMe.hidden = !canSit; }
    var fragment = document.createDocumentFragment();
    seats().forEach(function (seat) {
      var index = ((seat.number - anchor) % count + count) % count;
      var position = seatPosition(index, count);
      var wrapper = document.createElement("div");
      wrapper.className = position.bottom ? "seat seat-at-bottom" : position.top ? "seat seat-at-top" : "seat";
      wrapper.setAttribute("data-seat", seat.number);
      wrapper.style.left = position.x + "%";
      wrapper.style.top = position.y + "%";
      var box = document.createElement("div");
      box.className = "seat-box";
      box.setAttribute("role", "group");
      if (!seat.occupied) {
        wrapper.className += " empty";
        box.setAttribute("aria-label", f(gettext("Seat %(number)s, empty"), { number: seat.number }));
        var label = document.createElement("div");
        label.className = "name";
        label.textContent = f(gettext("Seat %(number)s"), { number: seat.number });
        box.appendChild(label);
        wrapper.appendChild(box);
        fragment.appendChild(wrapper);
        return;
      }
      if (seat.is_viewer) { wrapper.className += " me"; }
      if (currentHand && currentHand.acting_seat === seat.number) { wrapper.className += " to-act"; }
      if (currentHand && seat.in_hand && seat.folded) { wrapper.className += " folded"; }
      if (seat.sitting_out) { wrapper.className += " sitting-out"; }

      // Cards above the box.
      var hole = document.createElement("div");
      hole.className = "hole";
      hole.setAttribute("data-hole-seat", seat.number);
      var cards = [];
      var shown = currentHand && currentHand.shown ? currentHand.shown[String(seat.number)] : null;
      if (currentHand && seat.in_hand && !seat.folded) {
        if (seat.is_viewer && viewer().hole_cards && viewer().hole_cards.length) {
          cards = viewer().hole_cards;
        } else if (shown && shown.cards) {
          cards = shown.cards;
        } else {
          for (var i = 0; i < holeCardCount(); i += 1) { cards.push(null); }
        }
      } else if (finished && finished.shown[seat.number]) {
        cards = finished.shown[seat.number];
      } else if (finished && seat.is_viewer && finished.myCards && finished.myCards.length) {
        cards = finished.myCards;
      }
      cards.forEach(function (code) { hole.appendChild(Cards.element(code, true)); });
      if (seat.is_viewer && cards.length && cards[0]) {
        hole.setAttribute("aria-label", f(gettext("Your cards: %(cards)s"), { cards: cards.map(Cards.describe).join(", ") }));
        hole.setAttribute("role", "group");
        hole.id = "my-cards";
      }
      wrapper.appendChild(hole);

      box.setAttribute("aria-label", f(gettext("Seat %(number)s: %(name)s"), { number: seat.number, name: seat.name }));
      var markers = document.createElement("div");
      markers.className = "markers";
      var button = currentHand ? currentHand.button : snapshot().button;
      if (button === seat.number) { markers.appendChild(marker("dealer", "D", gettext("Dealer button"))); }
      if (currentHand && currentHand.small_blind_seat === seat.number) { markers.appendChild(marker("small-blind", "SB", gettext("Small blind"))); }
      if (currentHand && currentHand.big_blind_seat === seat.number) { markers.appendChild(marker("big-blind", "BB", gettext("Big blind"))); }
      box.appendChild(markers);
      var name = document.createElement("div");
      name.className = "name";
      name.textContent = seat.name + (seat.is_viewer ? " (" + gettext("you") + ")" : "");
      box.appendChild(name);
      var stack = document.createElement("div");
      stack.className = "stack";
      stack.setAttribute("data-cents", seat.stack);
      stack.textContent = money(seat.stack);
      stack.setAttribute("aria-label", f(gettext("Stack %(amount)s"), { amount: money(seat.stack) }));
      box.appendChild(stack);
      var status = document.createElement("div");
      status.className = "status";
      status.textContent = statusText(seat, currentHand);
      var lastAction = currentHand && state.lastActions[seat.number];
      if (lastAction && lastAction.hand === currentHand.id && lastAction.street === currentHand.street && !seat.folded) {
        status.setAttribute("data-last-action", lastAction.kind);
      }
      if (finished && finished.won[seat.number]) {
        var won = document.createElement("div");
        won.className = "result";
        won.textContent = f(gettext("Won %(amount)s"), { amount: money(finished.won[seat.number]) });
        box.appendChild(won);
      } else if (finished && finished.handNames[seat.number]) {
        status.textContent = P.handName(finished.handNames[seat.number]);
      }
      box.appendChild(status);
      if (currentHand && currentHand.acting_seat === seat.number) {
        var clock = document.createElement("div");
        clock.className = "clock" + (currentHand.clock === "timebank" ? " timebank" : "");
        clock.setAttribute("data-clock-seat", seat.number);
        clock.appendChild(document.createElement("span"));
        var clockText = document.createElement("div");
        clockText.className = "clock-text";
        clockText.setAttribute("data-clock-text", seat.number);
        box.appendChild(clock);
        box.appendChild(clockText);
      }
      wrapper.appendChild(box);
      fragment.appendChild(wrapper);

      if (currentHand && seat.in_hand && seat.bet) {
        var bet = document.createElement("div");
        bet.className = "seat-bet";
        bet.setAttribute("data-bet-seat", seat.number);
        bet.setAttribute("data-cents", seat.bet);
        bet.textContent = money(seat.bet);
        bet.setAttribute("aria-label", f(gettext("%(name)s bets %(amount)s"), { name: seat.name, amount: money(seat.bet) }));
        fragment.appendChild(bet);
      }
    });
    elements.seats.innerHTML = "";
    elements.seats.appendChild(fragment);
    tickClocks();  // the acting seat's clock line has its text, and the seat its height, before the bets are placed
    keepTheTitleClear();
    placeBets();
  }

  function marker(kind, text, label) {
    var element = document.createElement("span");
    element.className = "marker " + kind;
    element.textContent = text;
    element.title = label;
    element.setAttribute("role", "img");
    element.setAttribute("aria-label", label);
    return element;
  }

  function drawBoard() {
    var currentHand = hand();
    var board = currentHand ? currentHand.board : (state.finished ? state.finished.board : []);
    elements.community.innerHTML = "";
    for (var i = 0; i < 5; i += 1) {
      elements.community.appendChild(Cards.element(board && board[i] ? board[i] : "placeholder"));
    }
    elements.community.setAttribute("aria-label", board && board.length ?
      f(gettext("Community cards: %(cards)s"), { cards: board.map(Cards.describe).join(", ") }) : gettext("No community cards yet"));
    elements.pots.innerHTML = "";
    if (currentHand) {
      var total = document.createElement("span");
      total.className = "pot pot-total";
      total.id = "pot-total";
      total.setAttribute("data-cents", currentHand.pot_total);
      total.textContent = f(gettext("Pot %(amount)s"), { amount: money(currentHand.pot_total) });
      elements.pots.appendChild(total);
      // While nobody is all-in the layered pots are only the uneven bets of the round: show the total alone.
      var pots = currentHand.pots || [];
      var someoneAllIn = seats().some(function (seat) { return seat.in_hand && seat.all_in; });
      if (pots.length > 1 && someoneAllIn) {
        pots.forEach(function (pot, index) {
          var element = document.createElement("span");
          element.className = "pot";
          element.setAttribute("data-pot-index", index);
          element.setAttribute("data-cents", pot.amount);
          // The top layer only one player can win is the part of their bet nobody has called: it is returned to them
          // if nobody calls it (ENG-23), never a side pot.
          var uncalled = index > 0 && index === pots.length - 1 && pot.eligible && pot.eligible.length === 1;
          if (uncalled) {
            element.className = "pot pot-uncalled";
            element.textContent = f(gettext("Uncalled bet %(amount)s (%(name)s)"), { amount: money(pot.amount), name: nameOf(pot.eligible[0]) });
          } else {
            element.textContent = (index === 0 ? gettext("Main pot") : f(gettext("Side pot %(number)s"), { number: index })) +
              " " + money(pot.amount);
          }
          elements.pots.appendChild(element);
        });
      }
      elements.handInfo.textContent = f(gettext("Hand #%(number)s · %(street)s"), { number: currentHand.number, street: streetName(currentHand.street) });
    } else if (state.finished) {
      var finished = state.finished;
      if (finished.settled) {
        // After settlement: what each winner collected (after rake), and the rake, as the ledger moved it.
        Object.keys(finished.won).forEach(function (seat) {
          var element = document.createElement("span");
          element.className = "pot pot-awarded";
          element.setAttribute("data-seat", seat);
          element.setAttribute("data-cents", finished.won[seat]);
          element.textContent = f(gettext("%(name)s wins %(amount)s"), { name: nameIn(finished, seat), amount: money(finished.won[seat]) });
          elements.pots.appendChild(element);
        });
        if (finished.rake) {
          var rake = document.createElement("span");
          rake.className = "pot pot-rake";
          rake.setAttribute("data-cents", finished.rake);
          rake.textContent = f(gettext("Rake %(amount)s"), { amount: money(finished.rake) });
          elements.pots.appendChild(rake);
        }
      } else {
        finished.awards.forEach(function (award) {
          var element = document.createElement("span");
          element.className = "pot pot-awarded";
          element.setAttribute("data-cents", award.amount);
          element.textContent = awardText(award);
          elements.pots.appendChild(element);
        });
      }
      elements.handInfo.textContent = state.finished.cancelled ? gettext("The hand was cancelled and every bet returned.") +
        " " + waitingText() : gettext("Hand over.") + " " + waitingText();
    } else {
      elements.handInfo.textContent = waitingText();
    }
    var waiting = !currentHand && snapshot().waiting;
    elements.handInfo.setAttribute("data-waiting", waiting ? waiting.reason : "");
    renderOtherTables(waiting);
    placeBets();  // the pots have changed: the bets keep clear of them
  }

  /* While this table waits for players (CASH-06), the other open tables of its game and stake with a free seat, as
     links: nobody has to sit and wait here (issue 28). */
  function renderOtherTables(waiting) {
    var area = elements.otherTables;
    if (!area) { return; }
    var tables = waiting && waiting.other_tables ? waiting.other_tables : [];
    var key = JSON.stringify(tables);
    if (area.getAttribute("data-tables") === key) { return; }
    area.setAttribute("data-tables", key);
    area.innerHTML = "";
    area.hidden = !tables.length;
    if (!tables.length) { return; }
    var intro = document.createElement("span");
    intro.textContent = f(gettext("Play now at another %(stake)s table:"), { stake: (tableInfo().game_name || "") + " " + (tableInfo().stake || "") }) + " ";
    area.appendChild(intro);
    tables.forEach(function (other, index) {
      if (index) { area.appendChild(document.createTextNode(", ")); }
      var link = document.createElement("a");
      link.href = other.url;
      link.setAttribute("data-table-id", other.id);
      link.textContent = f(gettext("%(name)s (%(players)s of %(seats)s seats taken)"), { name: other.name, players: other.players, seats: other.seats });
      area.appendChild(link);
    });
  }

  /* Why no hand is dealt now, from the snapshot's waiting reason (games.runtime.views.waiting_reason). */
  function waitingText() {
    var waiting = snapshot().waiting;
    if (tableInfo().status === "closed") { return gettext("This table is closed."); }
    if (tableInfo().closing) { return gettext("This table closes now; no new hand is dealt."); }
    if (!waiting) { return gettext("Waiting for the next hand."); }
    if (waiting.reason === "starting") { return gettext("The next hand starts shortly."); }
    if (waiting.reason === "third_player") {
      return gettext("Waiting for a third player: after a hand between two players, the next hand needs three. It starts when another player sits down or a player who sits out comes back.");
    }
    // CASH-06 in plain words: how many are here and ready, and how many more the first hand needs.
    return f(gettext("Waiting for players: %(available)s ready to play here, %(count)s more needed to start a hand."),
      { available: waiting.available, count: waiting.needed });
  }

  function streetName(street) {
    return { preflop: gettext("Pre-flop"), flop: gettext("Flop"), turn: gettext("Turn"), river: gettext("River"), showdown: gettext("Showdown") }[street] || street || "";
  }

  function awardText(award, record) {
    var winners = award.shares.map(function (share) { return nameIn(record, share[0]) + " " + money(share[1]); }).join(", ");
    var pot = award.potIndex === 0 ? gettext("Main pot") : f(gettext("Side pot %(number)s"), { number: award.potIndex });
    return pot + ": " + winners + (award.handName ? " (" + P.handName(award.handName) + ")" : "");
  }

  // --- The player's actions ------------------------------------------------------------------------------

  function legal() {
    var currentHand = hand();
    var actions = viewer().legal_actions;
    if (!currentHand || !actions || currentHand.acting_seat !== viewer().seat || actions.forced) { return null; }
    return actions;
  }

  function betRange(actions) { return actions.raise_range || actions.bet_range || null; }

  function potSizedTo(fraction) {
    var currentHand = hand();
    var me = mySeat();
    var myBet = me && me.bet ? me.bet : 0;
    var toCall = Math.max(0, (currentHand.current_bet || 0) - myBet);
    var potAfterCall = (currentHand.pot_total || 0) + toCall;
    return (currentHand.current_bet || 0) + Math.floor(potAfterCall * fraction);
  }

  var POT_FRACTIONS = { third: 1 / 3, half: 0.5, three_quarters: 0.75, pot: 1 };

  /* The amount a preset button stands for now ("raise to" / "bet" total), clamped to the legal range. */
  function presetAmount(button, range) {
    var preset = button.getAttribute("data-preset");
    if (preset === "min") { return range[0]; }
    if (preset === "max") { return range[1]; }
    if (preset === "bb") {
      return clampToRange(Math.round(Number(button.getAttribute("data-multiple")) * (tableInfo().big_blind || 0)), range);
    }
    return clampToRange(potSizedTo(POT_FRACTIONS[preset] || 1), range);
  }

  function clampToRange(value, range) { return Math.max(range[0], Math.min(range[1], value)); }

  function chosenAmount() {
    return parseAmount(elements.betAmount ? elements.betAmount.value : "");
  }

  /* The box, the slider and the Bet / Raise button label always change together. */
  function setAmount(amount) {
    elements.betAmount.value = amountToInput(amount);
    elements.betSlider.value = String(amount);
    state.validAmount = amount;
    updateBetLabels();
  }

  /* A typed amount moves the slider only when it is one the server would take; otherwise the slider stays at (or goes
     back to) the last valid amount, never at its end because the box holds something out of range, and the line under
     the box says why the amount is refused. */
  function followTypedAmount() {
    var actions = legal();
    var range = actions && betRange(actions);
    var cents = chosenAmount();
    if (range && cents !== null && cents >= range[0] && cents <= range[1]) {
      state.validAmount = cents;
      elements.betSlider.value = String(cents);
    } else if (state.validAmount !== null && state.validAmount !== undefined) {
      elements.betSlider.value = String(range ? clampToRange(state.validAmount, range) : state.validAmount);
    }
  }

  /* The Bet / Raise button names the amount only while the server would take it (inside the bet / raise range:
     ENG-15 minimum, the stack or ENG-17's pot limit at most): an amount typed outside it is marked invalid, the button
     shows no amount and the line under the box says what is allowed. (act() refuses to send it as well.) */
  function updateBetLabels() {
    var actions = legal();
    if (!actions) { return; }
    var range = betRange(actions);
    var cents = chosenAmount();
    var invalid = cents === null || !range || cents < range[0] || cents > range[1];
    var shown = invalid ? "" : " " + money(cents);
    var betButton = elements.buttons.querySelector("[data-act=bet]");
    var raiseButton = elements.buttons.querySelector("[data-act=raise]");
    betButton.textContent = gettext("Bet") + shown;
    raiseButton.textContent = gettext("Raise to") + shown;
    betButton.setAttribute("data-amount", invalid ? "" : String(cents));
    raiseButton.setAttribute("data-amount", invalid ? "" : String(cents));
    elements.betAmount.setAttribute("aria-invalid", invalid ? "true" : "false");
    if (range && elements.betLimits) {
      var bounds = { minimum: money(range[0]), maximum: money(range[1]), amount: cents === null ? "" : money(cents) };
      var limits = !invalid ? f(gettext("Minimum %(minimum)s, maximum %(maximum)s."), bounds) :
        cents === null && String(elements.betAmount.value).trim() ?
          f(gettext("That is not an amount: enter one from %(minimum)s to %(maximum)s."), bounds) :
        cents === null ? f(gettext("Enter an amount from %(minimum)s to %(maximum)s."), bounds) :
        cents < range[0] ? f(gettext("%(amount)s is below the minimum of %(minimum)s (maximum %(maximum)s)."), bounds) :
        f(gettext("%(amount)s is above the maximum of %(maximum)s (minimum %(minimum)s)."), bounds);
      if (elements.betLimits.textContent !== limits) { elements.betLimits.textContent = limits; }
      elements.betLimits.classList.toggle("error", invalid);
    }
  }

  function setPrompt(text) {
    if (elements.prompt.textContent !== text) { elements.prompt.textContent = text; }
  }

  /* The action bar stays at the bottom of the screen (sticky); on a short screen (a phone) it would cover the
     player's own seat and cards at the bottom of the felt. When a decision starts, the page scrolls just enough to
     bring the seat above the bar, never past the seat's top. */
  function keepMySeatInSight() {
    var mine = document.querySelector("#seats .seat.me");
    if (!mine || !elements.actionBar) { return; }
    var seatBox = mine.getBoundingClientRect();
    var bar = elements.actionBar.getBoundingClientRect();
    var hidden = seatBox.bottom - bar.top + 6;
    if (hidden > 0) { window.scrollBy(0, Math.min(hidden, Math.max(0, seatBox.top - 6))); }
  }

  /* One key per decision of the player: the hand, the street and the number of actions taken so far. Snapshots and
     your_turn messages about the same decision have the same key, so the amount box is set up once per decision and
     never reset under the player's hand while they choose. */
  function decisionKey(currentHand) {
    return currentHand.id + ":" + currentHand.street + ":" + (state.turnCounter || 0);
  }

  /* Show exactly the legal actions. Buttons are shown and hidden individually (never all hidden and re-shown) and
     never disabled, so keyboard focus stays on the button the player is on while the table redraws. */
  function drawActions() {
    if (!elements.actionBar) { return; }
    var actions = legal();
    var currentHand = hand();
    var me = mySeat();
    var wanted = {};
    drawMadeHand();
    drawAdvance(actions);
    if (actions) {
      var kinds = actions.kinds || [];
      if (kinds.indexOf("fold") !== -1) { wanted.fold = gettext("Fold"); }
      if (kinds.indexOf("check") !== -1) { wanted.check = gettext("Check"); }
      if (kinds.indexOf("call") !== -1 && actions.call_amount !== null) {
        wanted.call = f(gettext("Call %(amount)s"), { amount: money(actions.call_amount) });
      }
      if (betRange(actions)) {
        wanted[actions.raise_range ? "raise" : "bet"] = null;  // labelled with the chosen amount below
      } else if (actions.all_in_amount !== null && actions.all_in_amount !== undefined) {
        wanted.all_in = f(gettext("All-in %(amount)s"), { amount: money(actions.all_in_amount) });
      }
    }
    elements.buttons.querySelectorAll("[data-act]").forEach(function (button) {
      var act = button.getAttribute("data-act");
      var show = Object.prototype.hasOwnProperty.call(wanted, act);
      if (button.hidden === show) { button.hidden = !show; }
      if (show && wanted[act] && button.textContent !== wanted[act]) { button.textContent = wanted[act]; }
      button.setAttribute("aria-disabled", state.pending ? "true" : "false");
    });
    var range = actions ? betRange(actions) : null;
    if (elements.betControl.hidden === !!range) { elements.betControl.hidden = !range; }
    if (!actions) {
      if (!me) {
        setPrompt(authenticated && tableInfo().kind !== "tournament" ? gettext("“Seat me at this stake” seats you at a table of this stake.") : "");
      } else if (currentHand && currentHand.acting_seat) {
        setPrompt(currentHand.acting_seat === me.number ? gettext("Your turn…") :
          f(gettext("Waiting for %(name)s to act."), { name: nameOf(currentHand.acting_seat) }));
      } else if (me.sitting_out) {
        setPrompt(gettext("You are sitting out. Untick “Sit out” to play the next hand."));
      } else if (!currentHand) {
        setPrompt(waitingText());
      } else {
        setPrompt(gettext("Waiting for the next hand."));
      }
      state.lastTurnKey = null;
      return;
    }
    var turnKey = decisionKey(currentHand);
    var newTurn = state.lastTurnKey !== turnKey;
    if (newTurn) {
      clearActionErrors();
      if (state.advanceNote) { P.notify(elements.actionNotices, state.advanceNote, "info"); }
      state.advanceNote = null;
      setTimeout(keepMySeatInSight, 0);  // once the bar has its buttons and amount box (it grows as they appear)
    }
    if (range) {
      elements.betSlider.min = String(range[0]);
      elements.betSlider.max = String(range[1]);
      var unit = chipTable() ? 1 : (tableInfo().small_blind || 1);
      elements.betSlider.step = String(Math.max(1, Math.min(unit, range[1] - range[0] || 1)));
      elements.betAmount.min = amountToInput(range[0]);
      elements.betAmount.max = amountToInput(range[1]);
      elements.betAmount.step = chipTable() ? "1" : "0.01";
      if (elements.betLabel) {
        var label = chipTable() ? gettext("Amount (chips)") : gettext("Amount (€)");
        if (elements.betLabel.textContent !== label) { elements.betLabel.textContent = label; }
      }
      elements.betControl.querySelectorAll("[data-preset=bb]").forEach(function (button) {
        button.hidden = currentHand.street !== "preflop";
      });
      // A new decision starts at the minimum; redraws during the same decision keep what the player chose.
      if (state.amountKey !== turnKey) {
        state.amountKey = turnKey;
        state.amountChosen = false;
        setAmount(range[0]);
      } else if (!state.amountChosen && document.activeElement !== elements.betAmount) {
        setAmount(range[0]);
      } else {
        updateBetLabels();
      }
    }
    setPrompt(actions.call_amount ?
      f(gettext("Your turn: %(amount)s to call."), { amount: money(actions.call_amount) }) : gettext("Your turn."));
    if (newTurn) {
      state.lastTurnKey = turnKey;
      playSound("turn");
      if (!playAdvance(actions, currentHand)) { focusActions(); }
    }
  }

  function focusActions() {
    var active = document.activeElement;
    var busy = active && active !== document.body && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName) &&
      !elements.actionBar.contains(active);
    if (busy || document.querySelector("dialog[open]")) { return; }
    var first = elements.buttons.querySelector("[data-act=check]:not([hidden]), [data-act=call]:not([hidden])") ||
      elements.buttons.querySelector("[data-act]:not([hidden])");
    if (first) { first.focus({ preventScroll: true }); }
  }

  /* The player's best hand with the board so far (from the flop on), next to the action buttons. */
  function drawMadeHand() {
    if (!elements.madeHand) { return; }
    var me = mySeat();
    var name = hand() && me && me.in_hand && !me.folded ? viewer().made_hand : null;
    var text = name ? f(gettext("Your hand: %(hand)s"), { hand: P.handName(name) }) : "";
    if (elements.madeHand.textContent !== text) { elements.madeHand.textContent = text; }
    elements.madeHand.hidden = !text;
  }

  // --- Acting in advance -----------------------------------------------------------------------------------

  /* The highest bet of the betting round as drawn now (what a pre-selected "check" was chosen against). */
  function highestBet() {
    var currentHand = hand();
    return seats().reduce(function (most, seat) {
      return seat.in_hand && seat.bet > most ? seat.bet : most;
    }, currentHand ? currentHand.current_bet || 0 : 0);
  }

  function mayActInAdvance() {
    var currentHand = hand();
    var me = mySeat();
    return !!(currentHand && me && me.in_hand && !me.folded && !me.all_in && !me.sitting_out &&
      currentHand.acting_seat !== me.number && currentHand.street !== "showdown");
  }

  /* A pre-selection holds only for the situation it was made in: the same hand and betting round, and for "check"
     the same highest bet (a bet or raise after it was ticked cancels it). */
  function advanceStillHolds(choice) {
    var currentHand = hand();
    var me = mySeat();
    if (!choice || !currentHand || !me || me.folded || currentHand.id !== choice.hand || currentHand.street !== choice.street) {
      return false;
    }
    return choice.choice !== "check" || highestBet() === choice.highest;
  }

  /* The reason stays next to the buttons until the player's turn has come and gone (the turn's start shows it again
     after clearing the previous turn's errors). */
  function cancelAdvance(reason) {
    var choice = state.advance;
    state.advance = null;
    if (choice && reason) {
      state.advanceNote = reason;
      P.clearNotices(elements.actionNotices);
      P.notify(elements.actionNotices || elements.notices, reason, "info");
    }
  }

  function drawAdvance(actions) {
    if (!elements.advance) { return; }
    if (state.advance && !actions && !advanceStillHolds(state.advance)) {
      var sameRound = hand() && state.advance.hand === hand().id && state.advance.street === hand().street;
      cancelAdvance(sameRound && state.advance.choice === "check" ?
        gettext("A bet was made: your pre-selected “Check” was cancelled.") : null);
    }
    var show = !actions && mayActInAdvance();
    elements.advance.hidden = !show;
    if (!show) { return; }
    var me = mySeat();
    var facing = highestBet() > (me.bet || 0);
    var toCall = Math.min(highestBet() - (me.bet || 0), me.stack || 0);
    elements.advance.querySelectorAll("[data-advance]").forEach(function (input) {
      var choice = input.getAttribute("data-advance");
      var label = input.parentElement.querySelector("span");
      if (choice === "check") { input.parentElement.hidden = facing; }
      if (choice === "call_any" && label) {
        var text = facing ? f(gettext("Call any (now %(amount)s)"), { amount: money(toCall) }) : gettext("Call any");
        if (label.textContent !== text) { label.textContent = text; }
      }
      input.checked = !!state.advance && state.advance.choice === choice;
    });
  }

  /* When the player's turn comes with an action chosen in advance, it is sent at once, decided on the legal actions
     the server sent for this turn: check/fold checks when checking is legal and folds otherwise; check only checks;
     call any checks or calls (a call carries no amount, so nothing stale can be sent). Returns whether it acted. */
  function playAdvance(actions, currentHand) {
    var choice = state.advance;
    state.advance = null;
    if (!choice || choice.hand !== currentHand.id || choice.street !== currentHand.street) { return false; }
    var kinds = actions.kinds || [];
    var can = function (kind) { return kinds.indexOf(kind) !== -1; };
    var kind = null;
    if (choice.choice === "check_fold") { kind = can("check") ? "check" : can("fold") ? "fold" : null; }
    if (choice.choice === "check") {
      kind = can("check") ? "check" : null;
      if (!kind) { actionError(gettext("A bet was made: your pre-selected “Check” was cancelled.")); }
    }
    if (choice.choice === "call_any") {
      kind = can("check") ? "check" : can("call") ? "call" : null;
      if (!kind) { actionError(gettext("“Call any” was cancelled: a call would take more than your stack. Please choose.")); }
    }
    if (!kind) { return false; }
    logLine(f(gettext("You act as chosen in advance: %(action)s."), { action: { check: gettext("Check"), fold: gettext("Fold"), call: gettext("Call") }[kind] }));
    act(kind);
    return true;
  }

  if (elements.advance) {
    elements.advance.addEventListener("change", function (event) {
      var input = event.target.closest("[data-advance]");
      if (!input) { return; }
      var currentHand = hand();
      if (input.checked && currentHand && mayActInAdvance()) {
        state.advance = { choice: input.getAttribute("data-advance"), hand: currentHand.id, street: currentHand.street,
          highest: highestBet() };
      } else {
        state.advance = null;
      }
      drawAdvance(legal());
    });
  }

  // --- Sounds --------------------------------------------------------------------------------------------------

  /* Two short tones, off by default; the player's choice is remembered in this browser. */
  var SOUND_KEY = "poker.table.sounds";
  var audioContext = null;
  function soundsOn() {
    try { return window.localStorage.getItem(SOUND_KEY) === "on"; } catch (ignored) { return false; }
  }
  function playSound(kind) {
    if (!soundsOn()) { return; }
    app.setAttribute("data-last-sound", kind);
    try {
      audioContext = audioContext || new (window.AudioContext || window.webkitAudioContext)();
      var oscillator = audioContext.createOscillator();
      var gain = audioContext.createGain();
      oscillator.frequency.value = kind === "clock" ? 440 : 880;
      gain.gain.value = 0.08;
      oscillator.connect(gain);
      gain.connect(audioContext.destination);
      oscillator.start();
      oscillator.stop(audioContext.currentTime + (kind === "clock" ? 0.35 : 0.15));
    } catch (ignored) { /* no audio in this browser: the visual cues remain */ }
  }
  if (elements.sound) {
    elements.sound.checked = soundsOn();
    elements.sound.addEventListener("change", function () {
      try { window.localStorage.setItem(SOUND_KEY, elements.sound.checked ? "on" : "off"); } catch (ignored) { /* private mode */ }
    });
  }

  var ACTION_ANSWER_MILLISECONDS = 30000;

  function act(kind) {
    var actions = legal();
    var pressed = state.pressedAmount;
    state.pressedAmount = null;
    if (!actions || state.pending) { return; }
    var message = { type: "act", action: kind, hand_id: hand().id };
    if (kind === "bet" || kind === "raise") {
      var range = betRange(actions);
      var cents = chosenAmount();
      if (cents === null) {
        actionError(amountHint());
        elements.betAmount.focus();
        return;
      }
      if (pressed !== null && pressed !== cents) {
        // The amount changed between pressing and releasing the button: send nothing the player did not see.
        actionError(f(gettext("The amount changed to %(amount)s while you pressed. Check it and press again."), { amount: money(cents) }));
        return;
      }
      if (cents < range[0] || cents > range[1]) {
        actionError(f(gettext("The amount must be between %(minimum)s and %(maximum)s."), { minimum: money(range[0]), maximum: money(range[1]) }));
        elements.betAmount.focus();
        return;
      }
      message.amount = cents;
    }
    send(message, true).then(function () { /* the events that follow redraw the table */ });
  }

  /* Send a command; show the server's refusal in plain words (next to the action buttons for the player's own
     actions). Resolves with the ok message, or null if refused. */
  function send(message, isAction) {
    state.pending = true;
    drawActions();
    var sequenceBefore = state.sequence;
    // A busy server may take a while to answer an action; the player's clock is the server's to run, so the page waits
    // for the answer longer than for other requests rather than report a failure for an action that is still applied.
    return socket.request(message, isAction ? ACTION_ANSWER_MILLISECONDS : undefined).then(function (ok) {
      state.pending = false;
      clearErrors();  // the command worked: an earlier refusal no longer applies
      drawActions();
      watchForProgress(sequenceBefore);
      return ok;
    }, function (error) {
      state.pending = false;
      if (error.to_table) {  // the table closed after moving the player: no use asking it again
        goToTheTablePlayedAtNow(error.to_table, errorFrom(error));
        drawActions();
        return null;
      }
      if (isAction) { actionError(errorFrom(error)); } else { notify(errorFrom(error)); }
      drawActions();
      requestSnapshot();
      return null;
    });
  }

  /* After an accepted command the table's log moves on; if nothing arrives (a message lost on the way), read the
     table again, and if even that goes unanswered, reconnect. */
  function watchForProgress(sequenceBefore) {
    setTimeout(function () {
      if (state.sequence !== sequenceBefore || !socket.isOpen()) { return; }
      socket.request({ type: "snapshot" }, 5000).catch(function () { socket.reconnectNow(); });
    }, 2500);
  }

  /* The last message of a burst can be lost on the way (no later event then reveals the gap), so the page asks
     now and then for anything after its last sequence: every few seconds while a hand is in play, rarely between
     hands. The answer is usually an empty list. A clock that ran out long ago asks for the table as it is. */
  var lastCheck = Date.now();
  setInterval(function () {
    if (!socket.isOpen() || state.resyncing || document.visibilityState === "hidden") { return; }
    var currentHand = hand();
    if (currentHand && currentHand.action_deadline && serverNow() - Date.parse(currentHand.action_deadline) > 5000) {
      socket.send({ type: "snapshot" });
      lastCheck = Date.now();
      return;
    }
    if (Date.now() - lastCheck < (currentHand ? 4000 : 20000)) { return; }
    lastCheck = Date.now();
    resync();
  }, 1000);

  // --- Seat controls -------------------------------------------------------------------------------------

  function tournamentTable() { return tableInfo().kind === "tournament"; }

  function drawSeatControls() {
    if (!elements.seatControls) { return; }
    var me = mySeat();
    elements.seatControls.hidden = !me;
    if (!me) { return; }
    // A tournament seats its players and keeps their chips in play: no leaving, top-up or cash-game settings (TRN-19).
    app.querySelectorAll("[data-cash-only]").forEach(function (node) { node.hidden = tournamentTable(); });
    if (me.sitting_out) { state.sitOutPending = false; }
    // A toggle whose request is on its way keeps what the player just chose (a redraw in between must not undo it).
    if (!state.sitOutSending) { elements.sitOut.checked = !!me.sitting_out || !!state.sitOutPending; }
    if (!state.nextBigBlindSending) { elements.sitOutNextBigBlind.checked = !!viewer().sit_out_next_big_blind; }
    elements.sitInPost.hidden = !(me.sitting_out || me.status === "waiting_big_blind");
    // "I'm back" only for a player sitting out, who comes back with it; a new player waiting for the big blind (or one
    // already back) just posts one now.
    var postLabel = me.sitting_out ? gettext("I'm back: post a big blind now") : gettext("Post a big blind now");
    if (elements.sitInPost.textContent !== postLabel) { elements.sitInPost.textContent = postLabel; }
    if (me.sit_out_deadline) {
      var deadline = new Date(me.sit_out_deadline);
      elements.sitOutInfo.textContent = f(gettext("You will be removed from the table at %(time)s unless you come back."),
        { time: deadline.toLocaleTimeString(document.documentElement.lang) });
    } else if (state.sitOutPending) {
      elements.sitOutInfo.textContent = gettext("You will sit out when this hand ends.");
    } else if (me.leaving_after_hand) {
      elements.sitOutInfo.textContent = gettext("You will leave the table when this hand ends.");
    } else if (me.status === "waiting_big_blind") {
      elements.sitOutInfo.textContent = gettext("You will be dealt in when the big blind reaches you, or post a big blind now.");
    } else {
      elements.sitOutInfo.textContent = "";
    }
  }

  if (elements.seatControls) {
    elements.sitOut.addEventListener("change", function () {
      var wanted = elements.sitOut.checked;
      state.sitOutSending = true;
      send(wanted ? { type: "sit_out" } : { type: "sit_in" }).then(function (ok) {
        state.sitOutSending = false;
        if (ok) { state.sitOutPending = wanted; drawSeatControls(); }
        if (!ok) { elements.sitOut.checked = !wanted; }
        else { P.notify(elements.notices, wanted ? gettext("You are sitting out from the next hand.") : gettext("You are back in the game."), "ok"); }
      });
    });
    elements.sitOutNextBigBlind.addEventListener("change", function () {
      var wanted = elements.sitOutNextBigBlind.checked;
      state.nextBigBlindSending = true;
      send({ type: "sit_out_next_big_blind", enabled: wanted }).then(function (ok) {
        state.nextBigBlindSending = false;
        if (ok && state.snapshot && state.snapshot.viewer) { state.snapshot.viewer.sit_out_next_big_blind = wanted; }
        if (!ok) { elements.sitOutNextBigBlind.checked = !wanted; }
      });
    });
    elements.autoTopUp.addEventListener("change", function () {
      var wanted = elements.autoTopUp.checked;
      send({ type: "auto_top_up", enabled: wanted }).then(function (ok) {
        if (!ok) { elements.autoTopUp.checked = !wanted; }
        else { P.notify(elements.notices, wanted ? gettext("Auto top-up is on: your stack is topped up to your first buy-in after every hand.") : gettext("Auto top-up is off."), "ok"); }
      });
    });
    elements.sitInPost.addEventListener("click", function () {
      send({ type: "sit_in", post_big_blind: true }).then(function (ok) {
        if (ok) { P.notify(elements.notices, gettext("You will post a big blind and be dealt into the next hand."), "ok"); }
      });
    });
    elements.leave.addEventListener("click", function () {
      var me = mySeat();
      // The server folds a player who leaves during a hand at their turn, even when checking is free (CASH-08): say so
      // before they confirm.
      var question = me && me.in_hand && !me.folded && hand() ?
        gettext("Leaving now folds your hand, even if you could check. Leave the table? Your chips go back to your balance when this hand ends.") :
        gettext("Leave the table? Your chips go back to your balance.");
      if (!window.confirm(question)) { return; }
      send({ type: "leave" }).then(function (ok) {
        if (!ok) { return; }
        P.notify(elements.notices, gettext("You are leaving the table. Your chips go back to your balance."), "ok");
        setTimeout(P.refreshHeaderBalance, 800);
      });
    });
    elements.topUp.addEventListener("click", openTopUp);
  }

  var topUpDialog = document.getElementById("top-up-dialog");
  var topUpRoom = null;
  var topUpEdited = false;  // the player typed in (or cleared) the amount: it is theirs, never refilled under them

  /* How much the player may add now: the table maximum less the stack they have now (in a hand: what they have
     behind, the chips being added when the hand ends, CASH-15). */
  function topUpRoomNow() {
    var me = mySeat();
    if (!me) { return 0; }
    return Math.max(0, (tableInfo().max_buy_in || 0) - (me.stack || 0));
  }

  /* The dialog's limits line, kept live while it is open: the stack moves with every bet and hand (issue 28). */
  function showTopUpLimits() {
    if (!topUpDialog || !topUpDialog.open) { return; }
    var room = topUpRoomNow();
    var me = mySeat();
    var inHand = !!(me && me.in_hand && hand());
    var text = room > 0 ?
      f(gettext("You can add up to %(amount)s now (table maximum %(maximum)s)."),
        { amount: money(room), maximum: money(tableInfo().max_buy_in) }) :
      gettext("Your stack is at the table maximum.");
    text += " " + (inHand ? gettext("You are in a hand: the chips are added when it ends, up to the table maximum then.") :
      gettext("Chips are added between hands."));
    var limitsLine = document.getElementById("top-up-limits");
    limitsLine.textContent = text;
    limitsLine.setAttribute("data-room", String(room));
    var input = document.getElementById("top-up-amount");
    // The suggested amount follows the maximum until the player types their own (a field they cleared stays empty:
    // an empty field is an error on submit, never the table maximum).
    if (!topUpEdited && (input.value === "" || (topUpRoom !== null && input.value === amountToInput(topUpRoom)))) {
      input.value = room > 0 ? amountToInput(room) : "";
    }
    topUpRoom = room;
  }

  /* A top-up asked for during a hand, shown to its player until the hand ends and it is added (CASH-15). */
  function showTopUpPending() {
    var area = document.getElementById("top-up-pending");
    if (!area) { return; }
    var me = mySeat();
    var pending = me && me.top_up_after_hand ? me.top_up_after_hand : 0;
    area.hidden = !pending;
    area.textContent = pending ? f(gettext("Top-up of %(amount)s pending: it is added when this hand ends."), { amount: money(pending) }) : "";
  }

  function openTopUp() {
    var me = mySeat();
    if (!me || !topUpDialog) { return; }
    var notices = document.getElementById("top-up-notices");
    P.clearNotices(notices);
    var input = document.getElementById("top-up-amount");
    input.value = "";
    input.removeAttribute("aria-invalid");
    topUpRoom = null;
    topUpEdited = false;
    topUpDialog.showModal();
    showTopUpLimits();
    document.getElementById("top-up-amount").focus();
  }
  if (topUpDialog) {
    document.getElementById("top-up-cancel").addEventListener("click", function () { topUpDialog.close(); });
    document.getElementById("top-up-amount").addEventListener("input", function () {
      topUpEdited = true;
      this.removeAttribute("aria-invalid");
    });
    document.getElementById("top-up-form").addEventListener("submit", function (event) {
      event.preventDefault();
      var notices = document.getElementById("top-up-notices");
      P.clearNotices(notices);
      var input = document.getElementById("top-up-amount");
      // An empty field sends nothing: the player says how much (CASH-15), the page never picks the maximum for them.
      if (String(input.value).trim() === "") {
        input.setAttribute("aria-invalid", "true");
        P.notify(notices, gettext("Enter an amount."), "error");
        input.focus();
        return;
      }
      var cents = parseAmount(input.value);
      if (cents === null || cents <= 0) {
        input.setAttribute("aria-invalid", "true");
        P.notify(notices, gettext("Please enter an amount in euros, for example 5 or 5.50."), "error");
        input.focus();
        return;
      }
      var button = document.getElementById("top-up-confirm");
      button.disabled = true;
      var me = mySeat();
      var duringHand = !!(me && me.in_hand && hand());
      socket.request({ type: "top_up", amount: cents }).then(function () {
        button.disabled = false;
        topUpDialog.close();
        P.notify(elements.notices, duringHand ?
          f(gettext("%(amount)s will be added to your stack when this hand ends."), { amount: money(cents) }) :
          f(gettext("%(amount)s will be added to your stack."), { amount: money(cents) }), "ok");
        setTimeout(P.refreshHeaderBalance, 800);
      }, function (error) {
        button.disabled = false;
        P.notify(notices, errorFrom(error), "error");
      });
    });
  }

  /* Play this table's stake (CASH-04/05): the stake queue seats the player here, at another table of the stake (the
     page goes there) or queues them, saying why. */
  function openSeatMe() {
    var table = tableInfo();
    var balanceElement = document.getElementById("header-balance");
    window.BuyIn.open({
      title: f(gettext("Play %(stake)s (%(blinds)s)"), { stake: table.game_name + " " + table.stake,
        blinds: money(table.small_blind) + " / " + money(table.big_blind) }),
      minimum: table.min_buy_in,
      maximum: table.max_buy_in,
      balance: balanceElement ? Number(balanceElement.getAttribute("data-cents")) : undefined,
      limitsUrl: app.getAttribute("data-buy-in-url"),
      submit: function (cents, postBigBlind, banzaiChoice) {
        var body = { type: "seat_me", buy_in: cents, post_big_blind: postBigBlind };
        if (banzaiChoice) { body.banzai_choice = banzaiChoice; }
        return socket.request(body).then(function (answer) {
          showSeating(answer);
          if (answer.status === "failed") {
            var error = new Error(answer.message);
            error.text = f(gettext("You could not be seated: %(reason)s"), { reason: answer.message });
            throw error;
          }
        });
      }
    });
  }

  function showSeating(answer) {
    var box = document.getElementById("seat-me-status");
    if (answer.status === "seated" && answer.table_id && String(answer.table_id) !== String(tableId)) {
      window.location.href = app.getAttribute("data-table-url-zero").replace(/0\/$/, answer.table_id + "/");
      return;
    }
    if (answer.status === "seated") {
      if (box) { box.hidden = true; }
      P.notify(elements.notices, gettext("You are seated. Good luck!"), "ok");
      requestSnapshot();
      setTimeout(P.refreshHeaderBalance, 300);
      return;
    }
    if (answer.status === "waiting" && box) {
      box.hidden = false;
      box.textContent = f(gettext("You are on the waiting list for %(stake)s (number %(position)s). You will be seated as soon as a table can take you; keep this page open."),
        { stake: tableInfo().game_name + " " + tableInfo().stake, position: answer.position || "…" }) +
        (answer.message ? " " + answer.message : "");
      setTimeout(function () { followQueue(answer.stake_id); }, 3000);
    }
  }

  var seatMeButton = document.getElementById("seat-me");
  if (seatMeButton) { seatMeButton.addEventListener("click", openSeatMe); }

  /* While queued, ask where the player stands until seated (here or at another table) or out of the queue. */
  function followQueue(stakeId) {
    var url = app.getAttribute("data-queue-url").replace(/0\/$/, stakeId + "/");
    P.api(url).then(function (answer) {
      if (answer.status === "waiting" || answer.status === "seated") { showSeating(answer); return; }
      var box = document.getElementById("seat-me-status");
      if (box) { box.hidden = true; }
      if (answer.status === "failed") {
        notify(f(gettext("You could not be seated: %(reason)s"), { reason: answer.message }));
      }
    }, function () { setTimeout(function () { followQueue(stakeId); }, 6000); });
  }

  // --- Clocks --------------------------------------------------------------------------------------------

  function tickClocks() {
    var currentHand = hand();
    if (!currentHand || !currentHand.acting_seat || !currentHand.action_deadline) {
      if (elements.myClock) { elements.myClock.hidden = true; }
      return;
    }
    var deadline = Date.parse(currentHand.action_deadline);
    var remaining = Math.max(0, deadline - serverNow());
    var key = currentHand.acting_seat + ":" + currentHand.action_deadline;
    if (!state.clockBase[key]) { state.clockBase[key] = Math.max(remaining, 1000); }
    var fraction = Math.max(0, Math.min(1, remaining / state.clockBase[key]));
    var seconds = Math.ceil(remaining / 1000);
    var actingSeat = seatByNumber(currentHand.acting_seat);
    // The reconnection grace (CASH-22, TB-07) says "reconnecting" only while the player is away: back with no timebank
    // left, they play on in what is left of the grace (the server keeps that clock), and nobody is reconnecting.
    var away = !!(actingSeat && actingSeat.disconnected);
    var phase = currentHand.clock === "timebank" ? gettext("timebank") : currentHand.clock === "reconnect" && away ? gettext("reconnecting") : "";
    var text = f(gettext("%(seconds)s s"), { seconds: seconds }) + (phase ? " · " + phase : "");
    if (currentHand.clock !== "timebank" && actingSeat && actingSeat.timebank_seconds) {
      text += " · " + f(gettext("timebank %(seconds)s s"), { seconds: Math.round(actingSeat.timebank_seconds) });
    }
    var bar = elements.seats.querySelector("[data-clock-seat='" + currentHand.acting_seat + "'] span");
    if (bar) { bar.style.transform = "scaleX(" + fraction.toFixed(3) + ")"; }
    var label = elements.seats.querySelector("[data-clock-text='" + currentHand.acting_seat + "']");
    if (label && label.textContent !== text) {
      var lines = label.offsetHeight;
      label.textContent = text;
      if (label.offsetHeight !== lines) { keepTheTitleClear(); placeBets(); }  // the seat grew or shrank
    }
    if (elements.myClock) {
      var mine = viewer().seat && currentHand.acting_seat === viewer().seat;
      elements.myClock.hidden = !mine;
      if (mine) {
        elements.myClockBar.className = "clock" + (currentHand.clock === "timebank" ? " timebank" : "");
        elements.myClockBar.firstElementChild.style.transform = "scaleX(" + fraction.toFixed(3) + ")";
        elements.myClockText.textContent = f(gettext("Time left: %(text)s"), { text: text });
        if (seconds <= 5 && remaining > 0 && state.clockWarned !== key && legal()) {
          state.clockWarned = key;
          playSound("clock");
        }
      }
    }
  }
  setInterval(tickClocks, 250);
  window.addEventListener("resize", function () { if (state.snapshot) { drawSeats(); tickClocks(); } });

  // --- Events --------------------------------------------------------------------------------------------

  /* While the hand log is refilled after a reload (readBackResults), its lines are gathered here and put above the
     lines that arrived live meanwhile. */
  var refilledLines = null;

  function logLine(text) {
    if (!text) { return; }
    if (refilledLines) { refilledLines.push(text); return; }
    var item = document.createElement("li");
    item.textContent = text;
    elements.log.appendChild(item);
    while (elements.log.children.length > 40) { elements.log.removeChild(elements.log.firstElementChild); }
    elements.log.scrollTop = elements.log.scrollHeight;
  }

  function actionText(event, record) {
    var name = nameIn(record, event.seat);
    var amount = money(event.total_bet);
    var text = {
      fold: f(gettext("%(name)s folds"), { name: name }),
      check: f(gettext("%(name)s checks"), { name: name }),
      call: f(gettext("%(name)s calls %(amount)s"), { name: name, amount: money(event.amount) }),
      bet: f(gettext("%(name)s bets %(amount)s"), { name: name, amount: amount }),
      raise: f(gettext("%(name)s raises to %(amount)s"), { name: name, amount: amount })
    }[event.resolved] || f(gettext("%(name)s acts"), { name: name });
    if (event.all_in) { text += " " + gettext("(all-in)"); }
    if (event.action && event.action.type === "timeout") { text += " " + gettext("(time ran out)"); }
    return text;
  }

  /* The short label a seat shows for its last action in the betting round ("Raise to €0.40"). */
  function lastActionText(event) {
    if (event.all_in && event.resolved !== "fold") { return f(gettext("All-in %(amount)s"), { amount: money(event.total_bet) }); }
    return {
      fold: gettext("Fold"),
      check: gettext("Check"),
      call: f(gettext("Call %(amount)s"), { amount: money(event.amount) }),
      bet: f(gettext("Bet %(amount)s"), { amount: money(event.total_bet) }),
      raise: f(gettext("Raise to %(amount)s"), { amount: money(event.total_bet) })
    }[event.resolved] || "";
  }

  var BLIND_NAMES = {
    small_blind: gettext("small blind"), big_blind: gettext("big blind"), ante: gettext("ante"),
    out_of_position_big_blind: gettext("big blind out of position")
  };

  function newRecord(handId, number) {
    return { handId: handId, number: number, board: [], shown: {}, handNames: {}, awards: [], won: {}, contributed: {},
      myCards: [], cancelled: false, settled: false, rake: null, potTotal: null, net: {} };
  }

  /* The seats of the drawn hand follow its chip movements, so that stacks, bets and the board always agree on screen
     (the board follows street_dealt at once; stacks must not wait for the next snapshot). At the end of a betting
     round (pots_formed, street_dealt) the bets have gone to the pot. */
  function followSeat(kind, event) {
    if (kind === "pots_formed" || kind === "street_dealt") {
      seats().forEach(function (seat) { if (seat.in_hand) { seat.bet = 0; } });
      return;
    }
    var seat = event.seat !== undefined ? seatByNumber(event.seat) : null;
    if (!seat || !seat.in_hand) { return; }
    var amount = event.amount || 0;
    if (kind === "forced_bet_posted" || kind === "action_taken") {
      seat.stack = (seat.stack || 0) - amount;
      seat.bet = kind === "action_taken" && event.total_bet !== undefined ? event.total_bet : (seat.bet || 0) + amount;
      seat.contributed = (seat.contributed || 0) + amount;
      if (event.resolved === "fold") { seat.folded = true; seat.has_cards = false; }
      if (event.all_in) { seat.all_in = true; }
    } else if (kind === "uncalled_bet_returned") {
      seat.stack = (seat.stack || 0) + amount;
      seat.bet = Math.max(0, (seat.bet || 0) - amount);
      seat.contributed = Math.max(0, (seat.contributed || 0) - amount);
      seat.all_in = false;
    }
  }

  /* Fold one event into the hand being followed; `live` is false for events read back for the results list, and
     `relog` true for those of them that refill the hand log after a reload (their lines, nothing else of a live
     event: no turn counted, no notice, no sound). */
  function applyEvent(event, live, relog) {
    var kind = event.type || event.kind;
    var speak = live || !!relog;
    if (kind === "deck_committed" || kind === "deck_revealed") {
      if (live && kind === "deck_committed") { keepCommitment(event.hand_id, event.hand_number, event, "event"); }
      if (live && kind === "deck_revealed") { contributeSeed("hand-" + event.hand_id); }
      return;
    }
    if (kind === "chat_message") {
      if (chat) { chat.add(event); }
      return;
    }
    if (live && state.snapshot && state.snapshot.viewer &&
        (kind === "action_taken" || kind === "street_dealt" || kind === "hand_ended" || kind === "hand_cancelled" ||
         kind === "hand_started" || (kind === "turn" && event.seat !== viewer().seat))) {
      // The turn moved: the legal actions we hold are stale until the next snapshot or your_turn message.
      state.snapshot.viewer.legal_actions = null;
    }
    // A closed table never opens again: whether the event arrives live or in the log read back on arrival.
    if (kind === "table_closed" && state.snapshot && state.snapshot.table) { state.snapshot.table.status = "closed"; }
    var playing = live ? hand() : null;
    if (playing && event.hand_id === playing.id) {
      // The drawn hand follows its events at once (the snapshot asked for after each batch refreshes the rest): a
      // player whose turn comes with the river never sees it on a board that lacks the river card.
      if (kind === "street_dealt") { playing.board = (event.board || []).slice(); playing.street = event.street; }
      if (kind === "forced_bet_posted" || kind === "action_taken" || kind === "uncalled_bet_returned") {
        // The layers of the pot are the server's to work out: until the snapshot asked for after this batch brings
        // them, the total alone is shown (the layers of before beside the new total named the wrong player's
        // uncalled bet: "Uncalled bet €0.05 (alice)" after bob's all-in raise, ENG-23).
        playing.pots = null;
      }
      if (kind === "forced_bet_posted" || kind === "action_taken") {
        playing.pot_total = (playing.pot_total || 0) + (event.amount || 0);
        var total = kind === "action_taken" && event.total_bet !== undefined ? event.total_bet : null;
        if (total !== null && total > (playing.current_bet || 0)) { playing.current_bet = total; }
        if (kind === "forced_bet_posted" && (event.amount || 0) > (playing.current_bet || 0)) { playing.current_bet = event.amount; }
      }
      if (kind === "street_dealt") { playing.current_bet = 0; }
      if (kind === "action_taken") {
        state.lastActions[event.seat] = { hand: playing.id, street: playing.street, kind: event.resolved, text: lastActionText(event) };
      }
      if (kind === "uncalled_bet_returned") { playing.pot_total = (playing.pot_total || 0) - (event.amount || 0); }
      if (kind === "turn") { playing.acting_seat = event.seat; playing.action_deadline = event.deadline; playing.clock = event.clock; }
      followSeat(kind, event);
    }
    if (kind === "hand_started") {
      state.current = newRecord(event.hand_id, null);
      // The hand's own names: the event's (the players dealt in); a live event without them takes the seats' players
      // now, who are the hand's. Read back later, the seats may have other players (or none): never take those.
      if (event.names) {
        state.current.names = {};
        Object.keys(event.names).forEach(function (seat) {
          state.current.names[seat] = event.names[seat];
          state.seatNames[seat] = event.names[seat];
        });
      } else if (live) {
        state.current.names = {};
        seats().forEach(function (seat) { if (seat.occupied) { state.current.names[seat.number] = seat.name; } });
      }
      if (live) {
        state.finished = null;
        state.turnCounter = 0;
        state.lastActions = {};
        state.advance = null;
        state.advanceNote = null;
        clearActionErrors();
      }
      if (speak) { logLine(gettext("A new hand starts.")); }
      return;
    }
    var current = state.current;
    if (kind === "hole_cards_dealt") {
      if (current && event.cards) { current.myCards = event.cards.slice(); if (speak) { logLine(f(gettext("You are dealt %(cards)s"), { cards: Cards.list(event.cards) })); } }
      return;
    }
    if (current && (kind === "forced_bet_posted" || kind === "action_taken" || kind === "uncalled_bet_returned")) {
      var sign = kind === "uncalled_bet_returned" ? -1 : 1;
      current.contributed[event.seat] = (current.contributed[event.seat] || 0) + sign * (event.amount || 0);
    }
    if (kind === "forced_bet_posted") {
      if (speak) { logLine(f(gettext("%(name)s posts the %(blind)s %(amount)s"), { name: nameIn(current, event.seat), blind: BLIND_NAMES[event.blind] || event.blind, amount: money(event.amount) })); }
      return;
    }
    if (kind === "action_taken") {
      // Only live actions move the decision on: the recent results read back after the first snapshot replay the
      // current hand's actions too, and counting those would reset the amount the player is typing.
      if (live) { state.turnCounter = (state.turnCounter || 0) + 1; }
      if (speak) { logLine(actionText(event, current)); }
      return;
    }
    if (kind === "street_dealt") {
      if (current) { current.board = (event.board || []).slice(); }
      if (speak) { logLine(f(gettext("%(street)s: %(cards)s"), { street: streetName(event.street), cards: Cards.list(event.board) })); }
      return;
    }
    if (kind === "uncalled_bet_returned") {
      if (speak) { logLine(f(gettext("Uncalled bet of %(amount)s returned to %(name)s"), { amount: money(event.amount), name: nameIn(current, event.seat) })); }
      return;
    }
    if (kind === "hand_shown") {
      if (current) { current.shown[event.seat] = (event.cards || []).slice(); }
      if (speak) { logLine(f(gettext("%(name)s shows %(cards)s"), { name: nameIn(current, event.seat), cards: Cards.list(event.cards) })); }
      return;
    }
    if (kind === "hand_evaluated") {
      if (current) { current.handNames[event.seat] = event.hand_name; }
      if (speak) { logLine(f(gettext("%(name)s has %(hand)s"), { name: nameIn(current, event.seat), hand: P.handName(event.hand_name) })); }
      return;
    }
    if (kind === "pot_awarded") {
      if (current && event.pot) {
        var award = { potIndex: event.pot_index, amount: event.pot.amount, shares: event.pot.shares || [], handName: event.hand_name };
        current.awards.push(award);
        if (!current.settled) {
          award.shares.forEach(function (share) { current.won[share[0]] = (current.won[share[0]] || 0) + share[1]; });
        }
        if (speak) { logLine(awardText(award, current)); }
      }
      return;
    }
    if (kind === "turn") { return; }
    if (kind === "hand_settled") {
      var settled = state.results.filter(function (record) { return record.handId === event.hand_id; })[0];
      if (settled) {
        settled.number = event.hand_number || settled.number;
        settled.rake = event.rake;
        settled.potTotal = event.pot_total;
        settled.net = event.net || {};
        settled.settled = true;
        // What each player collected after rake: their result plus what they had put in.
        settled.won = {};
        Object.keys(settled.net).forEach(function (seat) {
          var collected = settled.net[seat] + (settled.contributed[seat] || 0);
          if (collected > 0) { settled.won[seat] = collected; }
        });
        drawResults();
        if (speak) {
          // The hand log ends with what the ledger moved, in the words and amounts of the replayer and the hand
          // history: the rake as its own line, then what each winner collected and their net result.
          if (event.rake) { logLine(f(gettext("Rake %(amount)s is taken from the pot."), { amount: money(event.rake) })); }
          Object.keys(settled.won).forEach(function (seat) {
            logLine(f(gettext("%(name)s collects %(amount)s (net %(net)s)"), {
              name: nameIn(settled, seat),
              amount: money(settled.won[seat]),
              net: signedMoney(settled.net[seat])
            }));
          });
        }
        if (live && state.finished === settled) { drawSeats(); drawBoard(); }
      }
      return;
    }
    if (kind === "hand_ended" || kind === "hand_cancelled") {
      if (kind === "hand_cancelled" && current) { current.number = event.hand_number || current.number; }
      if (current) {
        current.cancelled = kind === "hand_cancelled";
        if (!current.names && live) {
          current.names = {};
          seats().forEach(function (seat) { if (seat.occupied) { current.names[seat.number] = seat.name; } });
        }
        addResult(current);
        if (speak && current.cancelled) { logLine(gettext("The hand was cancelled; every bet was returned.")); }
        if (live) {
          state.finished = current;
          // A showdown stays on screen at least SHOWDOWN_MILLISECONDS before the next hand is drawn (issue 28).
          // (counted from when the page has drawn it: applyEvents starts the clock after its draw).
          if (kind === "hand_ended" && event.showdown) { state.showdownDrawnPending = true; }
        }
      }
      // The hand drawn from the last snapshot is over: the finished hand (the cards shown, who won what) is drawn
      // from now on, as the snapshot asked for after this batch will say, even if that snapshot comes only with the
      // next hand (held back until the showdown has been on screen long enough).
      if (playing && event.hand_id === playing.id) { state.snapshot.hand = null; }
      state.current = null;
      return;
    }
    if (live && kind === "table_closing" && state.snapshot && state.snapshot.table) { state.snapshot.table.closing = true; }
    if (live && (kind === "seat_disconnected" || kind === "seat_reconnected")) {
      // Every viewer's clock follows the player's connection at once (not only at the next snapshot).
      var connectionSeat = seatByNumber(event.seat);
      if (connectionSeat && connectionSeat.user_id === event.user_id) { connectionSeat.disconnected = kind === "seat_disconnected"; }
    }
    if (live) { tournamentEvent(kind, event); }
    // A seat_left carries no name: the player who sat there as of this event (a later occupant is someone else).
    var seatName = event.name || (event.seat ? (state.seatNames[event.seat] || nameOf(event.seat)) : "");
    if (event.seat && event.name) { state.seatNames[event.seat] = event.name; }
    if (kind === "seat_left" && event.seat) { delete state.seatNames[event.seat]; }
    if (speak) { tableEventLine(kind, event, seatName); }
    if (live && kind === "seat_top_up_dropped" && event.seat === viewer().seat) {
      P.notify(elements.notices, event.reason === "maximum" ?
        f(gettext("Your top-up of %(amount)s was not added: your stack is at the table maximum."), { amount: money(event.amount) }) :
        f(gettext("Your top-up of %(amount)s was not added: your balance does not cover it."), { amount: money(event.amount) }), "error");
    }
  }

  function tableEventLine(kind, event, name) {
    var lines = {
      seat_taken: f(gettext("%(name)s sits down with %(amount)s"), { name: name, amount: money(event.stack) }),
      seat_left: f(gettext("%(name)s leaves the table"), { name: name }),
      seat_leaving: f(gettext("%(name)s will leave after this hand"), { name: name }),
      seat_sat_out: f(gettext("%(name)s sits out"), { name: name }),
      seat_sat_in: f(gettext("%(name)s is back"), { name: name }),
      seat_topped_up: f(gettext("%(name)s adds %(amount)s"), { name: name, amount: money(event.amount) }),
      seat_top_up_requested: f(gettext("%(name)s will add %(amount)s when the hand ends"), { name: name, amount: money(event.amount) }),
      seat_top_up_dropped: f(gettext("%(name)s's top-up of %(amount)s was not added"), { name: name, amount: money(event.amount) }),
      seat_disconnected: f(gettext("%(name)s lost the connection"), { name: name }),
      seat_reconnected: f(gettext("%(name)s is connected again"), { name: name }),
      table_closing: gettext("This table closes when the hand in play ends."),
      table_closed: tournamentTable() ? gettext("This table is closed.") : gettext("This table is closed; every player's chips went back to their balance."),
      player_moved: f(gettext("%(name)s moves to another table"), { name: name }),
      player_eliminated: f(gettext("%(name)s is knocked out"), { name: name }),
      level_changed: f(gettext("Level %(level)s begins"), { level: event.level })
    };
    if (lines[kind]) { logLine(lines[kind]); }
    if (kind === "bounty_won") {
      // TRN-44: who won what for the knock-out, credited at once.
      (event.winners || []).forEach(function (winner) {
        var won = f(gettext("%(name)s wins %(amount)s for knocking out %(out)s"), { name: winner.name, amount: P.money(winner.cash + winner.vip), out: event.name });
        if (winner.added_to_bounty) {
          won += " " + f(gettext("(and %(amount)s is added to their bounty)"), { amount: P.money(winner.added_to_bounty) });
        }
        logLine(won);
      });
    }
  }

  function addResult(record) {
    if (state.results.some(function (other) { return other.handId === record.handId; })) { return; }
    state.results.unshift(record);
    state.results = state.results.slice(0, 10);
    drawResults();
  }

  function drawResults() {
    elements.results.innerHTML = "";
    state.results.forEach(function (record) {
      var item = document.createElement("li");
      item.setAttribute("data-hand-id", record.handId);
      var title = record.number ? f(gettext("Hand #%(number)s"), { number: record.number }) : gettext("Hand");
      var text;
      if (record.cancelled) {
        text = gettext("cancelled, bets returned");
      } else {
        var nameFor = function (seat) { return nameIn(record, seat); };
        var handName = P.handName(record.awards.map(function (award) { return award.handName; }).filter(Boolean)[0]);
        text = Object.keys(record.won).map(function (seat) {
          if (record.settled && record.net && record.net[seat] !== undefined) {
            return f(gettext("%(name)s won %(amount)s (net %(net)s)"), { name: nameFor(seat), amount: money(record.won[seat]), net: signedMoney(record.net[seat]) });
          }
          return f(gettext("%(name)s won %(amount)s"), { name: nameFor(seat), amount: money(record.won[seat]) });
        }).join(", ") + (handName ? " – " + handName : "");
        if (record.settled && record.potTotal !== null) {
          text += " " + f(gettext("(pot %(pot)s, rake %(rake)s)"), { pot: money(record.potTotal), rake: money(record.rake || 0) });
        }
      }
      item.setAttribute("data-won", JSON.stringify(record.won));
      if (record.settled) {
        item.setAttribute("data-net", JSON.stringify(record.net || {}));
        item.setAttribute("data-pot", String(record.potTotal));
        item.setAttribute("data-rake", String(record.rake || 0));
      }
      var strong = document.createElement("strong");
      strong.textContent = title + ": ";
      item.appendChild(strong);
      item.appendChild(document.createTextNode(text));
      if (record.myCards && record.myCards.length && record.handId) {
        var link = document.createElement("a");
        link.href = app.getAttribute("data-hand-url").replace(/0\/$/, record.handId + "/");
        link.textContent = gettext("Replay");
        link.setAttribute("aria-label", f(gettext("Replay %(hand)s"), { hand: title }));
        item.appendChild(document.createTextNode(" "));
        item.appendChild(link);
      }
      elements.results.appendChild(item);
    });
    elements.resultsEmpty.hidden = state.results.length > 0;
  }

  // --- Messages ------------------------------------------------------------------------------------------

  var snapshotTimer = null;
  function requestSnapshot() {
    clearTimeout(snapshotTimer);
    snapshotTimer = setTimeout(function () { socket.send({ type: "snapshot" }); }, 120);
  }

  function snapshotSequence(message) {
    var data = message.snapshot || {};
    return Number(message.sequence !== undefined ? message.sequence : (data.last_sequence || 0));
  }

  /* A snapshot can be ahead of the events this page has applied: it was read after a commit whose events had not
     reached this socket yet (the server then sends only what is newer than the snapshot), or the page reconnected.
     The events in between are fetched and applied first, as they happened, so a hand that ended in the gap is
     listed with its result and stays on screen; then the newest snapshot that arrived meanwhile. When the server
     answers with a snapshot instead (too many events), that snapshot is applied as it is. */
  function applySnapshot(message) {
    var incoming = snapshotSequence(message);
    var catchUp = state.catchUp;
    if (catchUp) {
      if (message.request_id && message.request_id === catchUp.requestId) {
        applySnapshotNow(message);
      } else if (incoming >= snapshotSequence(catchUp.waiting)) {
        catchUp.waiting = message;
      }
      return;
    }
    if (!state.freshConnection && incoming < state.sequence) { return; }  // older than what this page already shows
    if (state.sequence > 0 && incoming > state.sequence && state.historyLoaded && socket.isOpen()) {
      catchUp = state.catchUp = { waiting: message, requestId: null };
      var finish = function (applyWaiting) {
        if (state.catchUp !== catchUp) { return; }
        state.catchUp = null;
        // The events read back may have ended a hand with a showdown: a snapshot of the next hand then waits for the
        // showdown's hold like any message that would draw the next hand (issue 28).
        if (applyWaiting && !holdForTheShowdown(catchUp.waiting)) { applySnapshotNow(catchUp.waiting); }
      };
      var request = { type: "resync", since: state.sequence };
      // The answer's events reach onMessage (and are applied) before this promise's callbacks run.
      socket.request(request).then(function (answer) { finish(answer.type === "events"); },
        function () { finish(true); });
      catchUp.requestId = request.request_id;
      return;
    }
    applySnapshotNow(message);
  }

  function applySnapshotNow(message) {
    var data = message.snapshot || {};
    var previous = state.sequence;
    if (!state.freshConnection && snapshotSequence(message) < previous) { return; }
    state.freshConnection = false;
    state.snapshot = data;
    state.sequence = snapshotSequence(message);
    if (state.historyLoaded && previous > 0 && state.sequence > previous) {
      // The snapshot skipped events this page never saw (a catch-up the server answered with this snapshot): read
      // them back for the last hands' results.
      readBackResults(previous, state.sequence);
    }
    if (data.server_time) { state.clockOffset = Date.parse(data.server_time) - Date.now(); }
    if (data.hand && data.hand.fairness) { keepCommitment(data.hand.id, data.hand.number, data.hand.fairness, "snapshot"); }
    if (data.hand) {
      if (state.current && state.current.handId === data.hand.id && !state.current.number) {
        state.current.number = data.hand.number;
      }
      if (!state.current || state.current.handId !== data.hand.id) {
        state.current = newRecord(data.hand.id, data.hand.number);
        state.current.board = (data.hand.board || []).slice();
        state.current.myCards = ((data.viewer && data.viewer.hole_cards) || []).slice();
        seats().forEach(function (seat) { if (seat.in_hand) { state.current.contributed[seat.number] = seat.contributed || 0; } });
      }
      state.finished = null;
    }
    draw();
    if (data.viewer && data.viewer.to_table) {
      // The closed table's snapshot names the table where the player was moved and plays now (a page that missed
      // player_moved: opened, reloaded or reconnected after the move).
      goToTheTablePlayedAtNow(data.viewer.to_table, gettext("You were moved to another table."));
    }
    if (!state.historyLoaded) {
      state.historyLoaded = true;
      loadRecentResults();
    }
  }

  /* The last hands' results on first load: the table's recent events, read once through resync. They refill the
     hand log too (a reload emptied it): the lines of the hand in play and of the hand before it, as this viewer was
     sent them (the server's view for this socket: nobody else's hole cards unless a showdown showed them). */
  function loadRecentResults() {
    if (state.sequence === 0) { app.setAttribute("data-results-read", "true"); return; }
    readBackResults(Math.max(0, state.sequence - 150), state.sequence, true);
  }

  /* Where the refilled hand log starts among the events read back: the start of the hand before the one in play
     (or, between hands, of the last hand). */
  function logRefillStart(events) {
    var starts = [];
    events.forEach(function (event, index) {
      if ((event.type || event.kind) === "hand_started") { starts.push(index); }
    });
    if (!starts.length) { return events.length; }
    var inPlay = hand() && (events[starts[starts.length - 1]].hand_id === hand().id);
    return starts[Math.max(0, starts.length - (inPlay ? 2 : 1))];
  }

  function readBackResults(since, upTo, refillLog) {
    socket.request({ type: "resync", since: since }).then(function (message) {
      if (message.type !== "events") { return; }
      var following = state.current;  // the hand followed live stays as it is
      var seatNames = state.seatNames;  // and so do the names the live events gave the seats
      state.current = null;
      state.seatNames = {};
      var events = (message.events || []).filter(function (event) { return Number(event.sequence) <= upTo; });
      var refillFrom = refillLog ? logRefillStart(events) : events.length;
      refilledLines = [];
      try {
        events.forEach(function (event, index) { applyEvent(event, false, index >= refillFrom); });
      } finally {
        var lines = refilledLines;
        refilledLines = null;
        // Above whatever was logged live while the events were being read.
        var first = elements.log.firstElementChild;
        lines.forEach(function (text) {
          var item = document.createElement("li");
          item.textContent = text;
          elements.log.insertBefore(item, first);
        });
        while (elements.log.children.length > 40) { elements.log.removeChild(elements.log.firstElementChild); }
        elements.log.scrollTop = elements.log.scrollHeight;
      }
      state.current = following;
      state.seatNames = seatNames;
      draw();
      app.setAttribute("data-results-read", "true");  // tests wait on it
    }, function () { /* the results list just stays shorter */ });
  }

  function applyEvents(message) {
    var events = message.events || [];
    var applied = 0;
    var chatOnly = true;
    var nextHand = null;
    for (var i = 0; i < events.length; i += 1) {
      var event = events[i];
      var sequence = Number(event.sequence);
      if (sequence <= state.sequence) { continue; }
      if (sequence > state.sequence + 1) {
        resync();
        break;
      }
      if (state.showdownDrawnPending && (event.type || event.kind) === "hand_started") {
        // The next hand came in the same message as the showdown (a page that was busy, a resync): the showdown is
        // drawn and held first, and the next hand waits for the hold like a message that arrives during it.
        nextHand = { type: "events", table_id: message.table_id, events: events.slice(i) };
        break;
      }
      applyEvent(event, true);
      state.sequence = sequence;
      applied += 1;
      if (event.type !== "chat_message") { chatOnly = false; }
    }
    if (applied && chatOnly) {
      app.setAttribute("data-sequence", String(state.sequence));  // chat lines change nothing else on the table
    } else if (applied) {
      draw();
      if (state.showdownDrawnPending) {
        state.showdownDrawnPending = false;
        state.showdownHoldUntil = Date.now() + SHOWDOWN_MILLISECONDS;
        // Counted from the frame that shows it: a busy page may paint a while after it drew. (A hidden page paints no
        // frame; the hold then runs from the draw.)
        window.requestAnimationFrame(function () {
          if (state.showdownHoldUntil) {
            state.showdownHoldUntil = Math.max(state.showdownHoldUntil, Date.now() + SHOWDOWN_MILLISECONDS);
          }
        });
        if (nextHand && !holdForTheShowdown(nextHand)) { applyEvents(nextHand); }
        nextHand = null;
      }
      requestSnapshot();
    }
  }

  function resync() {
    if (state.resyncing) { return; }
    state.resyncing = true;
    socket.request({ type: "resync", since: state.sequence }).then(function () {
      state.resyncing = false;
    }, function () {
      state.resyncing = false;
      socket.send({ type: "snapshot" });
    });
  }

  /* Provably fair decks (issue 29, docs/fairness.md): a seated player contributes 32 random bytes made here to the
     next hands' decks, when seated and again after each hand (the server keeps the last one sent). Quiet: a refusal
     changes nothing and the server generates a seed instead. */
  var seedSentFor = null;
  function contributeSeed(reason) {
    var viewerSeat = state.snapshot && state.snapshot.viewer ? state.snapshot.viewer.seat : null;
    if (!viewerSeat || !window.crypto || !window.crypto.getRandomValues) { return; }
    var key = reason + ":" + viewerSeat;
    if (seedSentFor === key) { return; }
    seedSentFor = key;
    var bytes = new Uint8Array(32);
    window.crypto.getRandomValues(bytes);
    var hex = Array.prototype.map.call(bytes, function (byte) { return ("0" + byte.toString(16)).slice(-2); }).join("");
    // Kept in this browser (fairness_keep.js): the replayer later checks this seed is among those of the deck.
    if (window.FairnessKeep) { window.FairnessKeep.seedSent(tableId, hex); }
    socket.request({ type: "client_seed", seed: hex }).then(function () {
      if (window.FairnessKeep) { window.FairnessKeep.seedAcknowledged(tableId, hex); }
    }).catch(function () { /* a seed is generated for us */ });
  }

  /* The commitment of a hand as this page received it before the first card (deck_committed, or the snapshot of the
     hand in play): shown on the table, short, in full on demand, and kept in this browser with the client seed this
     page sent (fairness_keep.js) for the replayer's "Verify this hand" (docs/fairness.md, "Verifying a hand"). */
  function keepCommitment(handId, handNumber, fairness, source) {
    if (!handId || !fairness || !fairness.commitment) { return; }
    if (state.commitment && state.commitment.handId === handId) { return; }  // the first seen stays
    var seat = viewer().seat;
    var seeds = fairness.client_seeds || {};
    var dealtIn = seat !== null && seat !== undefined && Object.prototype.hasOwnProperty.call(seeds, String(seat));
    var record = window.FairnessKeep
      ? window.FairnessKeep.keepCommitment(tableId, handId, handNumber, fairness, dealtIn ? seat : null, source)
      : null;
    state.commitment = {
      handId: handId,
      number: handNumber,
      // What was kept first for this hand (a reload shows what the page saw before the first card, not a new copy).
      commitment: record ? record.commitment : String(fairness.commitment).toLowerCase(),
      seed: dealtIn ? String(seeds[String(seat)]) : null,
      mine: Boolean(record && record.my_seeds.length && dealtIn &&
                    record.my_seeds.indexOf(String(seeds[String(seat)]).toLowerCase()) >= 0),
      kept: Boolean(record)
    };
    drawCommitment();
  }

  function drawCommitment() {
    var box = elements.commitment;
    var kept = state.commitment;
    if (!box) { return; }
    if (!kept) { box.hidden = true; return; }
    box.hidden = false;
    box.setAttribute("data-hand-id", String(kept.handId));
    box.setAttribute("data-commitment", kept.commitment);
    box.setAttribute("data-kept", kept.kept ? "true" : "false");
    box.querySelector("summary").textContent = f(gettext("Hand #%(number)s deck commitment %(short)s…"),
      { number: kept.number || "", short: kept.commitment.slice(0, 12) });
    box.querySelector("[data-part=commitment]").textContent = kept.commitment;
    var seedText = "";
    if (kept.seed) {
      seedText = (kept.mine ? f(gettext("Your client seed (made by this browser): %(seed)s."), { seed: kept.seed })
        : f(gettext("Your client seed: %(seed)s (not one this browser sent: the hand may have been dealt before its seed arrived)."),
          { seed: kept.seed })) + " ";
    }
    seedText += kept.kept
      ? gettext("Kept in this browser: “Verify this hand” in your hand history compares the revealed seed with it.")
      : gettext("Note it to check the hand afterwards: this browser cannot keep it.");
    box.querySelector("[data-part=seed]").textContent = kept.seed || kept.kept ? seedText : "";
  }

  /* The showdown hold (issue 28: the showdown stays long enough to read, at least 3 s): while it lasts, a message that
     would draw the next hand — events with hand_started, a snapshot of another hand — waits, and so does everything
     after it, in order; they are applied when the hold ends. The server's pause between hands may be shorter (2.5 s
     by default), so the player's first decision of the next hand can start up to that difference later on screen. */
  var SHOWDOWN_MILLISECONDS = 3000;
  var heldMessages = [];

  function startsTheNextHand(message) {
    if (message.type === "events") {
      return (message.events || []).some(function (event) { return (event.type || event.kind) === "hand_started"; });
    }
    if (message.type === "snapshot") {
      var next = message.snapshot && message.snapshot.hand;
      return !!(next && state.finished && next.id !== state.finished.handId);
    }
    return false;
  }

  function holdForTheShowdown(message) {
    var left = (state.showdownHoldUntil || 0) - Date.now();
    if (left <= 0 || (!heldMessages.length && !startsTheNextHand(message))) { return false; }
    if (!heldMessages.length) {
      app.setAttribute("data-showdown-hold", "on");
      setTimeout(releaseHeldMessages, left);
    }
    heldMessages.push(message);
    return true;
  }

  function releaseHeldMessages() {
    var left = (state.showdownHoldUntil || 0) - Date.now();
    if (left > 0) {  // the hold was extended to the frame that showed the showdown
      setTimeout(releaseHeldMessages, left);
      return;
    }
    var held = heldMessages;
    heldMessages = [];
    state.showdownHoldUntil = 0;
    app.setAttribute("data-showdown-hold", "");
    held.forEach(onMessage);
  }

  function onMessage(message) {
    if (holdForTheShowdown(message)) { return; }
    if (message.type === "snapshot") {
      applySnapshot(message);
      contributeSeed(seedSentFor === null ? "seated" : seedSentFor.split(":")[0]);
    } else if (message.type === "events") {
      applyEvents(message);
    } else if (message.type === "your_turn") {
      var playing = hand();
      if (playing && playing.id === message.hand_id && state.snapshot.viewer) {
        state.snapshot.viewer.legal_actions = message.legal_actions;
        playing.acting_seat = message.seat;
        if (message.deadline) { playing.action_deadline = message.deadline; }
        draw();
      }
    } else if (message.type === "error" && message.to_table) {  // a refusal whose request the page stopped waiting for
      goToTheTablePlayedAtNow(message.to_table, errorFrom(message));
    } else if (message.type === "error" && !message.request_id) {
      notify(errorFrom(message));
    }
  }

  var STATUS_TEXT = { connecting: gettext("Connecting…"), live: gettext("Live"), reconnecting: gettext("Reconnecting…"), closed: gettext("Disconnected") };
  function onStatus(socketState) {
    elements.status.setAttribute("data-state", socketState);
    elements.status.textContent = STATUS_TEXT[socketState] || socketState;
    elements.banner.hidden = socketState === "live" || socketState === "connecting";
    app.setAttribute("data-connection", socketState);
  }

  function drawTournamentInfo() {
    var info = document.getElementById("tournament-info");
    if (!info || !tournamentTable()) { return; }
    var table = tableInfo();
    var parts = [f(gettext("Level %(level)s: blinds %(small)s/%(big)s"), { level: table.level, small: money(table.small_blind), big: money(table.big_blind) })];
    if (table.ante) { parts.push(f(gettext("ante %(ante)s"), { ante: money(table.ante) })); }
    // The level's end, the break, players left, rank, average stack and pay jumps: the tournament bar below
    // (tournament_bar.js), with live countdowns.
    if (table.hand_for_hand) { parts.push(gettext("hand-for-hand: each hand starts when every table has finished the last")); }
    if (table.bounties && table.bounties.by_seat) {
      // TRN-41..TRN-43: each player's current bounty, and the VIP's bounty.
      var bounties = Object.keys(table.bounties.by_seat).map(function (seat) {
        var text = f(gettext("%(name)s: bounty %(amount)s"), { name: nameOf(Number(seat)), amount: P.money(table.bounties.by_seat[seat]) });
        if (table.bounties.vip_seat === Number(seat)) {
          text += " + " + f(gettext("VIP bounty %(amount)s"), { amount: P.money(table.bounties.vip_bounty) });
        }
        return text;
      });
      if (bounties.length) { parts.push(bounties.join(", ")); }
    }
    info.textContent = parts.join(" · ");
    info.hidden = false;
  }

  var BAR_EVENTS = ["player_eliminated", "level_changed", "bounty_won", "player_moved", "seat_taken", "player_disqualified", "table_closed"];
  function tournamentEvent(kind, event) {
    // TRN-26: a player moved to another table is told why and taken there; a knocked-out player is told so.
    var me = viewer().user_id;
    if (tournamentTable() && BAR_EVENTS.indexOf(kind) >= 0) {  // the tournament bar reads its figures again
      document.dispatchEvent(new CustomEvent("poker:tournament-event", { detail: { kind: kind } }));
    }
    if (kind === "level_changed" && state.snapshot && state.snapshot.table) {
      var table = state.snapshot.table;
      table.level = event.level; table.small_blind = event.small_blind; table.big_blind = event.big_blind;
      table.ante = event.ante; table.level_ends_at = event.level_ends_at;
      notify(f(gettext("Level %(level)s: blinds %(small)s/%(big)s from the next hand."), { level: event.level, small: money(event.small_blind), big: money(event.big_blind) }), "info");
      drawTournamentInfo();
      return;
    }
    if (kind === "bounty_won" && state.snapshot && state.snapshot.table && state.snapshot.table.bounties) {
      var bounties = state.snapshot.table.bounties;
      delete bounties.by_seat[String(event.seat)];
      if (bounties.vip_seat === event.seat) { bounties.vip_seat = null; }
      (event.winners || []).forEach(function (winner) { bounties.by_seat[String(winner.seat)] = winner.bounty_now; });
      drawTournamentInfo();
    }
    if (kind === "player_moved" && me && event.user_id === me) {
      goToTheTablePlayedAtNow(event.to_table, event.message || gettext("You were moved to another table."));
      return;
    }
    // A knocked-out player's place, prize and what next: the result panel (tournament_bar.js).
  }

  /* TRN-26: a player moved away from this table plays on at table toTable: a short notice, then that table's page.
     Told by the table's player_moved event, and by what a page that missed it still gets (opened, reloaded or
     reconnected after the move): the closed table's snapshot (viewer.to_table) or a refused command (to_table). */
  var MOVE_NOTICE_MILLISECONDS = 1500;
  var moveTimer = null;
  function goToTheTablePlayedAtNow(toTable, text) {
    if (!toTable || app.getAttribute("data-moved-to") === String(toTable)) { return; }  // already on the way there
    notify(text, "info");
    var target = app.getAttribute("data-table-url-zero").replace(/0\/$/, toTable + "/");
    app.setAttribute("data-moved-to", String(toTable));
    clearTimeout(moveTimer);  // moved on again before leaving: the last table named is where they play
    moveTimer = setTimeout(function () { window.location.assign(target); }, MOVE_NOTICE_MILLISECONDS);
  }

  function draw() {
    // Support closed the table during the hand in play (a page opened after the table_closing event learns it here).
    elements.closing.hidden = !tableInfo().closing;
    drawTournamentInfo();
    drawSeats();
    drawBoard();
    drawActions();
    drawSeatControls();
    showTopUpLimits();
    showTopUpPending();
    tickClocks();
    if (chat) { chat.setWritable(Boolean(viewer().seat)); }
    app.setAttribute("data-sequence", String(state.sequence));
  }

  // --- Wiring --------------------------------------------------------------------------------------------

  if (elements.buttons) {
    elements.buttons.addEventListener("click", function (event) {
      var button = event.target.closest("[data-act]");
      if (button && !button.hidden && button.getAttribute("aria-disabled") !== "true") { act(button.getAttribute("data-act")); }
    });
    elements.betAmount.addEventListener("input", function () {
      state.amountChosen = true;
      followTypedAmount();
      updateBetLabels();
    });
    elements.betAmount.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        event.preventDefault();
        var actions = legal();
        if (actions) { act(actions.raise_range ? "raise" : "bet"); }
      }
    });
    elements.betSlider.addEventListener("input", function () {
      state.amountChosen = true;
      setAmount(Number(elements.betSlider.value));
    });
    elements.betControl.querySelectorAll("[data-preset]").forEach(function (button) {
      button.addEventListener("click", function () {
        var actions = legal();
        var range = actions && betRange(actions);
        if (!range) { return; }
        state.amountChosen = true;
        setAmount(presetAmount(button, range));
      });
    });
    // What the player sees when they press Bet / Raise is what is sent (act() compares it on release).
    ["bet", "raise"].forEach(function (kind) {
      var button = elements.buttons.querySelector("[data-act=" + kind + "]");
      button.addEventListener("pointerdown", function () { state.pressedAmount = chosenAmount(); });
    });
    document.addEventListener("keydown", function (event) {
      if (event.ctrlKey || event.metaKey || event.altKey || document.querySelector("dialog[open]")) { return; }
      var target = event.target;
      if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) { return; }
      var actions = legal();
      if (!actions) { return; }
      var key = event.key.toLowerCase();
      var visible = function (act) {
        var button = elements.buttons.querySelector("[data-act=" + act + "]");
        return button && !button.hidden ? button : null;
      };
      if (key === "f" && visible("fold")) { event.preventDefault(); act("fold"); }
      else if (key === "c" && (visible("check") || visible("call"))) { event.preventDefault(); act(visible("check") ? "check" : "call"); }
      else if ((key === "b" || key === "r") && !elements.betControl.hidden) { event.preventDefault(); elements.betAmount.focus(); elements.betAmount.select(); }
      else if (key === "a" && !elements.betControl.hidden) {
        event.preventDefault();
        state.amountChosen = true;
        setAmount(betRange(actions)[1]);
        (visible("raise") || visible("bet")).focus();
      } else if (key === "a" && visible("all_in")) { event.preventDefault(); act("all_in"); }
    });
  }
  document.getElementById("reconnect-now").addEventListener("click", function () { socket.reconnectNow(); });
  if (elements.betControl) {
    // "2.5× BB" with the page's decimal separator.
    elements.betControl.querySelectorAll("[data-preset=bb]").forEach(function (button) {
      var multiple = button.getAttribute("data-multiple");
      button.textContent = f(gettext("%(count)s× BB"), { count: P.language() === "et" ? multiple.replace(".", ",") : multiple });
      button.setAttribute("aria-label", f(gettext("Raise to %(count)s big blinds"), { count: P.language() === "et" ? multiple.replace(".", ",") : multiple }));
    });
  }

  var socket = new P.Socket(app.getAttribute("data-socket"), {
    onMessage: onMessage,
    onStatus: onStatus,
    onOpen: function () { state.freshConnection = true; },
    onClose: function (event) {
      if (event.code === 4404) {
        notify(gettext("This table does not exist or has been closed."));
        return false;
      }
      return true;
    }
  });

  // The page was drawn from the server's snapshot; the socket's own snapshot replaces it when it opens.
  var initial = document.getElementById("initial-snapshot");
  if (initial) {
    try {
      var data = JSON.parse(initial.textContent);
      var sequence = JSON.parse(document.getElementById("initial-sequence").textContent);
      state.historyLoaded = true;  // the socket's first snapshot loads the results
      applySnapshot({ snapshot: data, sequence: sequence });
      state.historyLoaded = false;
    } catch (ignored) { /* the socket's snapshot follows */ }
  }

  // For people debugging and for the browser tests.
  window.tableApp = { state: state, socket: socket, onMessage: onMessage, tableId: tableId, draw: draw };
}());
