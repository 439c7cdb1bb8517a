// judge serve: live updates through Server-Sent Events. The pages work
// without this script; it only saves a reload. It sets text, never markup.
"use strict";
(function () {
  if (!window.EventSource) { return; }
  var scoreboard = document.getElementById("scoreboard");
  var refreshing = false;
  function refreshScoreboard() {
    if (!scoreboard || refreshing) { return; }
    refreshing = true;
    fetch("/scoreboard", { credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("scoreboard");
        if (fresh) { scoreboard.replaceWith(fresh); scoreboard = fresh; }
      })
      .finally(function () { refreshing = false; });
  }
  var events = new EventSource("/events");
  events.addEventListener("status", function (message) {
    var update = JSON.parse(message.data);
    var rows = document.querySelectorAll('[data-entry="' + Number(update.entry) + '"]');
    rows.forEach(function (row) {
      var cell = row.querySelector("[data-status]");
      if (!cell) { return; }
      cell.textContent = update.status;
      cell.className = "status" + (update.verdict ? " v-" + update.verdict : "");
    });
    if (update.verdict) {
      refreshScoreboard();
      // A submission's page shows its tests once judged: fetch them.
      if (rows.length && document.querySelector('[data-live="submission"]')) { location.reload(); }
    }
  });
  events.addEventListener("scoreboard", refreshScoreboard);
  events.addEventListener("reload", function () { if (scoreboard) { refreshScoreboard(); } });
  events.addEventListener("open", function () {
    document.documentElement.setAttribute("data-live", "connected");
  });
})();
