/* The compliance desk's flag queue: the box in the table's header chooses or clears every flag of the page for the
   bulk dismissal, and shows whether all, some or none of them are chosen. Without this script the box stays hidden
   and each flag is chosen by hand. */
(function () {
  "use strict";
  var all = document.getElementById("flag-select-all");
  var queue = document.getElementById("flag-queue");
  if (!all || !queue) { return; }

  function boxes() {
    return Array.prototype.slice.call(queue.querySelectorAll('tbody input[type="checkbox"][name="flags"]'));
  }

  function reflect() {
    var chosen = boxes().filter(function (box) { return box.checked; }).length;
    all.checked = chosen > 0 && chosen === boxes().length;
    all.indeterminate = chosen > 0 && chosen < boxes().length;
  }

  if (!boxes().length) { return; }
  all.hidden = false;
  all.addEventListener("change", function () {
    boxes().forEach(function (box) { box.checked = all.checked; });
    reflect();
  });
  queue.addEventListener("change", function (event) {
    if (event.target !== all) { reflect(); }
  });
  reflect();
}());
