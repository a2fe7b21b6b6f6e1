/* The cash-game lobby: the table list from the lobby socket (/ws/lobby/, docs/protocol.md), updated live without a
   reload, filterable by game, stake and free seats; the player chooses a game and stake and the stake queue assigns
   the table (CASH-04, LOB-01): "Seat me" through the REST stake queue. The Tournaments tab follows the same socket's
   `tournament_changed` notices (live_lists.js): its list is read again from /tournaments/lists/upcoming/ on each
   notice, every time the socket opens (a reconnect's resync) and every few seconds while it is down. */
(function () {
  "use strict";
  var P = window.Poker;
  var gettext = P.t;
  var ngettext = window.ngettext || function (singular, plural, count) { return count === 1 ? singular : plural; };

  var root = document.getElementById("cash-lobby");
  if (!root) { return; }
  var rowsBody = document.getElementById("cash-table-rows");
  var empty = document.getElementById("cash-empty");
  var gameFilter = document.getElementById("filter-game");
  var stakeFilter = document.getElementById("filter-stake");
  var seatsFilter = document.getElementById("filter-seats");
  var status = document.getElementById("lobby-status");
  var notices = document.getElementById("page-notices");
  var authenticated = root.getAttribute("data-authenticated") === "true";
  // A self-excluded player (the page's notice says until when) is offered no seat: the server would refuse it.
  var playRefused = root.getAttribute("data-play-refused") === "true";
  var tables = {};          // id -> lobby row
  var received = false;
  var pollTimer = null;

  // The offered stakes (also those with no open table yet), for the game and stake choices and "seat me".
  var catalogue = [];
  try { catalogue = JSON.parse(document.getElementById("stake-catalogue").textContent) || []; } catch (ignored) { catalogue = []; }

  // The tables the player sits at now (marked in the list).
  var mine = {};
  try {
    (JSON.parse(document.getElementById("my-table-ids").textContent) || []).forEach(function (id) { mine[id] = true; });
  } catch (ignored) { mine = {}; }

  var params = new URLSearchParams(window.location.search);
  var wanted = { game: params.get("game") || "", stake: params.get("stake") || "", seats: params.get("seats") || "" };

  function urlFor(template, id) { return template.replace(/0\/$/, id + "/").replace(/\/0\//, "/" + id + "/"); }
  function tableUrl(id) { return urlFor(root.getAttribute("data-table-url"), id); }

  function blinds(row) {
    if (row.small_blind === null || row.big_blind === null) { return "–"; }
    return P.money(row.small_blind) + " / " + P.money(row.big_blind);
  }

  /* The column the player sorted by (a heading button), or the default order: game, stake, table. */
  var sorting = { key: params.get("sort") || "", descending: params.get("order") === "desc" };
  var SORT_VALUES = {
    name: function (row) { return String(row.name); },
    game: function (row) { return String(row.game_name); },
    stake: function (row) { return row.big_blind || 0; },
    blinds: function (row) { return row.big_blind || 0; },
    buy_in: function (row) { return row.min_buy_in || 0; },
    players: function (row) { return row.players || 0; },
    average_pot: function (row) { return row.average_pot === null ? -1 : row.average_pot; },
    hands_per_hour: function (row) { return row.hands_per_hour || 0; },
    waiting: function (row) { return row.waiting || 0; }
  };

  function defaultOrder(a, b) {
    return String(a.game_name).localeCompare(String(b.game_name)) ||
      (a.big_blind || 0) - (b.big_blind || 0) || String(a.stake).localeCompare(String(b.stake)) ||
      String(a.name).localeCompare(String(b.name)) || a.id - b.id;
  }

  function sortRows(list) {
    var value = SORT_VALUES[sorting.key];
    if (value) {
      return list.sort(function (a, b) {
        var first = value(a), second = value(b);
        var order = typeof first === "string" ? first.localeCompare(second) : first - second;
        return (sorting.descending ? -order : order) || defaultOrder(a, b);
      });
    }
    return list.sort(function (a, b) {
      return String(a.game_name).localeCompare(String(b.game_name)) ||
        (a.big_blind || 0) - (b.big_blind || 0) || String(a.stake).localeCompare(String(b.stake)) ||
        String(a.name).localeCompare(String(b.name)) || a.id - b.id;
    });
  }

  function option(select, value, label) {
    var element = document.createElement("option");
    element.value = value;
    element.textContent = label;
    select.appendChild(element);
  }

  /* Game and stake choices come from the open tables; the stake list follows the chosen game. */
  function rebuildFilters() {
    var all = catalogue.concat(Object.keys(tables).map(function (id) { return tables[id]; }));
    var games = {};
    all.forEach(function (row) { games[row.game] = row.game_name; });
    var selectedGame = gameFilter.value || wanted.game;
    gameFilter.length = 1;
    Object.keys(games).sort(function (a, b) { return games[a].localeCompare(games[b]); }).forEach(function (code) {
      option(gameFilter, code, games[code]);
    });
    if (selectedGame && !games[selectedGame]) { option(gameFilter, selectedGame, selectedGame); }
    gameFilter.value = selectedGame;
    var stakes = {};
    all.forEach(function (row) {
      if (!selectedGame || row.game === selectedGame) {
        var label = row.stake + (row.small_blind !== null ? " (" + blinds(row) + ")" : "");
        if (!stakes[row.stake] || row.big_blind < stakes[row.stake].bigBlind) {
          stakes[row.stake] = { label: label, bigBlind: row.big_blind || 0 };
        }
      }
    });
    var selectedStake = stakeFilter.value || wanted.stake;
    stakeFilter.length = 1;
    Object.keys(stakes).sort(function (a, b) { return stakes[a].bigBlind - stakes[b].bigBlind || a.localeCompare(b); })
      .forEach(function (stake) { option(stakeFilter, stake, stakes[stake].label); });
    if (selectedStake && !stakes[selectedStake]) { option(stakeFilter, selectedStake, selectedStake); }
    stakeFilter.value = selectedStake;
    seatsFilter.value = seatsFilter.value || wanted.seats;
  }

  function matches(row) {
    if (gameFilter.value && row.game !== gameFilter.value) { return false; }
    if (stakeFilter.value && row.stake !== stakeFilter.value) { return false; }
    if (seatsFilter.value === "free" && row.players >= row.seats) { return false; }
    if (seatsFilter.value === "playing" && row.players < 2) { return false; }
    return true;
  }

  function cell(row, label, content, className) {
    var td = document.createElement("td");
    td.setAttribute("data-label", label);
    if (className) { td.className = className; }
    if (content instanceof Node) { td.appendChild(content); } else { td.textContent = content; }
    row.appendChild(td);
    return td;
  }

  function renderRow(data, flash) {
    var tr = document.createElement("tr");
    tr.id = "lobby-table-" + data.id;
    tr.setAttribute("data-table-id", data.id);
    tr.setAttribute("data-game", data.game);
    tr.setAttribute("data-stake", data.stake);
    if (flash) { tr.className = "flash"; }
    var name = document.createElement("a");
    name.href = tableUrl(data.id);
    name.textContent = data.name;
    var nameCell = cell(tr, gettext("Table"), name);
    if (mine[data.id]) {
      tr.className += " my-table";
      tr.setAttribute("data-mine", "true");
      var badge = document.createElement("span");
      badge.className = "my-table-badge";
      badge.textContent = gettext("You play here");
      nameCell.appendChild(badge);
    }
    cell(tr, gettext("Game"), data.game_name, "optional");
    cell(tr, gettext("Stake"), data.stake);
    cell(tr, gettext("Blinds"), blinds(data), "money");
    cell(tr, gettext("Buy-in"), data.min_buy_in !== null ? P.money(data.min_buy_in) + " – " + P.money(data.max_buy_in) : "–", "money");
    var seats = cell(tr, gettext("Seats taken"), data.players + " / " + data.seats, "numeric seats-taken");
    seats.setAttribute("data-players", data.players);
    var pot = cell(tr, gettext("Average pot"), data.average_pot === null ? "–" : P.money(data.average_pot), "money average-pot");
    if (data.average_pot !== null) { pot.setAttribute("data-cents", data.average_pot); }
    cell(tr, gettext("Hands/hour"), String(data.hands_per_hour || 0), "numeric optional");
    cell(tr, gettext("Waiting"), String(data.waiting || 0), "numeric waiting");

    var actions = document.createElement("div");
    actions.className = "lobby-row-actions";
    var watch = document.createElement("a");
    watch.className = "button secondary small";
    watch.href = tableUrl(data.id);
    watch.textContent = gettext("Watch");
    watch.setAttribute("aria-label", P.format(gettext("Watch table %(name)s"), { name: data.name }, true));
    actions.appendChild(watch);
    if (mine[data.id]) {
      // The player's own table: back to it, not "join" again.
      watch.textContent = gettext("Open");
      watch.className = "button small";
      watch.setAttribute("aria-label", P.format(gettext("Open your table %(name)s"), { name: data.name }, true));
      var mineCell = cell(tr, gettext("Actions"), actions, "lobby-row-actions-cell");
      mineCell.removeAttribute("data-label");
      return tr;
    }
    // Seats are assigned (CASH-04): the row offers its stake, not its table; the stake queue picks the table.
    if (playRefused) {
      var refusedCell = cell(tr, gettext("Actions"), actions, "lobby-row-actions-cell");
      refusedCell.removeAttribute("data-label");
      return tr;
    }
    var play = document.createElement("button");
    play.type = "button";
    play.className = "small";
    play.setAttribute("data-action", "play-stake");
    play.textContent = gettext("Play this stake");
    play.setAttribute("aria-label", P.format(gettext("Seat me at %(game)s %(stake)s"),
      { stake: data.stake, game: data.game_name }, true));
    play.addEventListener("click", function () { joinQueue(data); });
    actions.appendChild(play);
    var td = cell(tr, gettext("Actions"), actions, "lobby-row-actions-cell");
    td.removeAttribute("data-label");
    return tr;
  }

  /* Players seated per game over every open table (not only the filtered ones). */
  function drawPlayersOnline() {
    var list = document.getElementById("players-online");
    if (!list) { return; }
    var games = {};
    Object.keys(tables).forEach(function (id) {
      var row = tables[id];
      games[row.game] = games[row.game] || { name: row.game_name, players: 0 };
      games[row.game].players += row.players || 0;
    });
    list.innerHTML = "";
    Object.keys(games).sort(function (a, b) { return games[a].name.localeCompare(games[b].name); }).forEach(function (code) {
      var item = document.createElement("li");
      item.setAttribute("data-game", code);
      item.appendChild(document.createTextNode(games[code].name + ": "));
      var count = document.createElement("strong");
      count.textContent = P.format(ngettext("%(count)s player", "%(count)s players", games[code].players),
        { count: games[code].players }, true);
      count.setAttribute("data-players", games[code].players);
      item.appendChild(count);
      list.appendChild(item);
    });
  }

  function drawSortHeadings() {
    document.querySelectorAll("#cash-tables th[data-sort]").forEach(function (heading) {
      var key = heading.getAttribute("data-sort");
      heading.setAttribute("aria-sort", key === sorting.key ? (sorting.descending ? "descending" : "ascending") : "none");
    });
  }

  document.querySelectorAll("#cash-tables th[data-sort] button").forEach(function (button) {
    button.addEventListener("click", function () {
      var key = button.parentElement.getAttribute("data-sort");
      sorting = { key: key, descending: sorting.key === key ? !sorting.descending : false };
      var query = new URLSearchParams(window.location.search);
      query.set("sort", key);
      query.set("order", sorting.descending ? "desc" : "asc");
      window.history.replaceState(null, "", window.location.pathname + "?" + query.toString() + window.location.hash);
      render();
    });
  });

  // A live update redraws every row. One that lands between the press and the release of a button in the rows (a busy
  // room updates the lobby several times a second) replaces the pressed button, and the browser then fires no click:
  // the player's "Play this stake" did nothing. While a pointer is down on the rows the redraw waits for the release
  // (at most two seconds), then runs after the click that release makes.
  var pressed = false;
  var redrawAfterRelease = null; // the ids of the rows changed meanwhile, or null when no redraw waits
  var pressTimer = null;
  function released() {
    clearTimeout(pressTimer);
    if (!pressed) { return; }
    pressed = false;
    if (redrawAfterRelease) {
      var ids = redrawAfterRelease;
      redrawAfterRelease = null;
      setTimeout(function () { render(ids); }, 0);
    }
  }
  rowsBody.addEventListener("pointerdown", function () {
    pressed = true;
    clearTimeout(pressTimer);
    pressTimer = setTimeout(released, 2000);
  });
  document.addEventListener("pointerup", released);
  document.addEventListener("pointercancel", released);

  function render(changedIds) {
    if (pressed) {
      redrawAfterRelease = (redrawAfterRelease || []).concat(changedIds || []);
      return;
    }
    drawPlayersOnline();
    drawSortHeadings();
    var changed = {};
    (changedIds || []).forEach(function (id) { changed[id] = true; });
    var list = sortRows(Object.keys(tables).map(function (id) { return tables[id]; })).filter(matches);
    var focusedId = document.activeElement && document.activeElement.closest &&
      document.activeElement.closest("tr[data-table-id]") ? document.activeElement.closest("tr").getAttribute("data-table-id") : null;
    var focusedAction = focusedId ? document.activeElement.getAttribute("data-action") || "link" : null;
    rowsBody.innerHTML = "";
    list.forEach(function (row) { rowsBody.appendChild(renderRow(row, changed[row.id])); });
    empty.hidden = !received || list.length > 0;
    if (focusedId) {
      // Keep keyboard focus on the same control when a live update redraws the rows.
      var again = document.getElementById("lobby-table-" + focusedId);
      var target = again && (focusedAction === "link" ? again.querySelector("a") : again.querySelector("[data-action]"));
      if (target) { target.focus(); }
    }
  }

  function rememberFilters() {
    var query = new URLSearchParams(window.location.search);
    ["game", "stake", "seats"].forEach(function (name) {
      var value = { game: gameFilter, stake: stakeFilter, seats: seatsFilter }[name].value;
      if (value) { query.set(name, value); } else { query.delete(name); }
    });
    var text = query.toString();
    window.history.replaceState(null, "", window.location.pathname + (text ? "?" + text : "") + window.location.hash);
  }

  gameFilter.addEventListener("change", function () {
    stakeFilter.value = "";
    wanted.stake = "";
    wanted.game = gameFilter.value;
    rebuildFilters();
    rememberFilters();
    render();
  });
  stakeFilter.addEventListener("change", function () { wanted.stake = stakeFilter.value; rememberFilters(); render(); });
  seatsFilter.addEventListener("change", function () { wanted.seats = seatsFilter.value; rememberFilters(); render(); });

  function replaceAll(rows) {
    tables = {};
    rows.forEach(function (row) { tables[row.id] = row; });
    received = true;
    rebuildFilters();
    render();
    if (typeof updatePlayButton === "function") { updatePlayButton(); }
  }

  function update(rows, removed) {
    var changed = [];
    rows.forEach(function (row) { tables[row.id] = row; changed.push(row.id); });
    (removed || []).forEach(function (id) { delete tables[id]; });
    rebuildFilters();
    render(changed);
  }

  var STATUS_TEXT = {
    connecting: gettext("Connecting…"),
    live: gettext("Live"),
    reconnecting: gettext("Reconnecting…"),
    closed: gettext("Not updating")
  };
  var upcomingTournaments = document.getElementById("lobby-tournaments");
  var tournamentLists = upcomingTournaments && P.LiveLists ? P.LiveLists({
    url: upcomingTournaments.getAttribute("data-lists-url"),
    blocks: ["lobby-tournaments"],
    root: upcomingTournaments
  }) : null;

  function showStatus(state) {
    status.setAttribute("data-state", state);
    status.textContent = STATUS_TEXT[state] || state;
    if (tournamentLists) { tournamentLists.followSocket(state); }
    if (state === "live") {
      stopPolling();
    } else if (!pollTimer) {
      // The socket is down: keep the list fresh over HTTP until it is back.
      pollTimer = setInterval(poll, 10000);
      if (!received) { poll(); }
    }
  }
  function stopPolling() { clearInterval(pollTimer); pollTimer = null; }
  function poll() {
    P.api(root.getAttribute("data-lobby-api")).then(function (rows) { if (Array.isArray(rows)) { replaceAll(rows); } },
      function () { /* the status line already says we are not live */ });
  }

  var socket = new P.Socket(root.getAttribute("data-lobby-socket"), {
    onStatus: showStatus,
    // Opened or opened again: a tournament that changed before it (or while it was down) had no notice here.
    onOpen: function () { if (tournamentLists) { tournamentLists.readSoon(); } },
    onMessage: function (message) {
      if (message.type === "lobby") { replaceAll(message.tables || []); }
      else if (message.type === "tournament_changed") { if (tournamentLists) { tournamentLists.readSoon(); } }
      else if (message.type === "lobby_update") { update(message.tables || [], message.removed || []); }
      else if (message.type === "error") { P.notify(notices, P.errorText(message.code, message.message), "error"); }
    }
  });
  window.lobbySocket = socket;

  function balance() {
    var element = document.getElementById("header-balance");
    return element ? Number(element.getAttribute("data-cents")) : undefined;
  }

  // --- Seating queue (CASH-04/05): "seat me at this stake" (the chosen stake, or a row's "Play this stake"). ---

  var playStake = document.getElementById("play-stake");
  var queueBox = document.getElementById("queue-status");
  var queueText = document.getElementById("queue-text");
  var queueLeave = document.getElementById("queue-leave");
  var queued = null;          // {stakeId, label}
  var queueTimer = null;

  /* Joining and leaving go to the API; the page endpoint tells where the player stands while waiting. */
  function queueUrl(stakeId) { return urlFor(root.getAttribute("data-queue-url"), stakeId); }
  function queueApiUrl(stakeId) { return urlFor(root.getAttribute("data-queue-api-url"), stakeId); }

  /* The row that stands for the chosen game and stake (its stake id, blinds and buy-in range). */
  function chosenStakeRow() {
    if (!gameFilter.value || !stakeFilter.value) { return null; }
    var rows = catalogue.concat(Object.keys(tables).map(function (id) { return tables[id]; })).filter(function (row) {
      return row.game === gameFilter.value && row.stake === stakeFilter.value;
    });
    return rows[0] || null;
  }

  function updatePlayButton() {
    var row = chosenStakeRow();
    playStake.disabled = !row;
    playStake.textContent = row ? P.format(gettext("Seat me at %(game)s %(stake)s"), { game: row.game_name, stake: row.stake }, true) :
      gettext("Seat me at this stake");
  }
  [gameFilter, stakeFilter].forEach(function (select) { select.addEventListener("change", updatePlayButton); });

  function showQueue(answer, label) {
    if (answer.status === "seated" && answer.table_id) {
      window.location.href = tableUrl(answer.table_id);
      return;
    }
    clearTimeout(queueTimer);
    if (answer.status === "waiting") {
      queueBox.hidden = false;
      queueText.textContent = P.format(gettext("You are on the waiting list for %(stake)s (number %(position)s). You will be seated as soon as a table can take you; keep this page open."),
        { stake: label, position: answer.position || "…" }, true) + (answer.message ? " " + answer.message : "");
      queueTimer = setTimeout(pollQueue, 3000);
      return;
    }
    queueBox.hidden = true;
    queued = null;
    if (answer.status === "failed") {
      P.notify(notices, answer.message ? P.format(gettext("You could not be seated: %(reason)s"), { reason: answer.message }, true) :
        gettext("You could not be seated."), "error");
    }
  }

  function pollQueue() {
    if (!queued) { return; }
    var current = queued;
    P.api(queueUrl(current.stakeId)).then(function (answer) {
      if (queued === current) { showQueue(answer, current.label); }
    }, function () { queueTimer = setTimeout(pollQueue, 6000); });
  }

  function joinQueue(row) {
    if (!authenticated) {
      window.location.href = root.getAttribute("data-login-url") + "?next=" + encodeURIComponent(window.location.pathname);
      return;
    }
    var label = row.game_name + " " + row.stake;
    var idempotencyKey = P.newId("join");  // one per dialog: a second submit of it is answered, not seated again
    window.BuyIn.open({
      title: P.format(gettext("Play %(stake)s (%(blinds)s)"), { stake: label, blinds: blinds(row) }, true),
      minimum: row.min_buy_in,
      maximum: row.max_buy_in,
      balance: balance(),
      // The player's own limits at this stake (LOB-05): ratholing (CASH-11..14), Banzai Resume / Reset (CASH-30/31).
      limitsUrl: urlFor(root.getAttribute("data-buy-in-url"), row.stake_id),
      submit: function (cents, postBigBlind, banzaiChoice) {
        var body = { buy_in: cents, post_big_blind: postBigBlind };
        if (banzaiChoice) { body.banzai_choice = banzaiChoice; }
        return P.api(queueApiUrl(row.stake_id), { method: "POST", body: body, idempotencyKey: idempotencyKey })
          .then(function (answer) {
            queued = { stakeId: row.stake_id, label: label };
            showQueue(answer, label);
            if (answer.status === "waiting") { pollQueue(); }
            if (answer.status === "failed") {
              var error = new Error(answer.message);
              error.text = P.format(gettext("You could not be seated: %(reason)s"), { reason: answer.message }, true);
              throw error;
            }
          });
      }
    });
  }

  playStake.addEventListener("click", function () {
    var row = chosenStakeRow();
    if (row) { joinQueue(row); }
  });
  // A request still waiting from before a reload (or from another page): show it and follow it again.
  var waitingNow = [];
  try { waitingNow = JSON.parse(document.getElementById("my-queue").textContent) || []; } catch (ignored) { waitingNow = []; }
  if (waitingNow.length) {
    queued = { stakeId: waitingNow[0].stake_id, label: waitingNow[0].label };
    pollQueue();
  }

  queueLeave.addEventListener("click", function () {
    if (!queued) { queueBox.hidden = true; return; }
    var current = queued;
    P.api(queueApiUrl(current.stakeId), { method: "DELETE" }).then(function () {
      queued = null;
      clearTimeout(queueTimer);
      queueBox.hidden = true;
      P.notify(notices, gettext("You left the waiting list."), "ok");
    }, function (error) { P.notify(notices, error.text, "error"); });
  });
}());
