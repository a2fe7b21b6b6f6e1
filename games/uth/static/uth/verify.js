/* Verify and Download of a finished UTH game (docs/fairness.md, "Verifying a UTH round"), shared by the table page's
 * Game history (uth/table.js) and the "My UTH games" page (templates/uth/history.html).
 *
 * Verify recomputes the commitment and the deck from the revealed server seed in the browser (static/js/fairness.js),
 * checks the cards dealt (player deck[0:2], dealer deck[2:4], board deck[4:9]) and compares the commitment with the one
 * the table page noted in this browser before the deal (localStorage "uth-commitments", by game number). Download
 * gives the proof file for docs/verify_hand.py.
 */
(function () {
  "use strict";

  var P = window.Poker;
  var gettext = P.t;
  var f = function (text, values) { return P.format(text, values, true); };
  var COMMITMENTS_KEY = "uth-commitments";

  function notedCommitments() {
    try { return JSON.parse(window.localStorage.getItem(COMMITMENTS_KEY) || "{}") || {}; } catch (error) { return {}; }
  }

  // The cards of a UTH round in its deck: player cards 0-1, dealer 2-3, board 4-8 (docs/fairness.md).
  var UTH_POSITIONS = { player_cards: 0, dealer_cards: 2, board: 4 };
  var UTH_PART_NAMES = { player_cards: gettext("player cards"), dealer_cards: gettext("dealer cards"), board: gettext("board") };

  function verifyRound(proof) {
    var F = window.Fairness;
    if (!F || !window.crypto || !window.crypto.subtle) {
      return Promise.resolve({ verified: false, problems: [gettext("This browser cannot verify (Web Crypto is not available).")] });
    }
    var seed = F.fromHex(proof.server_seed);
    return Promise.all([F.commitment(proof.domain, seed), F.deck(seed, proof.domain, {})]).then(function (results) {
      var problems = [];
      if (results[0] !== String(proof.commitment).toLowerCase()) {
        problems.push(f(gettext("The commitment %(published)s does not match the revealed server seed (%(computed)s)."),
          { published: proof.commitment, computed: results[0] }));
      }
      var noted = notedCommitments()[proof.game_number];
      if (noted && noted.commitment !== String(proof.commitment).toLowerCase()) {
        problems.push(f(gettext("This browser noted the commitment %(noted)s for this game, not %(published)s."),
          { noted: noted.commitment, published: proof.commitment }));
      }
      Object.keys(UTH_POSITIONS).forEach(function (part) {
        var start = UTH_POSITIONS[part];
        var dealt = proof[part] || [];
        var expected = results[1].slice(start, start + dealt.length);
        if (dealt.join(" ") !== expected.join(" ")) {
          problems.push(f(gettext("The %(part)s are %(dealt)s; the seed gives %(expected)s."),
            { part: UTH_PART_NAMES[part], dealt: dealt.join(" "), expected: expected.join(" ") }));
        }
      });
      return { verified: problems.length === 0, problems: problems, noted: noted || null };
    });
  }

  function verificationText(outcome) {
    if (!outcome.verified) { return gettext("Not verified:") + " " + outcome.problems.join(" "); }
    var text = gettext("Verified: the commitment matches the revealed server seed, and every card dealt is where the seed puts it.");
    if (!outcome.noted) { return text + " " + gettext("This browser had not noted the commitment of this game."); }
    return text + " " + (outcome.noted.before_deal ?
      gettext("It is the commitment this page showed before the deal.") :
      gettext("It is the commitment this page showed (first seen after the deal)."));
  }

  function verificationCell(cell, item, verifications) {
    var proof = item.fairness;
    if (!proof) { cell.textContent = "—"; return; }
    var button = document.createElement("button");
    button.type = "button";
    button.className = "uth-verify";
    button.textContent = gettext("Verify");
    var link = document.createElement("a");
    link.href = "/api/uth/rounds/" + encodeURIComponent(item.game_number) + "/verification/";
    link.setAttribute("download", "uth-" + item.game_number + ".json");
    link.textContent = gettext("Download");
    link.title = gettext("The proof of this game, for docs/verify_hand.py");
    var result = document.createElement("span");
    result.className = "uth-verify-result";
    result.setAttribute("role", "status");
    var known = verifications[item.game_number];
    if (known) {
      result.textContent = known.text;
      result.setAttribute("data-verified", known.verified ? "true" : "false");
    }
    button.addEventListener("click", function () {
      button.disabled = true;
      result.textContent = gettext("Checking…");
      result.removeAttribute("data-verified");
      verifyRound(proof).then(function (outcome) {
        return { verified: outcome.verified, text: verificationText(outcome) };
      }, function (error) {
        return { verified: false, text: gettext("Not verified:") + " " + String(error) };
      }).then(function (known) {
        verifications[item.game_number] = known;
        result.textContent = known.text;
        result.setAttribute("data-verified", known.verified ? "true" : "false");
        button.disabled = false;
      });
    });
    cell.appendChild(button);
    cell.appendChild(document.createTextNode(" "));
    cell.appendChild(link);
    cell.appendChild(result);
  }

  window.UthVerify = {
    COMMITMENTS_KEY: COMMITMENTS_KEY,
    notedCommitments: notedCommitments,
    verifyRound: verifyRound,
    verificationText: verificationText,
    cell: verificationCell
  };
}());
