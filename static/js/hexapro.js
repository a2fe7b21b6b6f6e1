// The HexaPro page (HEX-03): PLAY opens the confirmation dialogue in place — game type, prize pool range, number of
// games and the total buy-in, updated as the number changes — and REGISTER posts it. The player's games are kept
// fresh: when a game of theirs starts (the page knew it not), the player is taken to its table, where the prize pool
// is revealed before the first hand (HEX-05); several new games at once list their tables instead.
(function () {
  "use strict";
  const root = document.getElementById("hexapro");
  if (!root) { return; }
  const dialog = document.getElementById("hexapro-dialog");
  const gamesInput = document.getElementById("hexapro-games");
  const total = document.getElementById("hexapro-total");
  const money = (window.Poker && window.Poker.money) || function (cents) { return (cents / 100).toFixed(2); };
  let buyIn = Number(document.getElementById("hexapro-buy-in").value || 0);

  function showTotal() {
    const games = Number(gamesInput.value);
    total.textContent = Number.isInteger(games) && games > 0 ? money(buyIn * games) : "—";
  }

  function open(link) {
    buyIn = Number(link.dataset.buyIn);
    document.getElementById("hexapro-product").value = link.dataset.product;
    document.getElementById("hexapro-buy-in").value = link.dataset.buyIn;
    document.getElementById("hexapro-game-type").textContent = link.dataset.productName;
    document.getElementById("hexapro-buy-in-text").textContent = link.dataset.buyInText;
    document.getElementById("hexapro-pool-range").textContent = link.dataset.poolRange;
    gamesInput.max = link.dataset.maximum;
    gamesInput.value = "1";
    showTotal();
    if (dialog.open) { dialog.close(); }
    dialog.showModal();
    gamesInput.focus();
  }

  document.querySelectorAll("[data-play]").forEach(function (link) {
    link.addEventListener("click", function (event) {
      if (typeof dialog.showModal !== "function") { return; }  // no <dialog> support: the link's page shows it
      event.preventDefault();
      open(link);
    });
  });
  gamesInput.addEventListener("input", showTotal);
  document.getElementById("hexapro-cancel").addEventListener("click", function (event) {
    if (dialog.open) { event.preventDefault(); dialog.close(); }
  });
  showTotal();

  if (root.dataset.authenticated !== "true") { return; }
  const known = new Set((root.dataset.knownGames || "").split(" ").filter(Boolean));
  const tableUrl = root.dataset.tableUrl || "";

  async function poll() {
    try {
      const response = await fetch(root.dataset.mineUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (!response.ok) { return; }
      const data = await response.json();
      const started = data.games.filter(function (game) { return !known.has(String(game.game_id)) && game.table_id; });
      if (started.length === 1 && !(dialog && dialog.open)) {
        window.location.assign(tableUrl.replace(/0\/$/, started[0].table_id + "/"));
        return;
      }
      if (started.length > 1 || data.waiting.length !== document.querySelectorAll("#hexapro-waiting li").length) {
        window.location.reload();
      }
    } catch (error) {
      // The next poll tries again.
    }
  }

  window.setInterval(poll, 2000);
})();
