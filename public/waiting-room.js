// The waiting room's page with script (app/routes/waiting-room.server.tsx, decisions 0051, 0056): asks for
// the page again in the background every few seconds instead of reloading it, so nothing moves
// under the reader, and replaces the place in the queue (a polite live region) with the new one.
// When the answer is no longer the waiting room (the buyer's turn has come), goes there. Written
// for old browsers too: without fetch or DOMParser, it reloads the page as the <noscript> refresh
// would.
/* global window, document, DOMParser */
(function () {
  var script = document.currentScript;
  var seconds = Number(script && script.getAttribute("data-seconds")) || 10;
  // The room's own address: the first page may have come at the tickets page's.
  var checkUrl = (script && script.getAttribute("data-check")) || window.location.href;
  var statusSelector = "[data-waiting-status]";
  // Written by the server with JSON.stringify.
  var events = JSON.parse((script && script.getAttribute("data-events")) || "[]");
  window.dataLayer = window.dataLayer || [];
  for (var i = 0; i < events.length; i += 1) window.dataLayer.push(events[i]);
  // Tells styles and tests that the page's script runs, as the site's other pages do once hydrated.
  document.documentElement.setAttribute("data-hydrated", "true");

  var checking = false;
  function check() {
    if (!window.fetch || !window.DOMParser) {
      window.location.assign(checkUrl);
      return;
    }
    if (checking) return;
    checking = true;
    window
      .fetch(checkUrl, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        // Redirected: the turn has come (or the queue is over); the page it leads to is the buyer's.
        if (response.redirected || !/^\/waiting-room/.test(new URL(response.url).pathname)) {
          window.location.assign(response.url);
          return null;
        }
        return response.text();
      })
      .then(function (html) {
        if (html === null || html === undefined) return;
        var next = new DOMParser().parseFromString(html, "text/html").querySelector(statusSelector);
        var current = document.querySelector(statusSelector);
        if (next && current && next.innerHTML !== current.innerHTML) current.innerHTML = next.innerHTML;
      })
      .catch(function () {
        // Unreachable for a moment (a rush, a train tunnel): the next check tries again.
      })
      .then(function () {
        checking = false;
      });
  }
  window.setInterval(check, seconds * 1000);
})();
