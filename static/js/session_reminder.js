/* The session reminder: after the player's chosen interval of being logged in, a dialog with the session's length
   and net result (from the ledger, fetched when it shows) and buttons to continue or log out. The server stores only
   the session's start; this page keeps the count.

   At a game table (a poker table, a UTH table) it is a banner at the top that blocks nothing: a modal there would
   cover the action buttons while the player's clock runs down behind it. Elsewhere it is a modal dialog. */
(function () {
  "use strict";
  var dialog = document.getElementById("session-reminder");
  if (!dialog || !window.Poker) { return; }
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (text, values) {
    return text.replace(/%\((\w+)\)s/g, function (_, name) { return values[name]; });
  };
  var timer = null;

  function atATable() { return Boolean(document.getElementById("table-app") || document.getElementById("uth")); }

  function schedule(seconds) {
    if (timer !== null) { window.clearTimeout(timer); }
    // Browsers cap timeouts near 24.8 days; a reminder is at most a few hours away.
    timer = window.setTimeout(check, Math.max(0, Math.min(seconds, 86400)) * 1000);
  }

  function describe(figures) {
    var hours = Math.floor(figures.minutes / 60);
    var minutes = figures.minutes % 60;
    var length = hours
      ? interpolate(gettext("%(hours)s h %(minutes)s min"), { hours: hours, minutes: minutes }, true)
      : interpolate(gettext("%(minutes)s min"), { minutes: minutes }, true);
    return interpolate(
      gettext("You have been logged in for %(length)s. Your net result this session: %(result)s."),
      { length: length, result: window.Poker.money(figures.net_result) },
      true
    );
  }

  function check() {
    window.Poker.api(dialog.dataset.sessionUrl).then(function (figures) {
      if (figures.reminder_in_seconds > 0) { schedule(figures.reminder_in_seconds); return; } // continued elsewhere
      dialog.querySelector("[data-testid=session-reminder-text]").textContent = describe(figures);
      if (dialog.open) { return; }
      if (atATable()) {
        dialog.classList.add("session-reminder-banner");
        var focused = document.activeElement;
        dialog.show(); // not modal: the table and its buttons stay usable
        // show() focuses the dialog's first button; give the focus back (the table's keyboard shortcuts keep working).
        if (focused && focused !== document.body && typeof focused.focus === "function") { focused.focus(); }
      } else {
        dialog.showModal();
      }
    }, function () { schedule(60); });
  }

  document.getElementById("session-reminder-continue").addEventListener("click", function () {
    window.Poker.api(dialog.dataset.continueUrl, { method: "POST" }).then(function (figures) {
      dialog.close();
      schedule(figures.reminder_in_seconds);
    }, function () { dialog.close(); schedule(60); });
  });
  dialog.addEventListener("cancel", function (event) { event.preventDefault(); }); // answer with a button

  schedule(Number(dialog.dataset.dueIn || 0));
})();
