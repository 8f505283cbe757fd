// raspis serve: the page of the table. It shows what the server decides:
// every tap sends the word a scorekeeper would type at `raspis live`, with the
// version of the sheet it was made against; the server answers with the sheet
// as it is now (rendered HTML, already escaped) and a message. No rule lives here.
(function () {
  "use strict";
  var main = document.getElementById("table");
  var msg = document.getElementById("msg");
  var words = JSON.parse(document.getElementById("words").textContent);
  var version = parseInt(main.getAttribute("data-version"), 10);
  var busy = false;

  function show(html, newVersion) {
    if (newVersion === version && html === null) { return; }
    version = newVersion;
    main.setAttribute("data-version", String(version));
    if (html !== null) { main.innerHTML = html; }
  }

  function say(text, ok) {
    msg.textContent = text || "";
    msg.className = "msg " + (ok ? "ok" : "bad");
  }

  function refresh() {
    return fetch("api/view", {credentials: "same-origin", cache: "no-store"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data && data.version !== version) { show(data.html, data.version); } });
  }

  function send(text) {
    if (busy) { return; }
    busy = true;
    main.classList.add("busy");
    fetch("api/say", {method: "POST", credentials: "same-origin", cache: "no-store",
                      headers: {"Content-Type": "application/json"},
                      body: JSON.stringify({version: version, text: text})})
      .then(function (r) { return r.json(); })
      .then(function (data) {
        show(data.html, data.version);
        say(data.message, data.ok);
      })
      .catch(function () { say(words.connection_lost, false); })
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

  // every phone sees an entry: the server tells the new version as it happens
  if (window.EventSource) {
    var events = new EventSource("api/events");
    events.onmessage = function (event) {
      if (parseInt(event.data, 10) !== version) { refresh(); }
    };
    events.onerror = function () { setTimeout(refresh, 1000); };
  } else {
    setInterval(refresh, 1000);
  }
})();
