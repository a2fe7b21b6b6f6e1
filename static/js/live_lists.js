/* Lists a page reads again from the server when the site says a tournament changed (LOB-02): the tournament list
   page (tournament_lobby.js, over /ws/tournaments/) and the cash lobby's Tournaments tab (lobby.js, over /ws/lobby/)
   both follow the `tournament_changed` notice this way (docs/protocol.md).

     var lists = Poker.LiveLists({ url: "/tournaments/lists/", blocks: ["block-id", ...], root: element, onShown: fn });
     lists.readSoon();          on each notice, and every time the page's socket opens (a reconnect too: its resync)
     lists.followSocket(state); from the socket's onStatus: while it is down the lists are read every 10 s

   The answer is markup holding an element of each block's id; each block of the page takes its namesake's content,
   its times are shown in local time, then onShown runs (filters, sorting) and root's data-refreshed counts the reads.
   A burst of notices is read once: one read at a time, one more after it when notices came meanwhile. */
(function () {
  "use strict";
  var P = window.Poker;
  if (!P) { return; }

  var BURST_MS = 300;
  var POLL_MS = 10000;

  P.LiveLists = function (options) {
    var reading = false;
    var readAgain = false;
    var soon = null;
    var pollTimer = null;

    function show(html) {
      var fresh = new DOMParser().parseFromString(html, "text/html");
      options.blocks.forEach(function (id) {
        var current = document.getElementById(id);
        var replacement = fresh.getElementById(id);
        if (current && replacement) { current.replaceChildren.apply(current, Array.prototype.slice.call(replacement.childNodes)); }
        if (current && P.localTimes) { P.localTimes(current); }
      });
      if (options.onShown) { options.onShown(); }
      var root = options.root;
      if (root) { root.setAttribute("data-refreshed", String(Number(root.getAttribute("data-refreshed") || "0") + 1)); }
    }

    function read() {
      if (reading) { readAgain = true; return; }
      reading = true;
      readAgain = false;
      fetch(options.url, { headers: { Accept: "text/html" }, credentials: "same-origin" }).then(function (response) {
        if (!response.ok) { throw new Error(String(response.status)); }
        return response.text();
      }).then(show).catch(function () {
        // Kept as it was: the next notice, the poll while the socket is down, or the next reconnect reads again.
      }).then(function () {
        reading = false;
        if (readAgain) { readSoon(); }
      });
    }

    /* Notices come in bursts (a Sit & Go filling up, a start seating everyone): read once, shortly after the first. */
    function readSoon() {
      if (soon !== null) { return; }
      soon = setTimeout(function () { soon = null; read(); }, BURST_MS);
    }

    function followSocket(state) {
      if (state === "live") {
        clearInterval(pollTimer);
        pollTimer = null;
      } else if (!pollTimer && state !== "connecting") {
        pollTimer = setInterval(read, POLL_MS);  // the socket is down: no notice comes, so keep the lists fresh over HTTP
      }
    }

    return { read: read, readSoon: readSoon, followSocket: followSocket };
  };
}());
