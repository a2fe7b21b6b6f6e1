/* The tournament lobby (LOB-02).

   Filters (game, type, buy-in, status) and sorting, applied in the page to the rows of the scheduled tournaments and
   the Sit & Go games; the choice is kept in the address (?type=bounty&sort=buy_in), so a reload or a shared link shows
   the same list. HexaPro games have their own page: choosing that type points to it.

   Live: the page listens to the tournament lobby socket (/ws/tournaments/, docs/protocol.md), whose
   `tournament_changed` notice says a tournament's registrations or state changed, and reads its lists again from the
   server (/tournaments/lists/: the page's own markup, for this player) — registrations and entrant counts,
   registering → running → finished, the player's own tournaments and tickets — without a reload. A burst of notices
   is read once (one read at a time, one more after it when notices came meanwhile). The socket reconnects by itself;
   every time it opens the lists are read again, for what changed while it was down (a resync), and while it is down
   they are read every few seconds. */
(function () {
  "use strict";
  var P = window.Poker;
  var form = document.getElementById("tournament-filters");
  if (!form) { return; }
  var none = document.getElementById("no-tournament-matches");
  var hexapro = document.getElementById("hexapro-offer");
  var root = document.getElementById("tournament-lobby");

  function bodies() {
    return Array.prototype.slice.call(document.querySelectorAll("#scheduled-tournaments tbody, #sit-and-go-tournaments tbody"));
  }

  function chosen() {
    var values = {};
    Array.prototype.forEach.call(form.elements, function (element) { if (element.name) { values[element.name] = element.value; } });
    return values;
  }

  function matches(row, values) {
    if (values.type === "hexapro") { return false; }
    if (values.game && row.getAttribute("data-game") !== values.game) { return false; }
    if (values.type && (" " + row.getAttribute("data-types") + " ").indexOf(" " + values.type + " ") < 0) { return false; }
    if (values.status && (" " + row.getAttribute("data-status") + " ").indexOf(" " + values.status + " ") < 0) { return false; }
    if (values.buy_in) {
      var bounds = values.buy_in.split("-");
      var price = Number(row.getAttribute("data-price"));
      if (price < Number(bounds[0]) || (bounds[1] !== "" && price > Number(bounds[1]))) { return false; }
    }
    return true;
  }

  function key(row, sort) {
    if (sort === "buy_in") { return Number(row.getAttribute("data-price")); }
    if (sort === "entrants") { return -Number(row.getAttribute("data-entrants")); }
    if (sort === "name") { return row.getAttribute("data-name").toLocaleLowerCase(); }
    return row.getAttribute("data-starts") || "9999"; // a Sit & Go starts when full: after the scheduled ones
  }

  function apply() {
    var values = chosen();
    var shown = 0;
    var lists = bodies();
    lists.forEach(function (body) {
      var rows = Array.prototype.slice.call(body.querySelectorAll("tr[data-tournament-id]"));
      rows.sort(function (a, b) {
        var left = key(a, values.sort), right = key(b, values.sort);
        return left < right ? -1 : left > right ? 1 : 0;
      });
      rows.forEach(function (row) {
        row.hidden = !matches(row, values);
        if (!row.hidden) { shown += 1; }
        body.appendChild(row);
      });
    });
    if (hexapro) { hexapro.hidden = values.type !== "hexapro"; }
    if (none) { none.hidden = shown > 0 || values.type === "hexapro" || lists.length === 0; }
    var query = new URLSearchParams();
    Object.keys(values).forEach(function (name) { if (values[name] && !(name === "sort" && values[name] === "starts")) { query.set(name, values[name]); } });
    var search = query.toString();
    if (window.history.replaceState) { window.history.replaceState(null, "", window.location.pathname + (search ? "?" + search : "")); }
  }

  var initial = new URLSearchParams(window.location.search);
  Array.prototype.forEach.call(form.elements, function (element) {
    if (element.name && initial.has(element.name)) { element.value = initial.get(element.name); }
    element.addEventListener("change", apply);
  });
  form.addEventListener("submit", function (event) { event.preventDefault(); apply(); });
  apply();

  if (!root || !P || !P.Socket || !P.LiveLists) { return; }

  // --- Live lists (live_lists.js) ------------------------------------------------------------------------------
  var status = document.getElementById("tournament-lobby-status");
  var lists = P.LiveLists({
    url: root.getAttribute("data-lists-url"),
    blocks: ["tournament-lobby-mine", "tournament-lobby-lists"],
    root: root,
    onShown: apply  // filter, sort and show as before
  });

  var STATUS_TEXT = {
    connecting: P.t("Connecting…"),
    live: P.t("Live"),
    reconnecting: P.t("Reconnecting…"),
    closed: P.t("Not updating")
  };
  function showStatus(state) {
    if (status) {
      status.setAttribute("data-state", state);
      status.textContent = STATUS_TEXT[state] || state;
    }
    lists.followSocket(state);
  }

  var socket = new P.Socket(root.getAttribute("data-socket"), {
    onStatus: showStatus,
    // Opened or opened again: what changed before it (or while it was down) had no notice here, so read it all.
    onOpen: lists.readSoon,
    onMessage: function (message) {
      if (message.type === "tournament_changed") { lists.readSoon(); }
    }
  });
  window.tournamentLobbySocket = socket;
})();
