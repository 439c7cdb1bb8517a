(function () {
  "use strict";
  var table = document.getElementById("gradebook");
  var body = table.tBodies[0];
  var heads = table.tHead.rows[0].cells;
  var rank = { AC: 0, PE: 1, WA: 2, TLE: 3, MLE: 4, OLE: 5, RE: 6, CE: 7, JE: 8, none: 9 };

  function value(row, column, type) {
    var text = row.cells[column].getAttribute("data-value") || "";
    if (type === "number") { return parseFloat(text) || 0; }
    if (type === "verdict") { return text in rank ? rank[text] : 10; }
    return text.toLowerCase();
  }

  function compare(x, y) { return x < y ? -1 : (x > y ? 1 : 0); }

  function sortBy(column, direction) {
    var type = heads[column].getAttribute("data-type");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var order = compare(value(a, column, type), value(b, column, type));
      if (direction === "descending") { order = -order; }
      // Ties stay in name order, whichever way the column goes.
      return order || compare(value(a, 0, "text"), value(b, 0, "text"));
    });
    rows.forEach(function (row) { body.appendChild(row); });
    for (var i = 0; i < heads.length; i++) { heads[i].removeAttribute("aria-sort"); }
    heads[column].setAttribute("aria-sort", direction);
  }

  Array.prototype.forEach.call(heads, function (head, column) {
    head.addEventListener("click", function () {
      var ascending = head.getAttribute("aria-sort") !== "ascending";
      sortBy(column, ascending ? "ascending" : "descending");
    });
  });

  var filter = document.getElementById("filter");
  filter.addEventListener("input", function () {
    var words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    Array.prototype.forEach.call(body.rows, function (row) {
      var text = row.getAttribute("data-search");
      var keep = words.every(function (word) { return text.indexOf(word) >= 0; });
      row.hidden = !keep;
      if (keep) { shown++; }
    });
    document.getElementById("shown").textContent = String(shown);
  });

  // `#sort=KEY:asc|desc` in the address sorts on load, so a sorted view can be shared.
  var wanted = /^#sort=([^:]+):(asc|desc)$/.exec(decodeURIComponent(location.hash));
  if (wanted) {
    Array.prototype.forEach.call(heads, function (head, column) {
      if (head.getAttribute("data-key") === wanted[1]) {
        sortBy(column, wanted[2] === "asc" ? "ascending" : "descending");
      }
    });
  }
  // A gradebook cell links to its submission: open it when followed.
  function openTarget() {
    var target = /^#s-\d+$/.test(location.hash) && document.getElementById(location.hash.slice(1));
    if (target) { target.open = true; target.scrollIntoView(); }
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();
  document.body.setAttribute("data-ready", "yes");
})();
