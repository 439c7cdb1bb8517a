// judge serve: live updates through Server-Sent Events, a ticking clock
// and times in the reader's own time zone. The pages work without this
// script; it only saves a reload. It sets text, or swaps in elements
// parsed from this server's own pages; it never builds markup.
//
// The stream is closed when the page is hidden into the back/forward
// cache (`pagehide`) and opened again when it is shown (`pageshow`): a
// browser allows six connections to a host, and every cached page's
// stream would hold one. On every (re)connect the server first sends the
// status of the viewer's recent submissions, so a verdict that came while
// no stream was open is not missed.
"use strict";
(function () {
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
        if (fresh && old) { old.replaceWith(fresh); localTimes(fresh); }
      })
      .finally(function () { refreshing[id] = false; });
  }
  function refreshScoreboard() { refresh("/scoreboard", "scoreboard"); }

  function onStatus(message) {
    var update = JSON.parse(message.data);
    var rows = document.querySelectorAll('[data-entry="' + Number(update.entry) + '"]');
    var changed = false;
    rows.forEach(function (row) {
      var cell = row.querySelector("[data-status]");
      if (!cell) { return; }
      changed = changed || cell.textContent.trim() !== update.status;
      cell.textContent = update.status;
      cell.className = "status" + (update.verdict ? " v-" + update.verdict : "");
    });
    if (update.verdict && changed) {
      refreshScoreboard();
      // A submission's page shows its tests once judged: fetch them.
      if (rows.length) { refresh(location.pathname, "feedback"); }
    }
  }

  // New clarifications: a badge in the menu until the clarifications page
  // is seen (the unread ones are kept across pages and tabs).
  function unread() {
    try { return JSON.parse(localStorage.getItem("judge.unread") || "[]"); } catch (e) { return []; }
  }
  function showBadge() {
    var badge = document.querySelector("[data-badge]");
    var count = unread().length;
    if (badge) { badge.textContent = count ? " " + count : ""; }
  }
  function onClarification(message) {
    if (location.pathname === "/clarifications") {
      refresh("/clarifications", "clarifications");
      return;
    }
    var ids = unread();
    if (ids.indexOf(message.data) < 0) { ids.push(message.data); }
    try { localStorage.setItem("judge.unread", JSON.stringify(ids)); } catch (e) { /* private mode */ }
    showBadge();
  }

  var events = null;
  function connect() {
    if (!window.EventSource || events) { return; }
    events = new EventSource("/events");
    events.addEventListener("status", onStatus);
    events.addEventListener("scoreboard", refreshScoreboard);
    events.addEventListener("reload", refreshScoreboard);
    events.addEventListener("clarification", onClarification);
    events.addEventListener("open", function () {
      document.documentElement.setAttribute("data-live", "connected");
    });
  }
  function disconnect() {
    if (events) { events.close(); events = null; }
    document.documentElement.removeAttribute("data-live");
  }
  window.addEventListener("pagehide", disconnect);
  window.addEventListener("pageshow", connect);

  // The clock: "starts in", "left", "ended", from the session's times.
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function span(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    return Math.floor(s / 3600) + ":" + two(Math.floor(s / 60) % 60) + ":" + two(s % 60);
  }
  function tick() {
    var clock = document.querySelector(".clock[data-end]");
    if (!clock) { return; }
    var now = Date.now();
    var start = Date.parse(clock.getAttribute("data-start"));
    var end = Date.parse(clock.getAttribute("data-end"));
    if (now < start) { clock.textContent = "starts in " + span(start - now); }
    else if (now < end) { clock.textContent = span(end - now) + " left"; }
    else { clock.textContent = "ended"; }
  }

  // Times in the reader's own zone (and a contest's own time beside them).
  function localTimes(root) {
    var start = Date.parse(document.body.getAttribute("data-contest-start") || "");
    root.querySelectorAll("time[datetime]").forEach(function (time) {
      var at = Date.parse(time.getAttribute("datetime"));
      if (isNaN(at)) { return; }
      var text = new Date(at).toLocaleString();
      if (!isNaN(start) && at >= start) { text += " (" + span(at - start) + ")"; }
      time.textContent = text;
      time.title = time.getAttribute("datetime");
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (location.pathname === "/clarifications") {
      try { localStorage.removeItem("judge.unread"); } catch (e) { /* private mode */ }
    }
    showBadge();
    localTimes(document);
    tick();
    setInterval(tick, 1000);
  });
  connect();
})();
