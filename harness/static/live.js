// judge serve: live updates through Server-Sent Events. The pages work
// without this script; it only saves a reload. It sets text, or swaps in
// elements parsed from this server's own pages; it never builds markup.
"use strict";
(function () {
  if (!window.EventSource) { return; }
  var refreshing = {};
  // Replaces the element `id` with its fresh copy from the server's page
  // at `url` (server-rendered and escaped; parsed, never run).
  function refresh(url, id) {
    if (!document.getElementById(id) || refreshing[id]) { return; }
    refreshing[id] = true;
    fetch(url, { credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById(id);
        var old = document.getElementById(id);
        if (fresh && old) { old.replaceWith(fresh); }
      })
      .finally(function () { refreshing[id] = false; });
  }
  function refreshScoreboard() { refresh("/scoreboard", "scoreboard"); }
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
      if (rows.length) { refresh(location.pathname, "feedback"); }
    }
  });
  events.addEventListener("scoreboard", refreshScoreboard);
  events.addEventListener("reload", refreshScoreboard);
  events.addEventListener("open", function () {
    document.documentElement.setAttribute("data-live", "connected");
  });
})();
