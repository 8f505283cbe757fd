// raspis: the page of the table. It shows what the model decides: every tap
// sends the word a scorekeeper would type at `raspis live`, with the version of
// the sheet it was made against; the answer is the sheet as it is now (rendered
// HTML, already escaped) and a message. No rule lives here.
//
// Two carriers take a word to the model: `raspis serve` over HTTP (below), and
// the phone app, which runs the same model in the browser (its app.js sets
// window.RASPIS_APP before this script and calls raspisTable itself).

// raspisTable(main, msg, carrier): the taps of the table's part of the page.
// carrier.say(version, text) and carrier.view() return promises of
// {version, html[, ok, message]}; carrier.offline() says whether a tap cannot
// be sent now (carrier.notSent: what the page says then).
function raspisTable(main, msg, carrier) {
  "use strict";
  var version = parseInt(main.getAttribute("data-version"), 10);
  var busy = false;

  function show(html, newVersion) {
    if (newVersion === version && html === null) { return; }
    version = newVersion;
    main.setAttribute("data-version", String(version));
    if (html !== null) { main.innerHTML = html; fitNames(); }
  }

  function say(text, ok) {
    msg.textContent = text || "";
    msg.className = "msg " + (ok ? "ok" : "bad");
    pin();
  }

  // What is pinned at the top of the screen, in this order: the offline banner, the status line,
  // the sheet's names and totals. Each is pinned under the ones above it, so that the status
  // line is never hidden under the names when the sheet is scrolled.
  function pin() {
    var banner = document.querySelector(".offline:not([hidden])");
    var above = banner ? banner.offsetHeight : 0;
    msg.style.top = above + "px";
    var below = above + (msg.textContent ? msg.offsetHeight : 0);
    document.documentElement.style.setProperty("--pinned", below + "px");
  }

  // A seat's name in the box of the deal: a smaller type, down to 11 px, before it is cut
  // (the whole name stays in the box's title).
  function fitNames() {
    var names = main.querySelectorAll(".seat .who");
    for (var i = 0; i < names.length; i++) {
      var name = names[i];
      name.style.fontSize = "";
      for (var size = 14; name.scrollWidth > name.clientWidth && size >= 11; size--) {
        name.style.fontSize = size + "px";
      }
    }
  }

  function refresh() {
    return carrier.view().then(function (data) {
      if (data && data.version !== version) { show(data.html, data.version); }
    });
  }

  function send(text) {
    if (busy) { return; }
    if (carrier.offline()) { say(carrier.notSent, false); return; }
    busy = true;
    main.classList.add("busy");
    carrier.say(version, text)
      .then(function (data) {
        show(data.html, data.version);
        say(data.message, data.ok);
      })
      .catch(function () { say(carrier.notSent, false); })
      .then(function () { busy = false; main.classList.remove("busy"); });
  }

  main.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-say]");
    if (button && !button.disabled) { send(button.getAttribute("data-say")); }
  });
  main.addEventListener("submit", function (event) {
    var form = event.target.closest("form[data-form]");
    if (!form) { return; }
    event.preventDefault();
    var text = form.elements.text.value.trim();
    if (!text) { return; }
    send(form.getAttribute("data-form") === "comment" ? "; " + text : text);
  });
  raspisLines(main);
  fitNames();
  window.addEventListener("resize", function () { fitNames(); pin(); });
  return {show: show, say: say, pin: pin, refresh: refresh, version: function () { return version; }};
}

// raspis serve: the model on the server, reached over HTTP; every phone at the table
// hears every entry through an event stream.
(function () {
  "use strict";
  if (window.RASPIS_APP) { return; }
  var main = document.getElementById("table");
  var msg = document.getElementById("msg");
  var words = JSON.parse(document.getElementById("words").textContent);
  // the access code (--lan), sent with every entry in a header: a form of another page cannot send one
  var tokenMeta = document.querySelector('meta[name="raspis-token"]');
  var token = tokenMeta ? tokenMeta.getAttribute("content") : "";
  // the code read, it leaves the address bar and the history (the page's cookie keeps it)
  if (window.history && history.replaceState && /[?&]t=/.test(window.location.search)) {
    var kept = window.location.search.slice(1).split("&").filter(function (p) { return p.indexOf("t=") !== 0; });
    history.replaceState(null, "", window.location.pathname + (kept.length ? "?" + kept.join("&") : "") +
                         window.location.hash);
  }
  var table = raspisTable(main, msg, {
    notSent: words.not_sent,
    offline: function () { return connection.offline; },
    view: function () {
      return fetch("api/view", {credentials: "same-origin", cache: "no-store"})
        .then(function (r) { return r.ok ? r.json() : null; });
    },
    say: function (version, text) {
      return fetch("api/say", {method: "POST", credentials: "same-origin", cache: "no-store",
                               headers: token ? {"Content-Type": "application/json", "X-Raspis-Token": token}
                                              : {"Content-Type": "application/json"},
                               body: JSON.stringify({version: version, text: text})})
        .then(function (r) { return r.json(); });
    }
  });
  var show = table.show, say = table.say, refresh = table.refresh;

  // -- the connection -------------------------------------------------------------------
  // The event stream carries the version at every change and every second (a heartbeat).
  // No message for OFFLINE_AFTER ms: the page says it is offline, and asks the server again
  // every second; when it answers, the sheet is shown as it is now, and the stream reopened.
  var OFFLINE_AFTER = 2500;
  var connection = {offline: false, stream: null, lastHeard: Date.now(), asking: false, banner: null};

  function watchConnection() {
    openStream();
    setInterval(checkConnection, 500);
  }

  function openStream() {
    if (connection.stream) { connection.stream.close(); }
    var stream = new EventSource("api/events");
    stream.onmessage = function (event) {
      connection.lastHeard = Date.now();
      if (connection.offline) { reconnected(); } else if (parseInt(event.data, 10) !== table.version()) { refresh(); }
    };
    stream.onerror = function () {  // the watchdog asks again, and reopens it once the server answers
      stream.close();
      if (connection.stream === stream) { connection.stream = null; }
    };
    connection.stream = stream;
  }

  function checkConnection() {
    var quiet = Date.now() - connection.lastHeard;
    if (quiet > OFFLINE_AFTER && !connection.offline) { showOffline(true); }
    if ((connection.stream === null || connection.offline) && !connection.asking) { askServer(); }
  }

  function askServer() {
    connection.asking = true;
    // a network that is gone may leave a request hanging: it is given up after 3 s
    var abort = window.AbortController ? new AbortController() : null;
    var timer = abort ? setTimeout(function () { abort.abort(); }, 3000) : null;
    fetch("api/view", {credentials: "same-origin", cache: "no-store", signal: abort ? abort.signal : undefined})
      .then(function (r) {
        if (r.status === 403) { showOffline(true, words.code_changed); }  // started with --new-code
        return r.ok ? r.json() : null;
      })
      .then(function (data) {
        if (data) {
          var wasOffline = connection.offline;
          connection.lastHeard = Date.now();
          show(data.html, data.version);
          if (wasOffline) { showOffline(false); say(words.online, true); }
          if (wasOffline || connection.stream === null) { openStream(); }  // a stream gone silent too
        }
      })
      .catch(function () { /* still away: asked again by the watchdog */ })
      .then(function () {
        if (timer) { clearTimeout(timer); }
        setTimeout(function () { connection.asking = false; }, 1000);
      });
  }

  function reconnected() {
    showOffline(false);
    say(words.online, true);
    refresh();
  }

  function showOffline(offline, why) {
    if (!connection.banner) {
      connection.banner = document.createElement("div");
      connection.banner.id = "offline";
      connection.banner.className = "offline";
      connection.banner.setAttribute("role", "alert");
      document.body.insertBefore(connection.banner, document.body.firstChild);
    }
    if (offline) { connection.banner.textContent = why || words.offline; }
    if (offline === connection.offline) { return; }
    connection.offline = offline;
    connection.banner.hidden = !offline;
    document.body.classList.toggle("is-offline", offline);
    table.pin();
  }

  // every phone sees an entry: the server tells the new version as it happens
  if (window.EventSource) {
    watchConnection();
  } else {
    setInterval(refresh, 1000);
  }
})();

// raspisLines(main): the sheet's lines. A tap on a written deal's line opens the line under it,
// which the server wrote with the page (each player's bid/taken, score and
// total, the written values beside the recount, the formula of the tapped
// player's score, the button that corrects the deal); the tapped player is
// marked. The line stays open when the sheet is shown again after an entry.
// Only what is shown changes here: no rule, nothing sent.
function raspisLines(main) {
  "use strict";
  var opened = null;  // {more: the id of the open line, col: the player's column or -1}

  function moreLine(id) {
    return id ? document.getElementById(id) : null;
  }

  function markColumn(line, col) {
    var marked = line.querySelectorAll("[data-col]");
    for (var i = 0; i < marked.length; i++) {
      marked[i].classList.toggle("picked", marked[i].getAttribute("data-col") === String(col));
    }
  }

  function showMore(row, col) {
    var line = moreLine(row.getAttribute("data-more"));
    if (!line) { return; }
    line.hidden = false;
    row.classList.add("picked");
    row.setAttribute("aria-expanded", "true");
    markColumn(line, col);
  }

  function hideMore() {
    var rows = main.querySelectorAll("tr.has-more.picked");
    for (var i = 0; i < rows.length; i++) {
      rows[i].classList.remove("picked");
      rows[i].setAttribute("aria-expanded", "false");
      var line = moreLine(rows[i].getAttribute("data-more"));
      if (line) { line.hidden = true; }
    }
  }

  function reopenMore() {
    if (!opened) { return; }
    var row = main.querySelector('tr.has-more[data-more="' + opened.more + '"]');
    if (row) { showMore(row, opened.col); } else { opened = null; }
  }

  function tapLine(row, cell) {
    var col = cell && cell.parentNode === row ? cell.cellIndex - 1 : -1;
    var same = opened && opened.more === row.getAttribute("data-more");
    hideMore();
    if (same && opened.col === col) { opened = null; return; }
    opened = {more: row.getAttribute("data-more"), col: col};
    showMore(row, col);
  }

  function onSheetTap(event) {
    var target = event.target;
    if (target.closest("button, a, input, form")) {
      // correcting a deal asks its questions at the top of the page
      if (target.closest("button.edit")) { opened = null; window.scrollTo(0, 0); }
      return;
    }
    var row = target.closest("tr.has-more");
    if (row) { tapLine(row, target.closest("td")); }
  }

  function onSheetKey(event) {
    if (event.key !== "Enter" && event.key !== " ") { return; }
    var row = event.target.closest && event.target.closest("tr.has-more");
    if (row && row === event.target) { event.preventDefault(); tapLine(row, null); }
  }

  main.addEventListener("click", onSheetTap);
  main.addEventListener("keydown", onSheetKey);
  if (window.MutationObserver) {
    new MutationObserver(reopenMore).observe(main, {childList: true});
  }
}
