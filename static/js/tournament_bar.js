/* The tournament bar at a tournament table and the player's result panel (tournaments/table_bar.py).

   The bar: level and the countdown to the next one, the next blinds and ante, the break (the countdown to the next
   one, or to the end of the one in progress), players left of the entrants, the player's rank, the average stack and
   the next pay jump. It reads /api/tournaments/<id>/bar/ every few seconds, at once when a countdown reaches zero
   (a level or a break starts or ends) and right after a tournament event at the table (table.js dispatches
   "poker:tournament-event"); the countdowns tick every second in between.

   The result panel: once the player is out or has won, their place (and whether it was drawn at random between
   players tied on chips, TRN-22), prize and bounties won, and what to do next (the tournament's lobby, the site's
   lobby, a re-entry where the tournament allows one). Knocked out before the places are given (they wait for late
   registration and the re-buys to end), what the place waits for, until when, and the place or its range so far;
   the poll shows the place once it is given. */
(function () {
  "use strict";
  var P = window.Poker;
  var bar = document.getElementById("tournament-bar");
  if (!P || !bar) { return; }
  var gettext = P.t;
  var f = function (text, values) { return P.format(text, values, true); };
  var result = document.getElementById("tournament-result");
  var url = bar.getAttribute("data-bar-url");
  var POLL_MS = 5000;
  var data = null;
  var fetching = false;
  var soon = null;
  var lastDueRefresh = 0;

  function clock(iso) {
    if (!iso) { return null; }
    var seconds = Math.max(0, Math.round((Date.parse(iso) - Date.now()) / 1000));
    var minutes = Math.floor(seconds / 60);
    var rest = seconds % 60;
    return { seconds: seconds, text: (minutes < 10 ? "0" : "") + minutes + ":" + (rest < 10 ? "0" : "") + rest };
  }

  function blinds(level) {
    var text = P.chips(level.small_blind) + "/" + P.chips(level.big_blind);
    return level.ante ? f(gettext("%(blinds)s, ante %(ante)s"), { blinds: text, ante: P.chips(level.ante) }) : text;
  }

  function item(key, label, value) {
    var wrapper = document.createElement("div");
    wrapper.className = "bar-item";
    wrapper.setAttribute("data-item", key);
    var term = document.createElement("dt");
    term.textContent = label;
    var description = document.createElement("dd");
    description.textContent = value;
    wrapper.appendChild(term);
    wrapper.appendChild(description);
    return wrapper;
  }

  function draw() {
    if (!data) { return; }
    var items = [];
    var due = false;
    if (data.status === "finished") {
      items.push(item("status", gettext("Tournament"), gettext("Finished")));
    } else if (data.level) {
      items.push(item("level", f(gettext("Level %(level)s"), { level: data.level }), blinds(data)));
      if (data.on_break_until) {
        var breakClock = clock(data.on_break_until);
        items.push(item("break", gettext("On a break: play resumes in"), breakClock.text));
        due = due || breakClock.seconds === 0;
      } else if (data.level_ends_at) {
        var levelClock = clock(data.level_ends_at);
        items.push(item("next-level", gettext("Next level in"), levelClock.text));
        due = due || levelClock.seconds === 0;
      }
      if (data.next_level) { items.push(item("next-blinds", gettext("Next blinds"), blinds(data.next_level))); }
      if (data.next_break_at) {
        var nextBreak = clock(data.next_break_at);
        items.push(item("next-break", gettext("Next break in"), nextBreak.text));
        due = due || nextBreak.seconds === 0;
      }
      items.push(item("players", gettext("Players left"), f(gettext("%(left)s of %(entrants)s"), { left: data.players_remaining, entrants: data.entrants })));
      var viewer = data.viewer;
      if (viewer && viewer.rank) {
        items.push(item("rank", gettext("Your rank"), f(gettext("%(rank)s of %(left)s"), { rank: viewer.rank, left: data.players_remaining })));
      }
      if (data.average_stack !== null) { items.push(item("average", gettext("Average stack"), P.chips(data.average_stack))); }
      if (data.next_pay_jump) {
        var jump = data.next_pay_jump;
        items.push(item("pay-jump", gettext("Next pay jump"), jump.players_left === 1 ?
          f(gettext("%(prize)s for the winner"), { prize: P.money(jump.prize) }) :
          f(gettext("%(prize)s at %(left)s players left"), { prize: P.money(jump.prize), left: jump.players_left })));
      } else if (data.paid_places) {
        items.push(item("paid", gettext("Places paid"), String(data.paid_places)));
      }
    }
    bar.replaceChildren.apply(bar, items);
    bar.hidden = items.length === 0;
    drawPurchases();
    drawResult();
    // A level or a break starts or ends now: read again soon (at most every 3 s while the server catches up).
    if (due && Date.now() - lastDueRefresh > 3000) { lastDueRefresh = Date.now(); refreshSoon(500); }
  }

  /* TRN-39: the re-buy and add-on buttons only while the player may use them now (the bar's viewer.purchases, decided
     by the rules the purchase service applies: re-buy period, maximum, stack threshold, the add-on's window). */
  function drawPurchases() {
    var area = document.getElementById("purchase-buttons");
    if (!area) { return; }
    var offers = (data.viewer && !data.viewer.out && data.viewer.purchases) || {};
    var any = false;
    ["rebuy", "add_on"].forEach(function (kind) {
      var form = area.querySelector("[data-purchase=" + kind + "]");
      if (!form) { return; }
      form.hidden = !offers[kind];
      any = any || !!offers[kind];
    });
    var note = area.querySelector("[data-purchase=note]");
    if (note) { note.hidden = !any; }
  }

  function drawResult() {
    if (!result) { return; }
    var viewer = data.viewer;
    if (!viewer || !viewer.out) { result.hidden = true; return; }
    var title = result.querySelector("[data-result=title]");
    var text = result.querySelector("[data-result=text]");
    var lines = [];
    if (viewer.status === "disqualified") {
      title.textContent = gettext("You were disqualified from this tournament.");
    } else if (viewer.status === "qualified") {
      title.textContent = gettext("You are through to Phase 2.");
    } else if (viewer.place === 1) {
      title.textContent = f(gettext("You won %(name)s!"), { name: data.name });
    } else if (viewer.place) {
      title.textContent = f(gettext("You finished in place %(place)s of %(entrants)s."), { place: viewer.place, entrants: data.entrants });
    } else {
      title.textContent = gettext("You are out of the tournament.");
      if (viewer.place_pending) { lines = lines.concat(pendingLines(viewer.place_pending)); }
    }
    if (viewer.place && viewer.place_drawn) { lines.push(drawnLine(viewer.place_drawn, viewer.place)); }
    if (viewer.prize) {
      lines.push(f(gettext("Prize: %(amount)s, paid to your balance."), { amount: P.money(viewer.prize) }));
    } else if (viewer.place) {
      lines.push(gettext("This place pays no prize."));
    }
    if (viewer.bounties_won) { lines.push(f(gettext("Bounties won: %(amount)s."), { amount: P.money(viewer.bounties_won) })); }
    text.textContent = lines.join(" ");
    var reEntry = document.getElementById("tournament-re-entry");
    if (reEntry) {
      reEntry.hidden = !viewer.re_entry;
      if (viewer.re_entry) {
        reEntry.querySelector("button").textContent = f(gettext("Re-enter for %(price)s"), { price: P.money(viewer.re_entry_price) });
      }
    }
    result.hidden = false;
  }

  function timeOfDay(iso) {
    var moment = new Date(iso);
    return moment.toLocaleTimeString(P.language() === "et" ? "et-EE" : "en-GB", { hour: "2-digit", minute: "2-digit" });
  }

  /* TRN-22: a place drawn at random between players tied on chips says so. */
  function drawnLine(drawn, place) {
    return f(gettext("Places %(from)s to %(to)s were drawn at random between players who were tied on chips: you drew place %(place)s."),
      { from: drawn.from, to: drawn.to, place: place });
  }

  /* A knocked-out player waiting for their place (tournaments.readside.place_pending): what it waits for and until
     when, and the place as far as it is known; the poll shows the place as soon as it is given. */
  function pendingLines(pending) {
    var lines = [];
    var values = { level: pending.level, time: pending.at ? timeOfDay(pending.at) : "" };
    if (pending.given === "late_registration") {
      lines.push(pending.at ?
        f(gettext("Your place will be fixed when late registration closes: at the end of level %(level)s, at %(time)s, or earlier if the players left reach the paid places."), values) :
        f(gettext("Your place will be fixed when late registration closes: at the end of level %(level)s, or earlier if the players left reach the paid places."), values));
    } else if (pending.given === "purchases") {
      if (pending.after_break) {
        lines.push(f(gettext("Your place will be fixed when the re-buys and the add-on are over: after the break that follows level %(level)s."), values));
      } else {
        lines.push(pending.at ?
          f(gettext("Your place will be fixed when the re-buy period ends: at the end of level %(level)s, at %(time)s."), values) :
          f(gettext("Your place will be fixed when the re-buy period ends: at the end of level %(level)s."), values));
      }
    } else if (pending.given === "flight_end") {
      lines.push(f(gettext("Your place will be fixed when the flight ends: at the end of level %(level)s at the latest."), values));
    } else if (pending.given === "hand_for_hand") {
      lines.push(gettext("Your place is given when every table has finished this hand-for-hand hand."));
    } else {
      lines.push(gettext("Your place is being given: the players knocked out in the same hand are placed together."));
    }
    if (pending.place && pending.worst_place === pending.place) {
      lines.push(f(gettext("You finish in place %(place)s."), { place: pending.place }));
    } else if (pending.place && pending.worst_place) {
      lines.push(f(gettext("It will be between place %(place)s and place %(worst)s, depending on how many more players register or re-enter."),
        { place: pending.place, worst: pending.worst_place }));
    } else if (pending.place) {
      lines.push(f(gettext("It will be place %(place)s if nobody else registers or re-enters; each player who still does moves you one place down."),
        { place: pending.place }));
    }
    if (pending.drawn) {
      lines.push(f(gettext("Places %(from)s to %(to)s go to players knocked out in the same hand with the same chips: their order was drawn at random."),
        { from: pending.drawn.from, to: pending.drawn.to }));
    }
    if (pending.given !== "soon" && pending.given !== "hand_for_hand") {
      lines.push(gettext("If your place pays a prize, it is paid to your balance as soon as the place is fixed."));
    }
    return lines;
  }

  function refresh() {
    if (fetching) { return; }
    fetching = true;
    P.api(url).then(function (body) {
      fetching = false;
      data = body;
      draw();
    }, function () { fetching = false; });
  }

  function refreshSoon(delay) {
    if (soon !== null) { return; }
    soon = setTimeout(function () { soon = null; refresh(); }, delay);
  }

  document.addEventListener("poker:tournament-event", function () { refreshSoon(400); });
  setInterval(draw, 1000);
  setInterval(refresh, POLL_MS);
  refresh();
})();
