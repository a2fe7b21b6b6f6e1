/* What this browser keeps of each hand's provably fair deck (docs/fairness.md, "Verifying a hand"; QA report G,
   finding 2), in localStorage, so that "Verify this hand" can compare the server's revealed values with what the player
   saw before the first card rather than with what the server says afterwards:

   * poker.fairness.seeds.<table id>: the last client seeds this page made and sent at that table (hex, oldest first),
     each marked once the server acknowledged it;
   * poker.fairness.hand.<hand id>: the hand's commitment as the table page received it before the first card (the
     deck_committed event, or the snapshot of the hand in play): table_id, hand_id, hand_number, algorithm, domain,
     commitment, seat (the viewer's, when dealt in), my_seeds (the client seed of this browser that the commitment
     lists for that seat, or else the seeds this browser had had acknowledged: one of them should be there), kept_at,
     source ("event" or "snapshot"). The first record of a hand is kept; later ones never replace it;
   * poker.fairness.hands: the hand ids kept, oldest first (the oldest are dropped beyond 500).

   Nothing secret is kept: the commitment and the client seeds are public (docs/protocol.md). */
(function () {
  "use strict";
  var SEEDS = "poker.fairness.seeds.";
  var HAND = "poker.fairness.hand.";
  var INDEX = "poker.fairness.hands";
  var KEEP_HANDS = 500;
  var KEEP_SEEDS = 4;

  function read(key) {
    try {
      var text = window.localStorage.getItem(key);
      return text ? JSON.parse(text) : null;
    } catch (ignored) { return null; }  // storage off (private mode) or a value that is not ours
  }
  function write(key, value) {
    try { window.localStorage.setItem(key, JSON.stringify(value)); return true; } catch (ignored) { return false; }
  }
  function remove(key) {
    try { window.localStorage.removeItem(key); } catch (ignored) { /* nothing kept */ }
  }

  function seedsOf(tableId) {
    var seeds = read(SEEDS + tableId);
    return Array.isArray(seeds) ? seeds : [];
  }

  function seedSent(tableId, seed) {
    var seeds = seedsOf(tableId).filter(function (item) { return item.seed !== seed; });
    seeds.push({ seed: seed, sent_at: new Date().toISOString(), acknowledged: false });
    write(SEEDS + tableId, seeds.slice(-KEEP_SEEDS));
  }

  function seedAcknowledged(tableId, seed) {
    var seeds = seedsOf(tableId);
    seeds.forEach(function (item) { if (item.seed === seed) { item.acknowledged = true; } });
    write(SEEDS + tableId, seeds);
  }

  function kept(handId) { return read(HAND + handId); }

  /* Keep the commitment of hand `handId` (fairness: algorithm, domain, commitment, client_seeds) as the page saw it,
     for the viewer in `seat` (null: not dealt in; nothing is kept, there is nothing for them to verify later). Returns
     the record kept for the hand (the earlier one when there is one), or null. */
  function keepCommitment(tableId, handId, handNumber, fairness, seat, source) {
    if (!handId || !fairness || !fairness.commitment) { return null; }
    var earlier = kept(handId);
    if (earlier) { return earlier; }
    var seeds = fairness.client_seeds || {};
    if (seat === null || seat === undefined || !Object.prototype.hasOwnProperty.call(seeds, String(seat))) { return null; }
    var published = String(seeds[String(seat)]).toLowerCase();
    var sent = seedsOf(tableId);
    var mine = sent.some(function (item) { return item.seed === published; })
      ? [published]
      : sent.filter(function (item) { return item.acknowledged; }).map(function (item) { return item.seed; });
    var record = {
      table_id: tableId,
      hand_id: handId,
      hand_number: handNumber || null,
      algorithm: fairness.algorithm || "",
      domain: fairness.domain || "",
      commitment: String(fairness.commitment).toLowerCase(),
      seat: Number(seat),
      my_seeds: mine,
      kept_at: new Date().toISOString(),
      source: source || "event"
    };
    if (!write(HAND + handId, record)) { return null; }
    var index = read(INDEX);
    index = Array.isArray(index) ? index.filter(function (id) { return id !== handId; }) : [];
    index.push(handId);
    while (index.length > KEEP_HANDS) { remove(HAND + index.shift()); }
    write(INDEX, index);
    return record;
  }

  window.FairnessKeep = {
    kept: kept,
    keepCommitment: keepCommitment,
    seedSent: seedSent,
    seedAcknowledged: seedAcknowledged,
    seedsOf: seedsOf
  };
}());
