/* The player socket on every page of a logged-in player (/ws/player/, tournaments/player_socket.py): brings the
   player to their tournament table wherever they are on the site (LOB-05, TRN-26), and keeps the header balance live.

   "Take your seat" (a tournament, Sit & Go or HexaPro game starts, a late registration, a move to another table):
   a banner at the top of the page, never a modal, with a countdown and a "Take your seat" button. When the countdown
   ends the table opens in this tab, unless the player is typing in a form, has just sent one (its answer page calls
   them again) or is at another game's table (a cash or UTH table): there the button stays, so nothing they are doing
   is cut short. The socket's "hello" (on every connection) lists the tournament tables the player is seated at, so a
   page opened or reconnected meanwhile offers them too: nobody is blinded away while reading another page. */
(function () {
  "use strict";
  var P = window.Poker;
  if (!P || document.body.getAttribute("data-authenticated") !== "true") { return; }
  var gettext = P.t;
  var f = function (text, values) { return P.format(text, values, true); };
  var AUTO_OPEN_SECONDS = 8;
  // How long the table page a player was moved from has to take them on itself before this socket's banner does.
  var MOVED_FALLBACK_MILLISECONDS = 4000;
  var tableUrlZero = document.body.getAttribute("data-table-url-zero") || "/games/tables/0/";
  var dismissedKey = "poker.seatBannersDismissed";
  var banners = {};

  function tableUrl(tableId) { return tableUrlZero.replace(/0\/$/, String(tableId) + "/"); }

  function currentTableId() {
    var match = /^\/games\/tables\/(\d+)\/$/.exec(window.location.pathname);
    return match ? Number(match[1]) : null;
  }

  function atAnotherGame() {
    return currentTableId() !== null || /^\/uth\//.test(window.location.pathname);
  }

  function typing() {
    var active = document.activeElement;
    return Boolean(active && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) && active.type !== "hidden");
  }

  function dismissed() {
    try { return JSON.parse(window.sessionStorage.getItem(dismissedKey) || "[]"); } catch (ignored) { return []; }
  }

  function area() {
    var existing = document.getElementById("seat-calls");
    if (existing) { return existing; }
    var created = document.createElement("div");
    created.id = "seat-calls";
    created.className = "seat-calls";
    created.setAttribute("role", "alert");
    document.body.insertBefore(created, document.body.firstChild);
    return created;
  }

  function headline(seat) {
    var name = seat.tournament_name;
    if (seat.reason === "moved") { return f(gettext("You have been moved to another table in %(name)s."), { name: name }); }
    if (seat.reason === "playing") { return f(gettext("You are playing in %(name)s."), { name: name }); }
    if (seat.tournament_kind === "sit_and_go") { return f(gettext("Your Sit & Go %(name)s is starting: take your seat."), { name: name }); }
    if (seat.tournament_kind === "hexapro") { return f(gettext("Your HexaPro game %(name)s is starting: take your seat."), { name: name }); }
    if (seat.reason === "late_registration") { return f(gettext("You are seated in %(name)s: take your seat."), { name: name }); }
    return f(gettext("Your tournament %(name)s is starting: take your seat."), { name: name });
  }

  function remove(tableId) {
    var banner = banners[tableId];
    if (!banner) { return; }
    clearInterval(banner.timer);
    banner.element.remove();
    delete banners[tableId];
  }

  function withFlag(seat, flag) {
    var copy = {};
    Object.keys(seat).forEach(function (key) { copy[key] = seat[key]; });
    copy[flag] = true;
    return copy;
  }

  /* Show (or refresh) the banner for one table; `countdown` false: no automatic opening (a table found by hello). */
  function call(seat, countdown) {
    var here = currentTableId();
    if (here === seat.table_id) { return; }
    var movedFromHere = seat.reason === "moved" && here !== null && here === seat.from_table;
    if (movedFromHere && !seat.tableMissedIt) {
      // The table page the player was moved from takes them on itself (table.js, TRN-26) on the table's own
      // player_moved event. Should that event not reach it (a stalled table socket, a resync answered with a
      // snapshot), this socket calls them a moment later: a moved player is never left at the table they left.
      setTimeout(function () {
        if (currentTableId() === here) { call(withFlag(seat, "tableMissedIt"), countdown); }
      }, MOVED_FALLBACK_MILLISECONDS);
      return;
    }
    if (seat.reason === "playing" && dismissed().indexOf(seat.table_id) >= 0) { return; }
    Object.keys(banners).forEach(function (other) {
      if (banners[other].tournamentId === seat.tournament_id) { remove(other); } // a move replaces the old table
    });
    var element = document.createElement("div");
    element.className = "seat-call notice notice-info";
    element.setAttribute("data-testid", "seat-call");
    element.setAttribute("data-table-id", String(seat.table_id));
    element.setAttribute("data-reason", seat.reason);
    var text = document.createElement("span");
    text.className = "seat-call-text";
    text.textContent = headline(seat);
    var clock = document.createElement("span");
    clock.className = "seat-call-clock";
    clock.setAttribute("data-testid", "seat-call-clock");
    var go = document.createElement("a");
    go.className = "button seat-call-go";
    go.href = tableUrl(seat.table_id);
    go.setAttribute("data-testid", "seat-call-go");
    go.textContent = gettext("Take your seat");
    var close = document.createElement("button");
    close.type = "button";
    close.className = "dismiss";
    close.setAttribute("aria-label", gettext("Dismiss this message"));
    close.textContent = "×";
    close.addEventListener("click", function () {
      var list = dismissed();
      list.push(seat.table_id);
      try { window.sessionStorage.setItem(dismissedKey, JSON.stringify(list.slice(-20))); } catch (ignored) { /* private mode */ }
      remove(seat.table_id);
    });
    element.appendChild(text);
    element.appendChild(clock);
    element.appendChild(go);
    element.appendChild(close);
    area().appendChild(element);
    var banner = { element: element, tournamentId: seat.tournament_id, timer: null };
    banners[seat.table_id] = banner;
    if (!countdown) { return; }
    var dealAt = seat.deal_at ? Date.parse(seat.deal_at) : NaN;
    var openAt = Date.now() + AUTO_OPEN_SECONDS * 1000;
    if (!isNaN(dealAt)) { openAt = Math.min(openAt, Math.max(Date.now() + 3000, dealAt - 1000)); }
    // The table a player was moved from is no other game: its seat is gone, so the new table opens by itself.
    var automatic = movedFromHere || !atAnotherGame();
    function tick() {
      var seconds = Math.max(0, Math.ceil((openAt - Date.now()) / 1000));
      if (!isNaN(dealAt) && dealAt > Date.now()) {
        clock.textContent = f(gettext("First deal in %(seconds)s s."), { seconds: Math.ceil((dealAt - Date.now()) / 1000) });
      } else if (automatic) {
        clock.textContent = f(gettext("Your table opens in %(seconds)s s."), { seconds: seconds });
      } else {
        clock.textContent = gettext("Your table is waiting for you.");
      }
      if (seconds <= 0 && automatic) {
        // A form sent from this page (a registration, a withdrawal) is answered by a page of its own; opening the
        // table now would abort that answer. The answer page's socket says hello and calls the player again.
        if (P.formSent()) { return; }
        if (typing()) {
          automatic = false; // the player is filling in a form: leave them the button
          return;
        }
        clearInterval(banner.timer);
        window.location.assign(go.href);
      }
    }
    tick();
    banner.timer = setInterval(tick, 250);
  }

  function onMessage(message) {
    if (message.type === "hello") {
      P.setHeaderBalance(message.balance_cents);
      (message.seats || []).forEach(function (seat) {
        // A seat of the last minute is called with a countdown as the notice would have; an older one is offered.
        if (!banners[seat.table_id]) { call(seat, seat.reason !== "playing"); }
      });
      return;
    }
    if (message.type !== "notice") { return; }
    if (message.kind === "balance") { P.setHeaderBalance(message.cents); return; }
    if (message.kind === "take_your_seat") { call(message, true); }
  }

  var socket = new P.Socket("/ws/player/", {
    onMessage: onMessage,
    onClose: function (event) { return event.code !== 4401; } // logged out: no reconnecting
  });
  window.Poker.playerSocket = socket;
})();
