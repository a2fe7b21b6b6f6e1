/* "Verify this hand" (issue 29, docs/fairness.md): recomputes a hand's commitment and deck in the browser with Web
   Crypto (crypto.subtle SHA-256 and HMAC-SHA-256), with no server call, from the replay's hand.fairness object:
   algorithm, domain, commitment, server_seed, client_seeds (seat -> hex), dealing_order, hole_card_count,
   known_hole (seat -> the cards this player saw) and board. Window.Fairness.verify(data) resolves to
   {verified: bool, problems: [text]}; the page's #fairness-verify button shows the answer in #fairness-result. */
(function () {
  "use strict";
  var ALGORITHM = "hmac-sha256-fisher-yates/v1";
  var RANKS = "23456789TJQKA";
  var SUITS = "cdhs";
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (text, values) {
    return text.replace(/%\((\w+)\)s/g, function (_match, key) { return values[key]; });
  };
  function f(text, values) { return interpolate(gettext(text), values, true); }

  function fullDeck() {
    var deck = [];
    for (var rank = 0; rank < RANKS.length; rank += 1) {
      for (var suit = 0; suit < SUITS.length; suit += 1) { deck.push(RANKS[rank] + SUITS[suit]); }
    }
    return deck;
  }

  function fromHex(text) {
    var bytes = new Uint8Array(text.length / 2);
    for (var index = 0; index < bytes.length; index += 1) { bytes[index] = parseInt(text.substr(index * 2, 2), 16); }
    return bytes;
  }

  function toHex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (byte) {
      return ("0" + byte.toString(16)).slice(-2);
    }).join("");
  }

  function uint(value, size) {
    var bytes = new Uint8Array(size);
    for (var index = size - 1; index >= 0; index -= 1) { bytes[index] = value % 256; value = Math.floor(value / 256); }
    return bytes;
  }

  function concat(parts) {
    var length = parts.reduce(function (total, part) { return total + part.length; }, 0);
    var joined = new Uint8Array(length);
    var offset = 0;
    parts.forEach(function (part) { joined.set(part, offset); offset += part.length; });
    return joined;
  }

  function frame(bytes) { return concat([uint(bytes.length, 4), bytes]); }

  function commitment(domain, seed) {
    var text = new TextEncoder().encode(domain);
    return window.crypto.subtle.digest("SHA-256", concat([frame(text), seed])).then(toHex);
  }

  function material(domain, clientSeeds) {
    var seats = Object.keys(clientSeeds).map(Number).sort(function (a, b) { return a - b; });
    var parts = [frame(new TextEncoder().encode(domain)), uint(seats.length, 4)];
    seats.forEach(function (seat) { parts.push(uint(seat, 4), frame(fromHex(clientSeeds[String(seat)]))); });
    return concat(parts);
  }

  /* The deck: Fisher-Yates over the fixed order, one stream byte per draw, biased bytes rejected. The stream's
     blocks are made ahead (HMAC is asynchronous in Web Crypto); 8 blocks = 256 bytes is far more than a deck needs
     (about 60), and more are made if ever needed. */
  function deck(seed, domain, clientSeeds) {
    var prefix = material(domain, clientSeeds);
    return window.crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
      .then(function (key) {
        function blocks(first, count) {
          var pending = [];
          for (var index = first; index < first + count; index += 1) {
            pending.push(window.crypto.subtle.sign("HMAC", key, concat([prefix, uint(index, 8)])));
          }
          return Promise.all(pending).then(function (made) {
            return concat(made.map(function (block) { return new Uint8Array(block); }));
          });
        }
        function shuffle(stream, made) {
          var cards = fullDeck();
          var position = 0;
          for (var i = cards.length - 1; i > 0; i -= 1) {
            var bound = i + 1;
            var limit = 256 - (256 % bound);
            var value;
            do {
              if (position === stream.length) { return null; }
              value = stream[position];
              position += 1;
            } while (value >= limit);
            var j = value % bound;
            var held = cards[i]; cards[i] = cards[j]; cards[j] = held;
          }
          return cards;
        }
        function attempt(count) {
          return blocks(0, count).then(function (stream) {
            var cards = shuffle(stream, count);
            return cards || attempt(count * 2);
          });
        }
        return attempt(8);
      });
  }

  function verify(data) {
    if (!window.crypto || !window.crypto.subtle) {
      return Promise.resolve({ verified: false, problems: [gettext("This browser cannot verify (Web Crypto is not available).")] });
    }
    if (data.algorithm !== ALGORITHM) {
      return Promise.resolve({ verified: false, problems: [f("Unknown algorithm %(name)s.", { name: data.algorithm })] });
    }
    var seed = fromHex(data.server_seed);
    return Promise.all([commitment(data.domain, seed), deck(seed, data.domain, data.client_seeds || {})])
      .then(function (results) {
        var problems = [];
        if (results[0] !== String(data.commitment).toLowerCase()) {
          problems.push(f("The commitment %(published)s does not match the revealed server seed (%(computed)s).",
            { published: data.commitment, computed: results[0] }));
        }
        var cards = results[1];
        var order = data.dealing_order || [];
        var count = order.length;
        Object.keys(data.known_hole || {}).forEach(function (seat) {
          var index = order.indexOf(Number(seat));
          data.known_hole[seat].forEach(function (card, round) {
            var expected = cards[round * count + index];
            if (index < 0 || card !== expected) {
              problems.push(f("Seat %(seat)s was dealt %(card)s; the seeds give %(expected)s.",
                { seat: seat, card: card, expected: expected }));
            }
          });
        });
        var start = count * (data.hole_card_count || 2);
        (data.board || []).forEach(function (card, index) {
          if (card !== cards[start + index]) {
            problems.push(f("Board card %(number)s is %(card)s; the seeds give %(expected)s.",
              { number: index + 1, card: card, expected: cards[start + index] }));
          }
        });
        return { verified: problems.length === 0, problems: problems, deck: cards, commitment: results[0] };
      });
  }

  window.Fairness = { verify: verify, commitment: commitment, deck: deck, fromHex: fromHex };

  var button = document.getElementById("fairness-verify");
  var source = document.getElementById("replay-data");
  var result = document.getElementById("fairness-result");
  if (!button || !source || !result) { return; }
  var fairness = JSON.parse(source.textContent).hand.fairness;
  if (!fairness) { return; }
  function run() {
    button.disabled = true;
    result.textContent = gettext("Checking…");
    result.removeAttribute("data-verified");
    verify(fairness).then(function (outcome) {
      result.setAttribute("data-verified", outcome.verified ? "true" : "false");
      result.textContent = outcome.verified
        ? gettext("Verified: the commitment matches the revealed server seed, and every card you saw is where the seeds put it.")
        : gettext("Not verified:") + " " + outcome.problems.join(" ");
    }, function (error) {
      result.setAttribute("data-verified", "false");
      result.textContent = gettext("Not verified:") + " " + String(error);
    }).then(function () { button.disabled = false; });
  }
  button.addEventListener("click", run);
  if (window.location.hash === "#verify") { run(); }
}());
