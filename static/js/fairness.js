/* "Verify this hand" (issue 29, docs/fairness.md): recomputes a hand's commitment and deck in the browser with Web
   Crypto (crypto.subtle SHA-256 and HMAC-SHA-256), with no server call, from the replay's hand.fairness object:
   algorithm, domain, commitment, server_seed, client_seeds (seat -> hex), dealing_order, hole_card_count,
   known_hole (seat -> the cards this player saw) and board. Window.Fairness.verify(data, kept) resolves to
   {verified: bool, problems: [text], kept: bool}; the page's #fairness-verify button shows the answer in
   #fairness-result.

   `kept` is what the table page kept in this browser before the first card (fairness_keep.js: the commitment it
   received and the client seed it sent; QA report G, finding 2). With it, the check is the player's own
   (docs/fairness.md, "Verifying a hand"): the revealed seed must match the commitment *you saw at the table*, not
   only the one the server gives now, and your client seed must be among the seeds mixed into the deck. Without it
   (another browser, cleared storage, a hand not followed at the table) the answer says that no commitment was kept
   here, so the check is only of the server's values against each other. */
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
  // For a text already passed through gettext() where it is written (so makemessages finds it).
  function fill(translated, values) { return interpolate(translated, values, true); }

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

  /* What the kept record says about the revealed values: problems, and the facts checked (for the answer). */
  function keptProblems(data, kept, mySeat) {
    var problems = [];
    if (String(kept.commitment).toLowerCase() !== String(data.commitment).toLowerCase()) {
      problems.push(fill(gettext("The commitment you saw at the table (%(kept)s) is not the one revealed now (%(revealed)s)."),
        { kept: kept.commitment, revealed: data.commitment }));
    }
    if (kept.domain && kept.domain !== data.domain) {
      problems.push(fill(gettext("The hand you saw at the table was %(kept)s; the revealed seeds are for %(revealed)s."),
        { kept: kept.domain, revealed: data.domain }));
    }
    var seat = mySeat !== null && mySeat !== undefined ? mySeat : kept.seat;
    var seeds = data.client_seeds || {};
    var used = Object.prototype.hasOwnProperty.call(seeds, String(seat)) ? String(seeds[String(seat)]).toLowerCase() : null;
    var mine = kept.my_seeds || [];
    if (mine.length && (used === null || mine.indexOf(used) < 0)) {
      problems.push(fill(gettext("The client seed this browser sent (%(seed)s) is not among the seeds mixed into the deck."),
        { seed: mine[mine.length - 1] }));
    }
    return { problems: problems, seedChecked: mine.length > 0 };
  }

  function verify(data, kept, mySeat) {
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
        var seedChecked = false;
        if (kept) {
          var own = keptProblems(data, kept, mySeat);
          problems = own.problems.concat(problems);
          seedChecked = own.seedChecked;
        }
        return { verified: problems.length === 0, problems: problems, deck: cards, commitment: results[0],
                 kept: Boolean(kept), seedChecked: seedChecked };
      });
  }

  window.Fairness = { verify: verify, commitment: commitment, deck: deck, fromHex: fromHex };

  var button = document.getElementById("fairness-verify");
  var source = document.getElementById("replay-data");
  var result = document.getElementById("fairness-result");
  if (!button || !source || !result) { return; }
  var replayed = JSON.parse(source.textContent).hand;
  var fairness = replayed.fairness;
  if (!fairness) { return; }
  var kept = window.FairnessKeep ? window.FairnessKeep.kept(replayed.id) : null;
  showKept();

  /* The commitment kept in this browser, beside the one the server reveals (the page's <dl>). */
  function showKept() {
    var list = document.querySelector("#fairness dl");
    if (!list) { return; }
    var term = document.createElement("dt");
    var value = document.createElement("dd");
    value.id = "fairness-kept";
    value.setAttribute("data-kept", kept ? "true" : "false");
    if (kept) {
      term.textContent = gettext("The commitment you saw at the table");
      var code = document.createElement("code");
      code.setAttribute("translate", "no");
      code.textContent = kept.commitment;
      value.appendChild(code);
      value.appendChild(document.createTextNode(" " + (kept.source === "snapshot"
        ? gettext("(kept in this browser when the table page opened during the hand)")
        : gettext("(kept in this browser before the first card)"))));
    } else {
      term.textContent = gettext("The commitment you saw at the table");
      value.textContent = gettext("No commitment kept in this browser for this hand (it was played in another browser, or the browser's storage was cleared): compare the commitment above with one you noted at the table.");
    }
    list.appendChild(term);
    list.appendChild(value);
  }

  function verifiedText(outcome) {
    if (!outcome.kept) {
      return gettext("Verified against the server's values only (no commitment kept in this browser): the commitment matches the revealed server seed, and every card you saw is where the seeds put it.");
    }
    return outcome.seedChecked
      ? gettext("Verified: the commitment you saw at the table matches the revealed server seed, your client seed is among the seeds mixed into the deck, and every card you saw is where the seeds put it.")
      : gettext("Verified: the commitment you saw at the table matches the revealed server seed, and every card you saw is where the seeds put it. This browser had sent no client seed before the hand was dealt (the server made one for you).");
  }

  function run() {
    button.disabled = true;
    result.textContent = gettext("Checking…");
    result.removeAttribute("data-verified");
    verify(fairness, kept, replayed.my_seat).then(function (outcome) {
      result.setAttribute("data-verified", outcome.verified ? "true" : "false");
      result.setAttribute("data-kept", outcome.kept ? "true" : "false");
      result.textContent = outcome.verified
        ? verifiedText(outcome)
        : gettext("Not verified:") + " " + outcome.problems.join(" ");
    }, function (error) {
      result.setAttribute("data-verified", "false");
      result.textContent = gettext("Not verified:") + " " + String(error);
    }).then(function () { button.disabled = false; });
  }
  button.addEventListener("click", run);
  if (window.location.hash === "#verify") { run(); }
}());
