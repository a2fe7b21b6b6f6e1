/* Before money is taken at a tournament table: "Re-enter" (TRN-40), "Re-buy" and "Add-on" (TRN-39) ask first, in the
   page's dialog, saying what is taken from the player's balance (buy-in, bounty part and fee, and the total, as the
   page formats money) and how many chips the player receives; the purchase's form is sent only when the player
   presses Confirm. The figures are the tournament's terms in the table's snapshot (its re_entry, rebuy and add_on
   blocks, tournaments/table_policy.py); the server checks the purchase again when it arrives. A purchase that costs
   nothing is sent at once, as registering for a freeroll is. */
(function () {
  "use strict";
  var P = window.Poker;
  var dialog = document.getElementById("purchase-confirm");
  var snapshotScript = document.getElementById("initial-snapshot");
  if (!P || !dialog || !snapshotScript) { return; }
  var gettext = P.t;
  var f = function (text, values) { return P.format(text, values, true); };
  var table = (JSON.parse(snapshotScript.textContent) || {}).table || {};
  var title = document.getElementById("purchase-confirm-title");
  var charge = document.getElementById("purchase-confirm-charge");
  var chips = document.getElementById("purchase-confirm-chips");
  var confirmButton = document.getElementById("purchase-confirm-yes");
  var cancelButton = document.getElementById("purchase-confirm-no");
  var pending = null;    // the purchase's form the dialog asks about
  var confirmed = null;  // the form being sent after Confirm (its submit event passes)

  var PURCHASES = [
    { form: document.getElementById("tournament-re-entry"), terms: table.re_entry, title: gettext("Re-enter the tournament?") },
    { form: document.querySelector("#purchase-buttons form[data-purchase=rebuy]"), terms: table.rebuy, title: gettext("Re-buy?") },
    { form: document.querySelector("#purchase-buttons form[data-purchase=add_on]"), terms: table.add_on, title: gettext("Take the add-on?") }
  ];

  function total(terms) {
    return Number(terms.buy_in || 0) + Number(terms.bounty || 0) + Number(terms.fee || 0);
  }

  function chargeText(terms) {
    var buyIn = Number(terms.buy_in || 0);
    var bounty = Number(terms.bounty || 0);
    var fee = Number(terms.fee || 0);
    var parts = bounty ?
      f(gettext("Buy-in %(buy_in)s + bounty %(bounty)s + fee %(fee)s"), { buy_in: P.money(buyIn), bounty: P.money(bounty), fee: P.money(fee) }) :
      f(gettext("Buy-in %(buy_in)s + fee %(fee)s"), { buy_in: P.money(buyIn), fee: P.money(fee) });
    return f(gettext("%(parts)s = %(total)s will be taken from your balance."), { parts: parts, total: P.money(total(terms)) });
  }

  function ask(purchase, form) {
    pending = form;
    title.textContent = purchase.title;
    if (purchase.terms) {
      charge.textContent = chargeText(purchase.terms);
      chips.textContent = f(gettext("You receive %(chips)s chips."), { chips: P.chips(purchase.terms.chips) });
    } else {
      // Terms the snapshot does not carry: the button's own words name the price and the chips.
      charge.textContent = form.querySelector("button[type=submit]").textContent;
      chips.textContent = "";
    }
    dialog.showModal();
    // Cancel has the focus: a second press of Enter, or of the purchase button, takes no money.
    cancelButton.focus();
  }

  PURCHASES.forEach(function (purchase) {
    if (!purchase.form) { return; }
    purchase.form.addEventListener("submit", function (event) {
      if (confirmed === purchase.form) { return; }
      if (purchase.terms && total(purchase.terms) === 0) { return; }
      event.preventDefault();
      ask(purchase, purchase.form);
    });
  });
  confirmButton.addEventListener("click", function () {
    var form = pending;
    pending = null;
    dialog.close();
    if (form) {
      // Only this submission passes: a page restored from the back-forward cache asks again before the next one.
      confirmed = form;
      form.requestSubmit();
      confirmed = null;
    }
  });
  cancelButton.addEventListener("click", function () { dialog.close(); });
  dialog.addEventListener("close", function () { pending = null; });
})();
