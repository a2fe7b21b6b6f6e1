/* Ultimate Texas Hold'em table page: plain JavaScript over the table socket (see docs/uth-protocol.md).
 *
 * State comes from the server only: a snapshot on connect, then sequenced public events (a gap makes us ask for the
 * missing ones with "resync"), "you" messages that replace the player's own view, and "stats" for the decision
 * statistics. Every button sends one command; the server's answer ("ok" or "error" in plain words) is shown.
 */
(function () {
  "use strict";

  var root = document.getElementById("uth");
  if (!root) { return; }
  var P = window.Poker;
  var gettext = P.t;
  var f = function (text, values) { return P.format(text, values, true); };
  var snapshotElement = document.getElementById("uth-snapshot");
  var state = {
    snapshot: JSON.parse(snapshotElement.textContent),
    sequence: 0,
    clockOffset: 0,
    socket: null,
    retryDelay: 1000,
    requestCounter: 0,
    // Request ids: letters and digits of a random token, then the counter (the protocol allows 64 of [A-Za-z0-9_.:-]).
    pageToken: "c" + ((window.crypto && window.crypto.randomUUID) ? window.crypto.randomUUID() :
      String(Date.now()) + Math.random().toString(16).slice(2)).replace(/[^A-Za-z0-9]/g, "").slice(0, 20),
    undoTimer: null,
    undoHeld: false,
    spaceRepeatedIn: null,  // the round whose REPEAT the Space key sent (the next Space doubles)
    inGame: null,  // hands staked in the game in play (the dealt event), shown beside the players seated
    verifications: {},  // game number -> {verified, text}: the Game history's Verify answers, kept across renders
    revealed: {}
  };
  state.sequence = state.snapshot.sequence || 0;

  // Chat (UTH-33; static/js/chat.js): lines arrive as chat_message events, sent with the "chat" command.
  var chatRequests = {};  // request_id -> {resolve, reject}
  var chatPanel = document.getElementById("chat-panel");
  var chat = chatPanel && window.Chat ? window.Chat.create({
    root: chatPanel,
    userId: Number(root.dataset.userId) || null,
    send: function (text) {
      return new Promise(function (resolve, reject) {
        var message = { type: "chat", text: text };
        if (!state.socket || state.socket.readyState !== WebSocket.OPEN) {
          reject({ code: "network" });
          return;
        }
        send(message);
        chatRequests[message.request_id] = { resolve: resolve, reject: reject };
      });
    }
  }) : null;
  function chatFromSnapshot() {
    if (chat) { (state.snapshot.chat || []).forEach(chat.add); }
  }
  chatFromSnapshot();
  function chatAnswer(message) {
    var pending = message.request_id && chatRequests[message.request_id];
    if (!pending) { return false; }
    delete chatRequests[message.request_id];
    if (message.type === "ok") { pending.resolve(message); } else { pending.reject(message); }
    return true;
  }

  var SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
  var SUIT_NAMES = { c: gettext("clubs"), d: gettext("diamonds"), h: gettext("hearts"), s: gettext("spades") };
  var RANK_NAMES = { A: gettext("Ace"), K: gettext("King"), Q: gettext("Queen"), J: gettext("Jack"), T: gettext("Ten"),
    "9": gettext("Nine"), "8": gettext("Eight"), "7": gettext("Seven"), "6": gettext("Six"), "5": gettext("Five"),
    "4": gettext("Four"), "3": gettext("Three"), "2": gettext("Two") };
  var PHASES = {
    betting: gettext("Place your bets"),
    preflop: gettext("Decide: PLAY 4x, PLAY 3x or CHECK"),
    flop: gettext("Flop: PLAY 2x or CHECK"),
    river: gettext("Turn and river: PLAY 1x or FOLD"),
    settled: gettext("Result"),
    cancelled: gettext("Round cancelled")
  };
  var DECISION_LABELS = { play_4x: gettext("PLAY 4x"), play_3x: gettext("PLAY 3x"), play_2x: gettext("PLAY 2x"),
    play_1x: gettext("PLAY 1x"), check: gettext("CHECK"), fold: gettext("FOLD") };
  // The labels the server records for decisions (hand.decisions), including the automatic ones.
  var RECORDED_DECISIONS = { "PLAY 4x": DECISION_LABELS.play_4x, "PLAY 3x": DECISION_LABELS.play_3x,
    "PLAY 2x": DECISION_LABELS.play_2x, "PLAY 1x": DECISION_LABELS.play_1x, "CHECK": DECISION_LABELS.check,
    "FOLD": DECISION_LABELS.fold, "AUTO CHECKED": gettext("AUTO CHECKED"), "AUTO FOLDED": gettext("AUTO FOLDED") };
  function decisionLabel(label) { return RECORDED_DECISIONS[label] || label; }
  var SPOTS = { ante: gettext("ANTE"), blind: gettext("BLIND"), trips: gettext("TRIPS"), play: gettext("PLAY") };
  // The result rows of the settlement (games.engine.uth.settlement.ResultRow), by their code.
  var RESULT_ROWS = {
    dealer_not_qualified_player_wins: gettext("Dealer does not qualify, you win"),
    dealer_not_qualified_player_loses: gettext("Dealer does not qualify, you lose"),
    dealer_not_qualified_tie: gettext("Dealer does not qualify, tie"),
    dealer_qualifies_player_wins: gettext("Dealer qualifies, you win"),
    dealer_qualifies_player_loses: gettext("Dealer qualifies, you lose"),
    dealer_qualifies_tie: gettext("Dealer qualifies, tie"),
    player_folds: gettext("You folded")
  };
  function resultDescription(result) {
    if (result.refunded !== undefined) { return gettext("Round cancelled: every bet was refunded."); }
    return RESULT_ROWS[result.row] || result.description;
  }
  /* The server's refusals are English sentences; the fixed ones are listed here so that the catalogue translates
     them (refusalText looks each one up). */
  var REFUSALS = [
    gettext("A chip must be a positive whole number of cents."),
    gettext("Betting is closed for this round; wait for the next round."),
    gettext("Log in to play; visitors may only watch."),
    gettext("Place a bet before doubling."),
    gettext("Place your Ante before the Trips bet."),
    gettext("REPEAT is only available before you place the first chip of the round."),
    gettext("The Blind is placed for you automatically and always equals your Ante."),
    gettext("The Play bet is made with a PLAY decision after the cards are dealt."),
    gettext("The decision time for this phase has run out."),
    gettext("The round is paused while an issue is investigated; decide when it resumes."),
    gettext("There are no bets from a previous round to repeat."),
    gettext("There is no bet to undo."),
    gettext("Your bets are already at the table maximum; they cannot be doubled.")
  ];
  function refusalText(message) {
    var text = message.message || "";
    if (text && gettext(text) !== text) { return gettext(text); }  // one of REFUSALS
    return P.errorText(message.code, text);
  }
  var MULTIPLIERS = { play_4x: 4, play_3x: 3, play_2x: 2, play_1x: 1, check: 0, fold: 0 };
  // The PLAY decisions of each decision phase (UTH-09..12). The server offers only those the balance covers (AMB-39);
  // the others stay on screen, disabled, with the reason, beside the CHECK or FOLD the player may still choose.
  var PHASE_PLAYS = { preflop: ["play_4x", "play_3x"], flop: ["play_2x"], river: ["play_1x"] };

  function $(id) { return document.getElementById(id); }

  // Money in the page's language, exactly like the server's |money filter ("€1,234.56" or "1 234,56 €").
  function euros(cents) { return P.money(cents); }

  // A percentage with the page language's decimal mark ("12.5%" / "12,5%"), like the amounts.
  function percentText(value) {
    var text = String(value);
    return ((document.documentElement.lang || "en").slice(0, 2) === "et" ? text.replace(".", ",") : text) + "%";
  }

  function setText(id, text) { var element = $(id); if (element) { element.textContent = text; } }

  function showError(message) {
    var box = $("uth-error");
    box.textContent = message;
    box.hidden = false;
  }

  function clearError() { var box = $("uth-error"); box.hidden = true; box.textContent = ""; }

  function showNotice(message) {
    var box = $("uth-notice");
    box.textContent = message || "";
    box.hidden = !message;
  }

  // --- the socket --------------------------------------------------------------------------------------------------

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + window.location.host + root.dataset.socketPath);
    state.socket = socket;
    setText("uth-connection", gettext("Connecting…"));
    socket.addEventListener("open", function () {
      state.retryDelay = 1000;
      setText("uth-connection", gettext("Connected"));
    });
    socket.addEventListener("message", function (frame) {
      var message;
      try { message = JSON.parse(frame.data); } catch (error) { return; }
      receive(message);
    });
    socket.addEventListener("close", function () {
      setText("uth-connection", gettext("Disconnected — reconnecting…"));
      window.setTimeout(connect, state.retryDelay);
      state.retryDelay = Math.min(state.retryDelay * 2, 15000);
    });
  }

  function send(message) {
    if (!state.socket || state.socket.readyState !== WebSocket.OPEN) {
      showError(gettext("Not connected to the table; reconnecting. Try again in a moment."));
      return;
    }
    state.requestCounter += 1;
    // Unique per page: the server applies a command once per request id and what it asks (issue 30), so a counter
    // that starts again at 1 after a reload would have the same bet taken for a resend of the one before the reload.
    message.request_id = state.pageToken + "-" + state.requestCounter;
    state.socket.send(JSON.stringify(message));
  }

  function receive(message) {
    switch (message.type) {
      case "snapshot":
        state.snapshot = message.snapshot;
        state.sequence = message.sequence;
        state.clockOffset = Date.parse(message.snapshot.server_time) - Date.now();
        renderAll();
        chatFromSnapshot();
        break;
      case "events":
        applyEvents(message.events);
        break;
      case "you":
        state.snapshot.me = message.me;
        renderMe();
        break;
      case "stats":
        if (state.snapshot.round && state.snapshot.round.id === message.round_id) {
          state.snapshot.stats = message.stats;
          renderStats();
        }
        break;
      case "ok":
        if (chatAnswer(message)) { break; }
        clearError();
        break;
      case "error":
        if (chatAnswer(message)) { break; }  // a refused chat line is explained next to the chat input
        showError(refusalText(message));
        break;
      default:
        break;
    }
  }

  function applyEvents(events) {
    for (var index = 0; index < events.length; index += 1) {
      var event = events[index];
      if (event.sequence <= state.sequence) { continue; }
      if (event.sequence !== state.sequence + 1) {
        // A message went missing: ask for what we lack (the server answers with the events or a snapshot).
        send({ type: "resync", since: state.sequence });
        return;
      }
      state.sequence = event.sequence;
      if (event.kind === "chat_message") {
        if (chat) { chat.add(event); }
        continue;
      }
      if (event.round) { state.snapshot.round = event.round; }
      // "Players" counts the players seated (players_changed); the dealt event's "players" is the number of hands
      // staked in this game, shown beside it, never in its place.
      if (event.kind === "players_changed" && typeof event.players === "number") {
        state.snapshot.players = event.players;
        setText("uth-players", String(event.players));
      }
      if (event.kind === "dealt" && typeof event.players === "number") { state.inGame = event.players; }
      if (event.kind === "round_opened") { state.inGame = null; }
      if (event.stats) { state.snapshot.stats = event.stats; }
      if (event.ended_phase_stats) { state.snapshot.endedStats = event.ended_phase_stats; }
      if (event.kind === "round_opened") { state.snapshot.endedStats = null; showNotice(""); }
      if (event.kind === "deck_committed") { noteCommitment(event, !state.snapshot.round || state.snapshot.round.phase === "betting"); }
      if (event.kind === "deck_revealed") { state.revealed[event.game_number] = true; }
      if (event.kind === "round_paused") {
        showNotice(gettext("The round is paused while an issue is investigated. Please wait."));
      }
      if (event.kind === "round_resumed") { showNotice(gettext("The round continues.")); }
      if (event.kind === "round_cancelled") {
        showNotice(event.round.cancel_reason ?
          f(gettext("This round was cancelled (%(reason)s). Every bet placed in it has been refunded."), { reason: event.round.cancel_reason }) :
          gettext("This round was cancelled because of a malfunction. Every bet placed in it has been refunded."));
      }
    }
    renderRound();
    renderMe();
  }

  // --- rendering ---------------------------------------------------------------------------------------------------

  function cardElement(text) {
    var element = document.createElement("span");
    element.className = "uth-card";
    if (!text) {
      element.className += " back";
      element.setAttribute("aria-label", gettext("face-down card"));
      element.textContent = "?";
      return element;
    }
    var rank = text.charAt(0);
    var suit = text.charAt(1);
    if (suit === "h" || suit === "d") { element.className += " red"; }
    element.textContent = (rank === "T" ? "10" : rank) + SUITS[suit];
    element.setAttribute("role", "img");
    element.setAttribute("aria-label", f(gettext("%(rank)s of %(suit)s"), { rank: RANK_NAMES[rank], suit: SUIT_NAMES[suit] }));
    return element;
  }

  function renderCards(id, cards, faceDownCount) {
    var container = $(id);
    container.replaceChildren();
    cards.forEach(function (card) { container.appendChild(cardElement(card)); });
    for (var index = cards.length; index < faceDownCount; index += 1) { container.appendChild(cardElement(null)); }
  }

  function renderAll() {
    renderRound();
    renderMe();
    setText("uth-players", String(state.snapshot.players));
  }

  function renderInGame() {
    var round = state.snapshot.round;
    var count = round && round.phase !== "betting" && typeof state.inGame === "number" ? state.inGame : null;
    setText("uth-in-game", count === null ? "" : f(gettext("in this game: %(count)s"), { count: count }));
  }

  function renderRound() {
    var round = state.snapshot.round;
    if (!round) {
      setText("uth-phase", gettext("Waiting for the first round"));
      return;
    }
    var gameNumber = $("uth-game-number");
    // UTH-34: the game number players quote is the round's start time in GMT; the full unique number goes with it.
    gameNumber.textContent = f(gettext("%(time)s GMT"), { time: round.display_number });
    gameNumber.title = f(gettext("Game number %(number)s (quote it to Customer Service)"), { number: round.game_number });
    setText("uth-game-id", round.game_number);
    renderCommitment(round);
    setText("uth-phase", round.paused ? gettext("Paused") : PHASES[round.phase] || round.phase);
    var dealt = round.player_cards.length > 0;
    renderCards("uth-player-cards", round.player_cards, 0);
    renderCards("uth-community", round.community, 0);
    renderCards("uth-dealer-cards", round.dealer_cards, dealt ? 2 : 0);
    setText("uth-player-hand", P.handName(round.player_hand_name || ""));
    var result = round.result;
    setText("uth-dealer-hand", result ? P.handName(result.dealer_hand) + " — " + (result.dealer_qualifies ?
      gettext("qualifies") : gettext("does not qualify")) : "");
    renderStats();
    renderTimer();
    renderInGame();
  }

  // --- provably fair deck (docs/fairness.md) -------------------------------------------------------------------
  /* The commitment of each game is noted in this browser (localStorage, by game number) the first time the page sees
     it, with whether that was before the deal; the Game history's "Verify" compares the revealed seed with it, so the
     check does not rest on what the server says after the game. */
  var COMMITMENTS_KEY = window.UthVerify.COMMITMENTS_KEY;
  var COMMITMENTS_KEPT = 200;
  var notedCommitments = window.UthVerify.notedCommitments;

  function noteCommitment(fairness, beforeDeal) {
    if (!fairness || !fairness.commitment || !fairness.game_number) { return; }
    var noted = notedCommitments();
    if (noted[fairness.game_number]) { return; }  // the first value seen stays: a later change would be caught
    noted[fairness.game_number] = { commitment: fairness.commitment, domain: fairness.domain,
      before_deal: Boolean(beforeDeal), noted_at: new Date().toISOString() };
    var numbers = Object.keys(noted);
    numbers.sort(function (a, b) { return noted[a].noted_at < noted[b].noted_at ? -1 : 1; });
    numbers.slice(0, Math.max(0, numbers.length - COMMITMENTS_KEPT)).forEach(function (number) { delete noted[number]; });
    try { window.localStorage.setItem(COMMITMENTS_KEY, JSON.stringify(noted)); } catch (error) { /* storage full or off */ }
  }

  function renderCommitment(round) {
    var box = $("uth-fairness");
    var fairness = round.fairness;
    if (!box) { return; }
    if (!fairness) { box.hidden = true; return; }
    noteCommitment({ game_number: round.game_number, commitment: fairness.commitment, domain: fairness.domain },
      round.phase === "betting");
    if (box.dataset.commitment !== fairness.commitment || box.dataset.gameNumber !== round.game_number) {
      box.dataset.commitment = fairness.commitment;
      box.dataset.gameNumber = round.game_number;
      box.replaceChildren();
      var summary = document.createElement("summary");
      summary.appendChild(document.createTextNode(gettext("Deck commitment") + " "));
      var short = document.createElement("code");
      short.id = "uth-commitment-short";
      short.setAttribute("translate", "no");
      short.textContent = fairness.commitment.slice(0, 12) + "…";
      summary.appendChild(short);
      box.appendChild(summary);
      var about = document.createElement("p");
      about.textContent = gettext("This game's deck was fixed before any card was dealt; this is its SHA-256 commitment. Once the game is over, Verify in your Game history checks the revealed server seed against it and against the cards dealt.");
      box.appendChild(about);
      [[gettext("Commitment"), "uth-commitment-full", fairness.commitment],
        [gettext("Domain"), "uth-commitment-domain", fairness.domain]].forEach(function (line) {
        var paragraph = document.createElement("p");
        paragraph.appendChild(document.createTextNode(line[0] + ": "));
        var code = document.createElement("code");
        code.id = line[1];
        code.className = "uth-hex";
        code.setAttribute("translate", "no");
        code.textContent = line[2];
        paragraph.appendChild(code);
        box.appendChild(paragraph);
      });
    }
    var status = box.querySelector(".uth-fairness-status");
    if (!status) {
      status = document.createElement("p");
      status.className = "uth-fairness-status";
      status.setAttribute("role", "status");
      box.appendChild(status);
    }
    status.textContent = state.revealed[round.game_number] ?
      gettext("The server seed of this game is revealed: Verify it in your Game history.") : "";
    box.hidden = false;
  }

  var verificationCell = window.UthVerify.cell;  // uth/verify.js: Verify and Download of a finished game

  function renderStats() {
    var stats = state.snapshot.stats;
    var ended = state.snapshot.endedStats;
    var shown = stats && stats.asked ? stats : ended;
    if (!shown || !shown.asked) { setText("uth-stats", gettext("Shown while players decide.")); return; }
    var parts = Object.keys(shown.percent).map(function (name) {
      return (DECISION_LABELS[name] || name) + " " + percentText(shown.percent[name]);
    });
    setText("uth-stats", parts.join(" · ") + " " + f(gettext("(of %(count)s players)"), { count: shown.asked }));
  }

  function renderTimer() {
    var round = state.snapshot.round;
    var light = $("uth-light");
    if (!round || !round.phase_deadline || round.paused) {
      setText("uth-timer", round && round.paused ? gettext("paused") : "—");
      light.dataset.light = round && round.phase === "betting" ? "yellow" : "red";
      light.setAttribute("aria-label", gettext("Betting closed"));
      return;
    }
    var remaining = Math.max(0, Date.parse(round.phase_deadline) - (Date.now() + state.clockOffset));
    var seconds = Math.ceil(remaining / 1000);
    setText("uth-timer", f(gettext("%(seconds)s s"), { seconds: seconds }));
    var color = "red";
    if (round.phase === "betting" && remaining > 0) { color = seconds > 5 ? "green" : "yellow"; }
    light.dataset.light = color;
    light.setAttribute("aria-label", color === "green" ? gettext("Betting open") : color === "yellow" ?
      gettext("Betting time nearly over") : gettext("Betting closed"));
  }

  function selectedChip() {
    var checked = root.querySelector("input[name='uth-chip']:checked");
    return checked ? parseInt(checked.value, 10) : 0;
  }

  function renderMe() {
    var me = state.snapshot.me;
    if (!me) { return; }
    setText("uth-balance", euros(me.balance));
    // The header shows the same cash balance: keep it in step after bets and settlements (no reload needed).
    if (state.headerBalance !== me.balance) {
      state.headerBalance = me.balance;
      P.setHeaderBalance(me.balance);
    }
    var takeSeat = $("uth-take-seat");
    var leave = $("uth-leave");
    if (takeSeat) { takeSeat.hidden = me.seated; leave.hidden = !me.seated; }
    if (chat) { chat.setWritable(Boolean(me.seated)); }
    var round = state.snapshot.round;
    var hand = me.hand && round && me.hand.round_id === round.id ? me.hand : null;
    var amounts = { ante: 0, blind: 0, trips: 0, play: 0 };
    if (hand) { amounts = { ante: hand.ante, blind: hand.blind, trips: hand.trips, play: hand.play }; }
    Object.keys(amounts).forEach(function (spot) {
      var element = root.querySelector("[data-amount='" + spot + "']");
      if (element) { element.textContent = euros(amounts[spot]); }
    });
    setText("uth-total-bet", euros(hand ? hand.total_bet : 0));
    var limits = round ? round.limits : state.snapshot.table.limits;
    setNote("ante", amounts.ante >= limits.ante_maximum ? gettext("Maximum bet") : "");
    setNote("trips", amounts.trips >= limits.trips_maximum ? gettext("Maximum bet") : "");
    var controls = me.controls || { bet: false, repeat: false, double: false, undo: false };
    var ante = $("uth-spot-ante");
    var trips = $("uth-spot-trips");
    if (ante) {
      ante.disabled = !controls.bet;
      trips.disabled = !controls.bet || amounts.ante === 0;
      trips.classList.toggle("blink", controls.bet && amounts.ante > 0 && amounts.trips === 0);
      $("uth-repeat").disabled = !controls.repeat;
      $("uth-double").disabled = !controls.double;
      $("uth-undo").disabled = !controls.undo;
      $("uth-clear").disabled = !controls.undo;
      root.querySelectorAll("input[name='uth-chip']").forEach(function (input) {
        input.disabled = parseInt(input.value, 10) > me.balance;
      });
    }
    renderDecisions(hand);
    renderResult(hand);
    renderHistory(me.history || []);
  }

  function setNote(spot, text) {
    var element = root.querySelector("[data-note='" + spot + "']");
    if (element) { element.textContent = text; }
  }

  function renderDecisions(hand) {
    var options = hand ? hand.options : [];
    var round = state.snapshot.round;
    var me = state.snapshot.me || {};
    // While the player decides, the phase's PLAY options the server left out are the ones the balance cannot cover.
    var plays = options.length && round ? PHASE_PLAYS[round.phase] || [] : [];
    var unaffordable = plays.filter(function (name) { return options.indexOf(name) === -1; });
    var reason = "";
    if (unaffordable.length) {
      var cheapest = unaffordable[unaffordable.length - 1];
      reason = f(gettext("Your balance %(balance)s does not cover a %(multiple)s× play of %(amount)s."),
        { balance: euros(me.balance || 0), multiple: MULTIPLIERS[cheapest], amount: euros(hand.ante * MULTIPLIERS[cheapest]) }) +
        " " + (options.indexOf("check") !== -1 ? gettext("You can still CHECK.") : gettext("You can still FOLD."));
    }
    var reasonBox = $("uth-play-unaffordable");
    if (reasonBox) { reasonBox.textContent = reason; reasonBox.hidden = !reason; }
    root.querySelectorAll("[data-decision]").forEach(function (button) {
      var name = button.dataset.decision;
      var offered = options.indexOf(name) !== -1;
      var blocked = unaffordable.indexOf(name) !== -1;
      button.hidden = !offered && !blocked;
      button.disabled = !offered;
      if (blocked) { button.setAttribute("aria-describedby", "uth-play-unaffordable"); } else { button.removeAttribute("aria-describedby"); }
      button.title = blocked ? reason : "";
      if ((offered || blocked) && MULTIPLIERS[name]) {
        button.textContent = DECISION_LABELS[name] + " (" + euros(hand.ante * MULTIPLIERS[name]) + ")";
      }
    });
    var help = $("uth-decision-help");
    var last = hand && hand.decisions.length ? decisionLabel(hand.decisions[hand.decisions.length - 1]) : "";
    setText("uth-last-decision", last);
    if (!help) { return; }
    if (!hand) {
      help.textContent = gettext("Place an Ante during the betting time to play this round.");
    } else if (options.length) {
      help.textContent = options.indexOf("fold") !== -1 ?
        gettext("Choose before the time runs out; otherwise you are folded automatically (AUTO FOLDED).") :
        gettext("Choose before the time runs out; otherwise you are checked automatically (AUTO CHECKED).");
    } else if (hand.folded) {
      help.textContent = f(gettext("You folded (%(decision)s)."), { decision: last });
    } else if (hand.play) {
      help.textContent = f(gettext("Your PLAY bet is %(amount)s."), { amount: euros(hand.play) });
    } else if (last) {
      help.textContent = f(gettext("Your decision: %(decision)s."), { decision: last });
    } else {
      help.textContent = gettext("Decisions are offered after the cards are dealt.");
    }
  }

  function renderResult(hand) {
    var box = $("uth-result");
    var round = state.snapshot.round;
    if (!hand || !hand.result) {
      box.textContent = round && round.phase === "settled" && round.result ?
        f(gettext("Player hand: %(player)s; dealer: %(dealer)s."), { player: P.handName(round.result.player_hand),
          dealer: P.handName(round.result.dealer_hand) }) : gettext("No result yet.");
      return;
    }
    var result = hand.result;
    box.replaceChildren();
    var heading = document.createElement("p");
    if (result.refunded !== undefined) {
      heading.textContent = resultDescription(result) + " (" + euros(result.refunded) + ")";
      box.appendChild(heading);
      return;
    }
    heading.textContent = resultDescription(result) + ": " + (result.net > 0 ? f(gettext("you win %(amount)s"), { amount: euros(result.net) }) :
      result.net < 0 ? f(gettext("you lose %(amount)s"), { amount: euros(-result.net) }) : gettext("your bets are returned")) + ".";
    heading.className = result.net > 0 ? "win" : result.net < 0 ? "lose" : "";
    box.appendChild(heading);
    var table = document.createElement("table");
    var header = table.createTHead().insertRow();
    [gettext("Bet"), gettext("Stake"), gettext("Outcome"), gettext("Paid back")].forEach(function (title) {
      var cell = document.createElement("th");
      cell.scope = "col";
      cell.textContent = title;
      header.appendChild(cell);
    });
    var body = table.createTBody();
    result.bets.forEach(function (bet) {
      var row = body.insertRow();
      row.insertCell().textContent = SPOTS[bet.spot] || bet.spot.toUpperCase();
      row.insertCell().textContent = euros(bet.stake);
      var outcome = row.insertCell();
      outcome.textContent = bet.outcome === "win" ? f(gettext("Win %(amount)s"), { amount: euros(bet.net) }) :
        bet.outcome === "push" ? gettext("Push") : gettext("Lose");
      outcome.className = bet.outcome;
      row.insertCell().textContent = euros(bet.returned);
    });
    box.appendChild(table);
  }

  function cardText(code) {
    var rank = code.charAt(0);
    return (rank === "T" ? "10" : rank) + (SUITS[code.charAt(1)] || code.charAt(1));
  }

  // One labelled line of cards in a history row ("Your cards: 2♥ 7♦"), with the suit symbols of the table.
  function cardsLine(label, cards) {
    var line = document.createElement("span");
    line.className = "uth-history-cards";
    var name = document.createElement("span");
    name.className = "uth-history-label";
    name.textContent = label + ": ";
    line.appendChild(name);
    cards.forEach(function (code, index) {
      if (index) { line.appendChild(document.createTextNode(" ")); }
      var card = document.createElement("span");
      card.className = "uth-history-card" + (/[hd]$/.test(code) ? " red" : "");
      card.textContent = cardText(code);
      card.setAttribute("aria-label", f(gettext("%(rank)s of %(suit)s"), { rank: RANK_NAMES[code.charAt(0)], suit: SUIT_NAMES[code.charAt(1)] }));
      line.appendChild(card);
    });
    return line;
  }

  // UTH-35: each finished game with its cards labelled, the outcome and what each bet staked and returned.
  function renderHistory(rows) {
    var body = $("uth-history");
    if (!body) { return; }
    body.replaceChildren();
    if (!rows.length) {
      var empty = body.insertRow().insertCell();
      empty.colSpan = 6;
      empty.textContent = gettext("No finished rounds yet.");
      return;
    }
    rows.forEach(function (item) {
      var row = body.insertRow();
      var game = row.insertCell();
      game.textContent = f(gettext("%(time)s GMT"), { time: item.display_number });
      game.title = f(gettext("Game number %(number)s (quote it to Customer Service)"), { number: item.game_number });
      var cards = row.insertCell();
      cards.appendChild(cardsLine(gettext("Your cards"), item.player_cards));
      if (item.dealer_cards.length) {
        cards.appendChild(cardsLine(gettext("Dealer"), item.dealer_cards));
        cards.appendChild(cardsLine(gettext("Board"), item.community));
      }
      row.insertCell().textContent = item.decisions.map(decisionLabel).join(", ");
      row.insertCell().textContent = euros(item.total_bet);
      var outcome = row.insertCell();
      outcome.className = "uth-history-outcome";
      if (item.result && item.result.refunded !== undefined) {
        outcome.textContent = gettext("Cancelled, refunded") + " (" + euros(item.result.refunded) + ")";
      } else if (item.result) {
        var description = document.createElement("span");
        description.className = "uth-history-row";
        description.textContent = resultDescription(item.result);
        outcome.appendChild(description);
        var net = document.createElement("strong");
        net.textContent = (item.result.net > 0 ? "+" : "") + euros(item.result.net);
        net.className = item.result.net > 0 ? "win" : item.result.net < 0 ? "lose" : "";
        outcome.appendChild(net);
        var bets = document.createElement("ul");
        bets.className = "uth-history-bets";
        item.result.bets.forEach(function (bet) {
          var line = document.createElement("li");
          line.dataset.spot = bet.spot;
          line.textContent = f(gettext("%(bet)s: staked %(stake)s, returned %(returned)s"),
            { bet: SPOTS[bet.spot] || bet.spot.toUpperCase(), stake: euros(bet.stake), returned: euros(bet.returned) });
          bets.appendChild(line);
        });
        outcome.appendChild(bets);
      }
      verificationCell(row.insertCell(), item, state.verifications);
    });
  }

  // --- controls ----------------------------------------------------------------------------------------------------

  function bind(id, handler) { var element = $(id); if (element) { element.addEventListener("click", handler); } }

  bind("uth-take-seat", function () { send({ type: "take_seat" }); });
  bind("uth-leave", function () { send({ type: "leave" }); });
  bind("uth-spot-ante", function () { send({ type: "bet", spot: "ante", amount: selectedChip() }); });
  bind("uth-spot-trips", function () { send({ type: "bet", spot: "trips", amount: selectedChip() }); });
  bind("uth-repeat", function () { send({ type: "repeat" }); });
  bind("uth-double", function () { send({ type: "double" }); });
  bind("uth-clear", function () { send({ type: "clear" }); });
  root.querySelectorAll("[data-decision]").forEach(function (button) {
    button.addEventListener("click", function () { send({ type: "decide", decision: button.dataset.decision }); });
  });

  // UNDO: a click removes the last bet; holding it for three seconds removes every bet (UTH-30).
  var undo = $("uth-undo");
  if (undo) {
    var startHold = function () {
      state.undoHeld = false;
      state.undoTimer = window.setTimeout(function () { state.undoHeld = true; send({ type: "clear" }); }, 3000);
    };
    var endHold = function () { window.clearTimeout(state.undoTimer); };
    undo.addEventListener("pointerdown", startHold);
    undo.addEventListener("pointerup", endHold);
    undo.addEventListener("pointerleave", endHold);
    undo.addEventListener("click", function () {
      if (!state.undoHeld) { send({ type: "undo" }); }
      state.undoHeld = false;
    });
  }

  // Shortcut keys (UTH-25, UTH-28..30, UTH-35). Never while typing in a field or in the chat. SPACEBAR is the table's
  // REPEAT, then DOUBLE when pressed again (UTH-28/29), whatever has the focus on the table: a focused bet spot,
  // button or chip does not take the Space as its own click (a button clicks on the Space's keyup, so that is
  // stopped too).
  function typing(target) {
    var tag = target && target.tagName ? target.tagName : "";
    return /^(TEXTAREA|SELECT)$/.test(tag) || (tag === "INPUT" && target.type !== "radio") ||
      Boolean(target && target.isContentEditable);
  }
  function spaceIsTheTables(event) {
    if (event.key !== " " || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) { return false; }
    var me = state.snapshot.me;
    if (!me || !me.controls) { return false; }  // a visitor or a player not seated: Space scrolls the page as usual
    var target = event.target;
    if (chatPanel && target && chatPanel.contains(target)) { return false; }
    return !target || target === document.body || target === document.documentElement || root.contains(target);
  }
  function spacePressed() {
    var me = state.snapshot.me;
    var round = state.snapshot.round;
    if (!me || !me.controls || !round) { return; }
    // REPEAT first; the second Space doubles, even before the server's answer to the REPEAT has come back.
    var repeatedHere = state.spaceRepeatedIn === round.id;
    if (me.controls.repeat && !repeatedHere) {
      state.spaceRepeatedIn = round.id;
      send({ type: "repeat" });
    } else if (me.controls.double || (repeatedHere && me.controls.bet)) {
      send({ type: "double" });
    }
  }
  document.addEventListener("keyup", function (event) {
    if (spaceIsTheTables(event)) { event.preventDefault(); }
  }, true);
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.key === "Escape") { $("uth-help").open = false; return; }
    if (spaceIsTheTables(event)) {
      event.preventDefault();
      event.stopPropagation();
      if (!event.repeat) { spacePressed(); }
      return;
    }
    if (typing(target) || (chatPanel && target && chatPanel.contains(target))) { return; }
    var me = state.snapshot.me;
    if (!me || !me.controls) { return; }
    if (/^[1-9]$/.test(event.key)) {
      var chips = root.querySelectorAll("input[name='uth-chip']");
      var chip = chips[parseInt(event.key, 10) - 1];
      if (chip && !chip.disabled) { chip.checked = true; }
      event.preventDefault();
    } else if (event.key === "Delete" || event.key === "Backspace" ||
      ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z")) {
      event.preventDefault();
      if (me.controls.undo) { send({ type: "undo" }); }
    }
  }, true);

  window.setInterval(renderTimer, 250);
  renderAll();
  connect();
}());
