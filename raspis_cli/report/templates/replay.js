/* The trick-by-trick replay viewer: buttons and the arrow keys step card by card.
   Every text from the record goes in through textContent, never as HTML. */
(function () {
  "use strict";
  var active = null;
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }
  function cardNode(c, gone) {
    var node = el("span", "card" + (c.r ? " red" : "") + (c.j ? " joker" : "") + (gone ? " gone" : ""), c.t);
    node.setAttribute("data-card", c.c);
    return node;
  }
  function setup(viewer) {
    var data = JSON.parse(viewer.querySelector(".replay-data").textContent);
    var W = data.words;
    var select = viewer.querySelector(".deal-select");
    var status = viewer.querySelector(".status");
    var info = viewer.querySelector(".info");
    var handsBox = viewer.querySelector(".hands");
    var trickBox = viewer.querySelector(".trick");
    var analysisBox = viewer.querySelector(".analysis");
    var dealIndex = 0;
    var step = 0;
    function flat(deal) {
      var out = [];
      deal.tricks.forEach(function (trick, t) {
        trick.plays.forEach(function (play, i) { out.push({t: t, i: i, play: play}); });
      });
      return out;
    }
    function marksOf(deal, trickNo, player) {
      if (!deal.an) { return []; }
      return deal.an.marks.filter(function (m) { return m.t === trickNo && m.p === player; });
    }
    function showAnalysis(deal, current) {
      analysisBox.textContent = "";
      if (!deal.an) { return; }
      analysisBox.appendChild(el("div", "an-head", W.analysis));
      if (deal.an.skipped) { analysisBox.appendChild(el("div", "an-player", deal.an.skipped)); return; }
      deal.an.players.forEach(function (p) {
        analysisBox.appendChild(el("div", "an-player" + (p.ok ? "" : " bad"), p.p + ": " + p.text));
      });
      deal.an.marks.forEach(function (m) {
        var now = current !== null && current.t + 1 === m.t;
        var line = el("div", "mark" + (now ? " now" : ""), "✗ " + W.trick + " " + m.t + ": " + m.text);
        line.setAttribute("data-trick", String(m.t));
        analysisBox.appendChild(line);
      });
    }
    function go(n) {
      var all = flat(data.deals[dealIndex]);
      step = Math.max(0, Math.min(n, all.length));
      render(all);
    }
    function render(all) {
      var deal = data.deals[dealIndex];
      var done = all.slice(0, step);
      var played = {};
      var taken = {};
      data.players.forEach(function (p) { taken[p] = 0; played[p] = {}; });
      done.forEach(function (x) {
        played[x.play.p] = played[x.play.p] || {};
        played[x.play.p][x.play.c] = true;
        var trick = deal.tricks[x.t];
        if (x.i === trick.plays.length - 1 && trick.w !== null) { taken[trick.w] = (taken[trick.w] || 0) + 1; }
      });
      var current = step > 0 ? all[step - 1] : null;
      var trickNo = current ? current.t + 1 : 0;
      var inTrick = current ? current.i + 1 : 0;
      var trickLen = current ? deal.tricks[current.t].plays.length : 0;
      status.textContent = step === 0
        ? W.start + " · " + deal.tricks_text
        : W.trick + " " + trickNo + " " + W.of + " " + deal.tricks.length + " · " + W.card + " " + inTrick + " " + W.of + " " + trickLen;
      status.setAttribute("data-trick", String(trickNo));
      status.setAttribute("data-step", String(step));
      status.setAttribute("data-steps", String(all.length));
      info.textContent = W.deal + " " + deal.number + " · " + deal.kind + " · " + deal.cards_text + " · " +
        W.dealer + ": " + deal.dealer + " · " + W.trump + ": " + deal.trump;
      showAnalysis(deal, current);
      handsBox.textContent = "";
      var next = step < all.length ? all[step].play.p : null;
      data.players.forEach(function (p) {
        var box = el("div", "hand" + (p === next ? " turn" : ""));
        box.setAttribute("data-player", p);
        box.appendChild(el("span", "who", p));
        var bid = deal.bids[p];
        box.appendChild(el("span", "bid", "  " + W.bid + " " + (bid === undefined ? "–" : bid) + " · " + W.taken + " " + taken[p]));
        var cards = el("div", "cards");
        (deal.hands[p] || []).forEach(function (c) { cards.appendChild(cardNode(c, !!played[p][c.c])); });
        box.appendChild(cards);
        handsBox.appendChild(box);
      });
      trickBox.textContent = "";
      if (current) {
        var trick = deal.tricks[current.t];
        var lines = [];
        for (var i = 0; i <= current.i; i++) {
          var play = trick.plays[i];
          var complete = current.i === trick.plays.length - 1;
          var marked = marksOf(deal, current.t + 1, play.p);
          var box = el("span", "play" + (complete && trick.w === play.p ? " won" : "") +
                       (marked.length ? " mistake" : ""));
          box.appendChild(el("span", "who", play.p + (i === 0 ? " · " + W.leads : "")));
          box.appendChild(cardNode(play, false));
          if (play.d) { box.appendChild(el("span", "decl", play.d)); }
          if (marked.length) { box.title = marked.map(function (m) { return m.text; }).join("\n"); }
          trickBox.appendChild(box);
          marked.forEach(function (m) { lines.push(m); });
        }
        lines.forEach(function (m) { trickBox.appendChild(el("div", "mark-line", "✗ " + m.text)); });
        if (current.i === trick.plays.length - 1 && trick.w !== null) {
          trickBox.appendChild(el("div", "result", trick.w + " " + W.wins_trick));
        }
      }
    }
    var api = {move: function (d) { go(step + d); }, home: function () { go(0); },
               end: function () { go(1e9); }};
    if (active === null) { active = api; }
    viewer.addEventListener("click", function () { active = api; });
    viewer.addEventListener("focusin", function () { active = api; });
    select.addEventListener("change", function () { dealIndex = Number(select.value); go(0); });
    viewer.querySelector(".prev").addEventListener("click", function () { go(step - 1); });
    viewer.querySelector(".next").addEventListener("click", function () { go(step + 1); });
    viewer.querySelector(".first").addEventListener("click", function () { go(0); });
    viewer.querySelector(".last").addEventListener("click", function () { go(1e9); });
    go(0);
  }
  document.querySelectorAll(".viewer").forEach(setup);
  document.addEventListener("keydown", function (e) {
    if (active === null || (e.target && e.target.tagName === "SELECT")) { return; }
    if (e.key === "ArrowRight") { active.move(1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { active.move(-1); e.preventDefault(); }
    else if (e.key === "Home") { active.home(); e.preventDefault(); }
    else if (e.key === "End") { active.end(); e.preventDefault(); }
  });
})();
