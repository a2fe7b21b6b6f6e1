// A Specific Tournament Lobby kept live: the page polls its tournament's API and reloads when something a player acts
// on changed (status, registration, their own table, their place once given), so the register button, the table link,
// the payouts and the player's result stay true. A player seated at a table for the first time is taken there (their table deals within seconds, TRN-04).
(function () {
  "use strict";
  const root = document.getElementById("tournament");
  if (!root) { return; }
  const url = root.dataset.detailUrl;
  const tableUrl = root.dataset.tableUrl || "";
  let shown = {
    status: root.dataset.status,
    registration: root.dataset.registration,
    table: root.dataset.viewerTable || "",
    place: root.dataset.viewerPlace || ""
  };
  // A form sent from this page (a registration, an unregistration, a re-buy) is answered by a page of its own, which
  // shows the table link and polls again: the poll does not navigate once one was sent (Poker.formSent).
  const formSent = window.Poker.formSent;

  function text(id, value) {
    const node = document.getElementById(id);
    if (node && value !== undefined && value !== null) { node.textContent = String(value); }
  }

  async function poll() {
    if (formSent()) { return; }
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (!response.ok) { return; }
      const data = await response.json();
      const table = data.viewer && data.viewer.table_id ? String(data.viewer.table_id) : "";
      text("tournament-entrants", data.entrants);
      text("players-remaining", data.players_remaining);
      if (data.current_level) {
        const level = data.current_level;
        text("current-level", level.level + ": " + level.small_blind + "/" + level.big_blind + (level.ante ? " ante " + level.ante : ""));
      }
      if (formSent()) { return; } // the form was sent while the poll was on its way
      if (table && table !== shown.table && data.status === "running") {
        window.location.assign(tableUrl.replace(/0\/$/, table + "/"));
        return;
      }
      // A knocked-out player's place, once given, replaces what the page said it waited for (and how it was drawn).
      const place = data.viewer && data.viewer.place ? String(data.viewer.place) : "";
      if (data.status !== shown.status || data.registration !== shown.registration || table !== shown.table ||
          place !== shown.place) {
        window.location.reload();
      }
    } catch (error) {
      // The next poll tries again.
    }
  }

  window.setInterval(poll, 4000);
})();
