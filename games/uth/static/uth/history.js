/* "My UTH games" (templates/uth/history.html): each finished game's Verify and Download (uth/verify.js), from the
 * proofs the page carries (the same as the history rows' "fairness" of docs/uth-protocol.md). */
(function () {
  "use strict";

  var proofsElement = document.getElementById("uth-proofs");
  if (!proofsElement || !window.UthVerify) { return; }
  var proofs = JSON.parse(proofsElement.textContent);
  var verifications = {};
  document.querySelectorAll(".uth-verify-cell[data-game-number]").forEach(function (cell) {
    var number = cell.dataset.gameNumber;
    if (proofs[number]) { window.UthVerify.cell(cell, { game_number: number, fairness: proofs[number] }, verifications); }
  });
}());
