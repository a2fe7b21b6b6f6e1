/* Playing cards: "As" -> a card element with rank and suit, and words for screen readers ("Ace of spades"). */
(function () {
  "use strict";
  var gettext = window.Poker.t;
  var SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
  var SUIT_NAMES = { s: gettext("spades"), h: gettext("hearts"), d: gettext("diamonds"), c: gettext("clubs") };
  var RANK_NAMES = {
    A: gettext("Ace"), K: gettext("King"), Q: gettext("Queen"), J: gettext("Jack"), T: gettext("Ten"), 9: gettext("Nine"), 8: gettext("Eight"),
    7: gettext("Seven"), 6: gettext("Six"), 5: gettext("Five"), 4: gettext("Four"), 3: gettext("Three"), 2: gettext("Two")
  };

  function describe(code) {
    if (!code || code.length < 2) { return gettext("hidden card"); }
    var rank = code.charAt(0).toUpperCase();
    var suit = code.charAt(1).toLowerCase();
    return window.Poker.format(gettext("%(rank)s of %(suit)s"), { rank: RANK_NAMES[rank] || rank, suit: SUIT_NAMES[suit] || suit }, true);
  }

  function text(code) {
    if (!code || code.length < 2) { return "?"; }
    var rank = code.charAt(0).toUpperCase();
    return (rank === "T" ? "10" : rank) + (SUITS[code.charAt(1).toLowerCase()] || "");
  }

  /* A card element. code null/undefined: a face-down card; "placeholder": an empty slot on the board. */
  function element(code, small) {
    var card = document.createElement("span");
    card.className = "playing-card" + (small ? " small" : "");
    if (code === "placeholder") {
      card.className += " placeholder";
      card.setAttribute("aria-hidden", "true");
      return card;
    }
    if (!code) {
      card.className += " back";
      card.setAttribute("role", "img");
      card.setAttribute("aria-label", gettext("face-down card"));
      card.setAttribute("data-card", "hidden");
      return card;
    }
    var rank = code.charAt(0).toUpperCase();
    var suit = code.charAt(1).toLowerCase();
    if (suit === "h" || suit === "d") { card.className += " red"; }
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", describe(code));
    card.setAttribute("data-card", rank + suit);
    var rankElement = document.createElement("span");
    rankElement.className = "rank";
    rankElement.textContent = rank === "T" ? "10" : rank;
    var suitElement = document.createElement("span");
    suitElement.className = "suit";
    suitElement.textContent = SUITS[suit] || "?";
    card.appendChild(rankElement);
    card.appendChild(suitElement);
    return card;
  }

  function list(codes) { return (codes || []).map(text).join(" "); }

  window.Cards = { element: element, describe: describe, text: text, list: list };
}());
