/* The buy-in dialog shared by the lobby and the table page (templates/games/buy_in_dialog.html).
   BuyIn.open({title, minimum, maximum, bigBlind, balance, allowPostBigBlind, submit(cents, postBigBlind) -> Promise})
   The amount is bounded by the table's minimum and maximum; a refusal from the server is shown inside the dialog. */
(function () {
  "use strict";
  var P = window.Poker;
  var gettext = P.t;

  var dialog, form, amount, limits, notices, tableLine, postBigBlind, confirm, current;

  function setup() {
    dialog = document.getElementById("buy-in-dialog");
    if (!dialog) { return false; }
    form = document.getElementById("buy-in-form");
    amount = document.getElementById("buy-in-amount");
    limits = document.getElementById("buy-in-limits");
    notices = document.getElementById("buy-in-notices");
    tableLine = document.getElementById("buy-in-table");
    postBigBlind = document.getElementById("buy-in-post-big-blind");
    confirm = document.getElementById("buy-in-confirm");
    document.getElementById("buy-in-cancel").addEventListener("click", close);
    dialog.querySelectorAll("[data-buy-in]").forEach(function (button) {
      button.addEventListener("click", function () {
        if (!current) { return; }
        var value = button.getAttribute("data-buy-in") === "min" ? current.minimum : current.maximum;
        if (button.getAttribute("data-buy-in") === "max" && typeof current.balance === "number") {
          value = Math.max(current.minimum, Math.min(value, current.balance));
        }
        amount.value = P.centsToInput(value);
        amount.focus();
      });
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      submit();
    });
    dialog.addEventListener("cancel", function () { current = null; });
    return true;
  }

  function close() {
    current = null;
    if (dialog && dialog.open) { dialog.close(); }
  }

  function submit() {
    if (!current) { return; }
    P.clearNotices(notices);
    var cents = P.parseMoney(amount.value);
    if (cents === null || cents <= 0) {
      P.notify(notices, gettext("Please enter the buy-in in euros, for example 10 or 10.50."), "error");
      amount.focus();
      return;
    }
    // The limits shown are the table's usual range; the server applies the exact rules (ratholing, Banzai carry-over)
    // and says in words what it refuses, so nothing else is second-guessed here.
    confirm.disabled = true;
    var request = current;
    request.submit(cents, !!(postBigBlind && postBigBlind.checked)).then(function () {
      confirm.disabled = false;
      if (current === request) { close(); }
    }, function (error) {
      confirm.disabled = false;
      P.notify(notices, error && error.text ? error.text : P.errorText(error && error.code, error && error.message), "error");
      amount.focus();
    });
  }

  function open(options) {
    if (!dialog && !setup()) { return; }
    current = options;
    P.clearNotices(notices);
    tableLine.textContent = options.title || "";
    var text = P.format(gettext("Buy in between %(minimum)s and %(maximum)s."),
      { minimum: P.money(options.minimum), maximum: P.money(options.maximum) }, true);
    if (typeof options.balance === "number") {
      text += " " + P.format(gettext("Your balance: %(balance)s."), { balance: P.money(options.balance) }, true);
    }
    limits.textContent = text;
    var suggested = options.maximum;
    if (typeof options.balance === "number") { suggested = Math.min(suggested, Math.max(options.minimum, options.balance)); }
    amount.value = P.centsToInput(suggested);
    if (postBigBlind) {
      postBigBlind.checked = false;
      postBigBlind.closest("p").hidden = options.allowPostBigBlind === false;
    }
    confirm.disabled = false;
    if (typeof dialog.showModal === "function") { dialog.showModal(); } else { dialog.setAttribute("open", ""); }
    amount.focus();
    amount.select();
  }

  window.BuyIn = { open: open, close: close };
}());
