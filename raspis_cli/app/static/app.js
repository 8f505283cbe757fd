// raspis app: the table on one phone, offline. This script starts Python in the browser
// (Pyodide, shipped with the app), unpacks raspis's own code into it, and shows what
// raspis_cli.app.phone renders: the list of games, and a game's table, which is the page
// of `raspis serve` (table.js) with the model called here instead of over HTTP.
// No rule lives here: every entry is a word the Python model takes or refuses.
window.RASPIS_APP = true;

(function () {
  "use strict";
  var LANG_KEY = "raspis.lang";
  var boot = null;
  var phone = null;
  var lang = "en";
  var root = null;

  function pickLanguage() {
    var kept = null;
    try { kept = window.localStorage.getItem(LANG_KEY); } catch (e) { kept = null; }
    if (kept === "ru" || kept === "en") { return kept; }
    var asked = (navigator.languages && navigator.languages[0]) || navigator.language || "";
    return /^(ru|uk|be|kk)/i.test(asked) ? "ru" : "en";
  }

  function words() { return boot.words[lang]; }

  function status(text, ok) {
    var msg = document.getElementById("msg");
    if (!msg) { return; }
    msg.textContent = text || "";
    msg.className = "msg " + (ok ? "ok" : "bad");
  }

  function today() {
    var d = new Date();
    function two(n) { return (n < 10 ? "0" : "") + n; }
    return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate());
  }

  // -- starting -------------------------------------------------------------------------------
  function serviceWorkerReady() {
    // the first visit: the worker keeps every file; the app then reads them through it
    if (!("serviceWorker" in navigator) || window.location.protocol === "file:") { return Promise.resolve(); }
    var registered = navigator.serviceWorker.register("sw.js").catch(function () { return null; });
    var controlled = new Promise(function (resolve) {
      if (navigator.serviceWorker.controller) { resolve(); return; }
      navigator.serviceWorker.addEventListener("controllerchange", function () { resolve(); });
    });
    var enough = new Promise(function (resolve) { setTimeout(resolve, 60000); });
    return registered.then(function (r) { return r ? Promise.race([controlled, enough]) : null; });
  }

  function start() {
    boot = JSON.parse(document.getElementById("boot").textContent);
    lang = pickLanguage();
    root = document.getElementById("app");
    document.documentElement.lang = lang;
    document.getElementById("loading").textContent = words().loading;
    var times = window.raspisTimes = {start: performance.now()};  // read by the benchmark
    serviceWorkerReady()
      .then(function () {
        times.worker = performance.now();
        return loadPyodide({indexURL: new URL("pyodide/", window.location.href).href});
      })
      .then(function (pyodide) {
        times.python = performance.now();
        return fetch(boot.bundle).then(function (r) {
          if (!r.ok) { throw new Error(boot.bundle + ": " + r.status); }
          return r.arrayBuffer();
        }).then(function (zip) {
          pyodide.unpackArchive(zip, "zip", {extractDir: "/home/pyodide/raspis"});
          pyodide.runPython("import sys\nsys.path.insert(0, '/home/pyodide/raspis')");
          times.unpacked = performance.now();
          var module = pyodide.pyimport("raspis_cli.app.phone");
          phone = module.Phone(window.localStorage, today);
          times.imported = performance.now();
        });
      })
      .then(function () {
        window.addEventListener("hashchange", route);
        route();
      })
      .catch(function (error) {
        document.getElementById("loading").textContent = words().failed + " " + error;
      });
  }

  // -- the screens ----------------------------------------------------------------------------
  function route() {
    var match = /^#game=([0-9a-f]+)$/.exec(window.location.hash);
    try {
      if (match) { showGame(match[1]); } else { showGames(""); }
    } catch (error) {  // an error of raspis itself: said, never a blank screen
      if (match) { window.history.replaceState(null, "", window.location.pathname); }
      showGames(words().not_sent + " (" + error + ")");
    }
  }

  // the same game changed in another tab of this browser: shown as it is now, never overwritten
  window.addEventListener("storage", function (event) {
    var match = /^#game=([0-9a-f]+)$/.exec(window.location.hash);
    if (phone && match && (event.key === "raspis.sheet." + match[1] || event.key === "raspis.open." + match[1])) {
      route();
    }
  });

  function showGames(message) {
    root.innerHTML = phone.games_html(lang);
    if (!window.raspisReady) { window.raspisReady = performance.now(); }  // the first usable screen
    window.raspisScreen = "games";
    if (message) { status(message, false); }
    root.querySelector("#new-game").addEventListener("submit", function (event) {
      event.preventDefault();
      var form = event.target;
      var answer = JSON.parse(phone.new_game(form.elements.players.value, form.elements.preset.value,
                                             form.elements.date.value, lang));
      if (answer.ok) { window.location.hash = "game=" + answer.id; } else { status(answer.message, false); }
    });
    root.querySelector("#import").addEventListener("change", function (event) {
      var file = event.target.files && event.target.files[0];
      if (!file) { return; }
      file.arrayBuffer().then(function (buffer) {
        var answer = JSON.parse(phone.import_sheet(file.name, new Uint8Array(buffer), lang));
        if (answer.ok) { window.location.hash = "game=" + answer.id; } else { status(answer.message, false); }
      });
    });
  }

  function showGame(id) {
    var answer = JSON.parse(phone.open(id, lang));
    if (!answer.ok) {
      window.history.replaceState(null, "", window.location.pathname);
      showGames(answer.message);
      return;
    }
    root.innerHTML = answer.page;
    if (!window.raspisReady) { window.raspisReady = performance.now(); }
    window.raspisScreen = "game";
    document.title = answer.title + " · raspis";
    var table = raspisTable(document.getElementById("table"), document.getElementById("msg"), {
      notSent: words().not_sent,
      offline: function () { return false; },  // the model is here: there is no connection to lose
      view: function () { return Promise.resolve(JSON.parse(phone.view(lang))); },
      say: function (version, text) {
        return new Promise(function (resolve) { resolve(JSON.parse(phone.say(version, text, lang))); });
      }
    });
    if (answer.message) { table.say(answer.message, true); }
    window.scrollTo(0, 0);
  }

  function share(id) {
    var file = JSON.parse(phone.export(id));
    if (!file.ok) { status(file.message, false); return; }
    var blob = new Blob([file.text], {type: "text/plain;charset=utf-8"});
    var shared = null;
    if (window.File && navigator.canShare) {
      var asFile = new File([blob], file.name, {type: "text/plain"});
      if (navigator.canShare({files: [asFile]})) {
        shared = navigator.share({files: [asFile], title: file.name}).catch(function (error) {
          if (error && error.name !== "AbortError") { status(words().share_failed + " " + error, false); }
        });
      }
    }
    if (shared === null) {  // no Web Share for files here: the file is downloaded
      var link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = file.name;
      document.body.appendChild(link);
      link.click();
      setTimeout(function () { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-app]");
    if (!button || !phone) { return; }
    var what = button.getAttribute("data-app");
    var game = /^#game=([0-9a-f]+)$/.exec(window.location.hash);
    if (what === "open") {
      window.location.hash = "game=" + button.getAttribute("data-id");
    } else if (what === "games") {
      window.location.hash = "";
    } else if (what === "lang") {
      lang = button.getAttribute("data-lang") === "ru" ? "ru" : "en";
      try { window.localStorage.setItem(LANG_KEY, lang); } catch (e) { /* kept for this visit only */ }
      document.documentElement.lang = lang;
      route();
    } else if (what === "share" && game) {
      share(game[1]);
    } else if (what === "delete" && game) {
      if (window.confirm(button.getAttribute("data-confirm"))) {
        var answer = JSON.parse(phone.delete(game[1]));
        if (answer.ok) { window.location.hash = ""; } else { status(answer.message, false); }
      }
    }
  });

  document.addEventListener("DOMContentLoaded", start);
})();
