/* The buy-in dialog shared by the lobby and the table page (templates/games/buy_in_dialog.html).
   BuyIn.open({title, minimum, maximum, bigBlind, balance, allowPostBigBlind, limitsUrl,
                submit(cents, postBigBlind, banzaiChoice) -> Promise})
   The dialog opens with the table's range; with ``limitsUrl`` (GET /api/games/tables/<id>/buy-in/ on a table's page,
   GET /api/games/stakes/<id>/buy-in/ in the lobby, which has the same answer) it then shows the
   player's own limits there and why (LOB-05: the ratholing limits of a table they left, CASH-11..14) and, for a
   Banzai player back with more than 10 big blinds, the Resume or Reset choice (CASH-30/31). A refusal from the server
   is shown inside the dialog. */
(function () {
  "use strict";
  var P = window.Poker;
  var gettext = P.t;

  var dialog, form, amount, limits, notices, tableLine, postBigBlind, confirm, current;
  var banzai, banzaiResume, banzaiReset, banzaiResetChoice, lastSuggestion;

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
    banzai = document.getElementById("buy-in-banzai");
    banzaiResume = document.getElementById("buy-in-banzai-resume");
    banzaiReset = document.getElementById("buy-in-banzai-reset");
    banzaiResetChoice = document.getElementById("buy-in-banzai-reset-choice");
    if (banzai) {
      banzai.addEventListener("change", function () {
        if (!current || !current.banzai) { return; }
        var choice = banzaiChoice();
        var cents = choice === "reset" ? current.banzai.resetAmount : current.banzai.resumeStack;
        current.minimum = current.maximum = cents;
        showLimits(current, current.reason);
      });
    }
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
    var request = current;
    confirm.disabled = true;
    // The player's own limits (asked for when the dialog opened) decide what is checked here: wait for them.
    Promise.resolve(request.limitsRequest).then(function () {
      if (current !== request) { return; }
      // A table with one buy-in amount (Banzai: exactly 10 big blinds, CASH-26) says so, never "€1.00 to €1.00"; a
      // returning Banzai player's Resume / Reset choice is left to the server. When the player's own limits could not
      // be read, the table's amount may not be theirs: the server decides.
      var ownLimitsKnown = !request.limitsUrl || request.ownLimitsKnown;
      if (ownLimitsKnown && request.minimum === request.maximum && !request.banzai && cents !== request.minimum) {
        confirm.disabled = false;
        P.notify(notices, P.format(gettext("The buy-in at this table is exactly %(amount)s."), { amount: P.money(request.minimum) }, true), "error");
        amount.focus();
        return;
      }
      // The server applies the exact rules (ratholing, Banzai carry-over) and says in words what it refuses, so
      // nothing else is second-guessed here.
      request.submit(cents, !!(postBigBlind && postBigBlind.checked), request.banzai ? banzaiChoice() : undefined).then(function () {
        confirm.disabled = false;
        if (current === request) { close(); }
      }, function (error) {
        confirm.disabled = false;
        P.notify(notices, error && error.text ? error.text : P.errorText(error && error.code, error && error.message), "error");
        amount.focus();
      });
    });
  }

  function banzaiChoice() {
    return banzaiResetChoice && banzaiResetChoice.checked ? "reset" : "resume";
  }

  /* Show ``options``' range (the table's, or the player's own once known) and suggest an amount within it. */
  function showLimits(options, reason, keepTypedAmount) {
    var text = options.minimum === options.maximum
      ? P.format(gettext("The buy-in at this table is exactly %(amount)s."), { amount: P.money(options.minimum) }, true)
      : P.format(gettext("Buy in between %(minimum)s and %(maximum)s."),
        { minimum: P.money(options.minimum), maximum: P.money(options.maximum) }, true);
    if (reason) { text += " " + reason; }
    if (typeof options.balance === "number") {
      text += " " + P.format(gettext("Your balance: %(balance)s."), { balance: P.money(options.balance) }, true);
    }
    limits.textContent = text;
    var suggested = options.maximum;
    if (typeof options.balance === "number") { suggested = Math.min(suggested, Math.max(options.minimum, options.balance)); }
    // An amount the player has typed meanwhile stays: the limits arrive after the dialog opens.
    if (keepTypedAmount && amount.value !== lastSuggestion) { return; }
    amount.value = lastSuggestion = P.centsToInput(suggested);
  }

  /* The player's own limits at this table (LOB-05), when they differ from the table's range. */
  function showOwnLimits(options, answer) {
    if (current !== options || !answer) { return; }
    options.ownLimitsKnown = true;
    options.minimum = answer.minimum;
    options.maximum = answer.maximum;
    var reason = answer.kind === "normal" && answer.returning_stack === null ? "" : answer.rule + ".";
    options.reason = reason;
    if (banzai && typeof answer.banzai_resume_stack === "number" && typeof answer.banzai_reset_amount === "number") {
      options.banzai = { resumeStack: answer.banzai_resume_stack, resetAmount: answer.banzai_reset_amount };
      banzaiResume.textContent = P.format(gettext("Resume with %(amount)s"), { amount: P.money(answer.banzai_resume_stack) }, true);
      banzaiReset.textContent = P.format(gettext("Reset to %(amount)s (%(count)s resets left today)"),
        { amount: P.money(answer.banzai_reset_amount), count: answer.banzai_resets_left }, true);
      banzai.hidden = false;
    }
    showLimits(options, reason, true);
  }

  function open(options) {
    if (!dialog && !setup()) { return; }
    current = options;
    P.clearNotices(notices);
    tableLine.textContent = options.title || "";
    if (banzai) {
      banzai.hidden = true;
      banzaiResetChoice.checked = false;
      banzai.querySelector("input[value='resume']").checked = true;
    }
    showLimits(options, "");
    if (options.limitsUrl) {
      // Until the answer arrives the table's range stands; the server checks the exact limits on submit anyway.
      options.limitsRequest = P.api(options.limitsUrl).then(function (answer) { showOwnLimits(options, answer); }, function () {});
    }
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
