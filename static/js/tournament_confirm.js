/* Before money is taken: registering for a tournament that costs money asks for confirmation first, showing the
   buy-in, the fee and the bounty part separately and the total taken from the balance (a chosen buy-in of a
   multi-buy-in tournament is the total). Registering with a ticket, or for a freeroll, needs no confirmation. */
(function () {
  "use strict";
  var P = window.Poker;
  var dialog = document.getElementById("register-confirm");
  if (!P || !dialog) { return; }
  var gettext = P.t;
  var f = function (text, values) { return P.format(text, values, true); };
  var pending = null;

  function describe(form) {
    var choice = form.querySelector("select[name=buy_in]");
    if (choice) {
      return f(gettext("%(total)s will be taken from your balance."), { total: P.money(Number(choice.value)) });
    }
    var buyIn = Number(form.getAttribute("data-buy-in") || 0);
    var fee = Number(form.getAttribute("data-fee") || 0);
    var bounty = Number(form.getAttribute("data-bounty") || 0);
    var parts = bounty ?
      f(gettext("Buy-in %(buy_in)s + bounty %(bounty)s + fee %(fee)s"), { buy_in: P.money(buyIn), bounty: P.money(bounty), fee: P.money(fee) }) :
      f(gettext("Buy-in %(buy_in)s + fee %(fee)s"), { buy_in: P.money(buyIn), fee: P.money(fee) });
    return f(gettext("%(parts)s = %(total)s will be taken from your balance."), { parts: parts, total: P.money(buyIn + fee + bounty) });
  }

  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (form.getAttribute("data-confirmed") === "true") { return; }
      event.preventDefault();
      pending = form;
      dialog.querySelector("[data-testid=register-confirm-text]").textContent = describe(form);
      dialog.showModal();
    });
  });
  document.getElementById("register-confirm-yes").addEventListener("click", function () {
    dialog.close();
    if (pending) { pending.setAttribute("data-confirmed", "true"); pending.requestSubmit(); }
  });
  document.getElementById("register-confirm-no").addEventListener("click", function () { pending = null; dialog.close(); });
})();
