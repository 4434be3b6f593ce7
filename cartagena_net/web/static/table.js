/* /table/N: one table, live. Every update is the engine's spectator view pushed by the
   host with Server-Sent Events; the page only draws it. */
"use strict";

(() => {
  const { el, colorOf, inkOn, colorLetters, symbolLetters, access } = Cartagena;
  const MAX_LOG = 60;
  const tableId = Number(location.pathname.split("/")[2]);
  const streamUrl = `/table/${tableId}/events`;
  const $ = (id) => document.getElementById(id);

  let table = null;   // the lobby entry: names, seats, status
  let view = null;    // the engine's spectator view
  let seq = 0;
  let events = [];    // recent events, oldest first
  let source = null;
  const chances = LiveChances.tracker();   // live chances (chances.js)

  function letters() { return view ? colorLetters(view.seats.map((s) => s.color)) : colorLetters((table ? table.seats : []).map((s) => s.color)); }

  function seatName(i) {
    const s = table && table.seats[i];
    if (!s || !s.name) return view ? Names.color(view.seats[i].color) : tr("seat {n}", { n: i });
    return s.name;
  }

  function chip(color, L) {
    const c = el("span", { class: "chip", "data-color": color }, L[color] || "?");
    c.style.background = colorOf(color);
    c.style.color = inkOn(color);
    return c;
  }

  const lastMoves = () => Board.lastMoves(events);

  function boardAspect() {
    const wrap = $("board-wrap");
    const w = wrap.clientWidth || window.innerWidth;
    const narrow = window.innerWidth < 900;
    const h = narrow ? Math.max(w * 1.6, 300) : Math.max(window.innerHeight - $("bar").offsetHeight - 32, 300);
    return w / h;
  }

  // -- drawing --------------------------------------------------------------------

  function render() {
    document.body.dataset.seq = String(seq);
    const L = letters();
    $("table-name").textContent = table ? `${table.name}` : tr("Table {n}", { n: tableId });
    document.title = table ? `${table.name} · Cartagena` : "Cartagena";
    const status = table ? table.status : "";
    $("status-badge").textContent = ({ waiting: tr("waiting"), playing: tr("playing"), finished: tr("finished") })[status] || status;
    $("status-badge").dataset.status = status;
    $("rules").textContent = table ? table.rules : "";
    $("watching").textContent = table ? nt("{n} watching", "{n} watching", table.spectators) : "";
    renderPlayers(L);
    if (!view) {
      $("turn").textContent = status === "playing" ? "" : tr("Waiting for the game to start");
      $("board").replaceChildren();
      $("board-wrap").classList.add("empty");
      $("board-waiting").hidden = false;
      return;
    }
    $("board-wrap").classList.remove("empty");
    $("board-waiting").hidden = true;
    const moves = lastMoves();
    const highlight = Board.highlightOf(moves, view);
    Board.render($("board"), view, { letters: L, symbolLetters: symbolLetters(view.symbols), highlight, aspect: boardAspect() });
    renderTurn(L);
    renderCards();
    renderRanking(L);
    renderLog(new Set(moves));
    LiveChances.draw($("chances"), chances, view.seats, seatName);
  }

  function renderTurn(L) {
    const t = $("turn");
    t.replaceChildren();
    if (view.outcome) {
      const w = view.outcome.winner;
      t.append(chip(view.seats[w].color, L), " " + tr("{name} wins!", { name: seatName(w) }));
      return;
    }
    const turn = view.turn;
    t.append(chip(view.seats[turn].color, L), " " + tr("{name} to play", { name: seatName(turn) }),
      el("span", { class: "actions" }, " · " + tr("action {n} of {m}", { n: Math.min(view.actions_taken + 1, view.actions_max), m: view.actions_max })));
    if (view.captain === turn && view.free_sail && view.actions_taken === 0) {
      t.append(el("span", { class: "captain-note" }, " · " + tr("Captain: may sail free")));
    }
    for (const p of view.pending) {
      t.append(el("span", { class: "pending" }, " · " + tr("{who} must discard {n}", { who: seatName(p.seat), n: p.count })));
    }
  }

  function renderPlayers(L) {
    const list = $("player-list");
    list.replaceChildren();
    const seats = view ? view.seats : (table ? table.seats.map((s) => ({ seat: s.seat, color: s.color })) : []);
    const symL = view ? symbolLetters(view.symbols) : {};
    for (const s of seats) {
      const info = table ? table.seats[s.seat] : null;
      const isTurn = view && !view.outcome && view.turn === s.seat;
      const li = el("li", { class: "player" + (isTurn ? " turn" : ""), "data-seat": s.seat, "data-color": s.color });
      li.style.borderColor = colorOf(s.color);
      const name = el("span", { class: "name" }, info && info.name ? info.name : tr("(free seat)"));
      const tags = [];
      if (info && info.bot) tags.push(el("span", { class: "tag" }, tr("bot")));
      if (info && info.name && !info.connected) tags.push(el("span", { class: "tag away" }, tr("away")));
      if (isTurn) tags.push(el("span", { class: "tag turn-tag" }, "▶ " + tr("to play")));
      if (view && view.captain === s.seat) tags.push(el("span", { class: "tag captain" }, "⚓ " + tr("Captain")));
      const head = el("div", { class: "player-head" }, chip(s.color, L), " ", name, " ", ...tags);
      li.append(head);
      if (view) {
        const home = s.pirates.filter((p) => p === view.boat).length;
        const stats = el("div", { class: "stats" },
          el("span", { class: "hand-size" }, nt("{n} card", "{n} cards", s.hand_size)),
          el("span", { class: "home" }, tr("{n}/{m} in the {goal}", { n: home, m: s.pirates.length, goal: Names.place(view.goal_name || "boat") })),
          view.sloop ? el("span", { class: "aboard" }, tr("{n} aboard", { n: view.sloop.aboard[s.seat] })) : null);
        li.append(stats);
        if (s.hand) {
          li.append(el("div", { class: "hand cards" }, s.hand.map((c) => Board.symbolIcon(c, symL[c.replace(/\*$/, "")], 22))));
        }
      }
      list.append(li);
    }
  }

  function renderCards() {
    const symL = symbolLetters(view.symbols);
    const piles = $("piles");
    piles.replaceChildren();
    const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
    piles.append(
      el("div", { class: "pile", id: "stock" }, el("span", { class: "pile-label" }, tr("Stock")), el("span", { class: "pile-value" }, nt("{n} card", "{n} cards", view.stock))),
      el("div", { class: "pile", id: "discard" }, el("span", { class: "pile-label" }, tr("Discard")),
        top ? Board.symbolIcon(top, symL[top.replace(/\*$/, "")], 26) : el("span", { class: "pile-value" }, tr("empty")),
        el("span", { class: "pile-count" }, `${view.discard.length}`)));
    const row = $("row");
    row.replaceChildren();
    row.hidden = view.row === null;
    if (view.row !== null) {
      row.append(el("span", { class: "pile-label" }, tr("Face-up row")),
        el("div", { class: "cards" }, view.row.map((c) => Board.symbolIcon(c, symL[c.replace(/\*$/, "")], 24))));
    }
  }

  function renderRanking(L) {
    const box = $("ranking");
    const list = $("ranking-list");
    list.replaceChildren();
    box.hidden = !view.outcome;
    if (!view.outcome) return;
    for (const seat of view.outcome.ranking) {
      const s = view.seats[seat];
      const home = s.pirates.filter((p) => p === view.boat).length;
      list.append(el("li", { "data-seat": seat }, chip(s.color, L), ` ${seatName(seat)} · ${tr("{n}/{m} in the {goal}", { n: home, m: s.pirates.length, goal: Names.place(view.goal_name || "boat") })}`));
    }
  }

  function renderLog(recent) {
    const list = $("event-log");
    list.replaceChildren();
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i];
      const li = el("li", { class: "event" + (recent.has(e) ? " recent" : ""), "data-type": e.type }, eventLine(e, view, seatName));
      if (e.seat !== undefined && view.seats[e.seat]) li.style.borderColor = colorOf(view.seats[e.seat].color);
      list.append(li);
    }
  }

  // -- the stream -----------------------------------------------------------------

  function setConnection(text, live) {
    $("conn").textContent = text;
    $("conn").dataset.live = live ? "yes" : "no";
  }

  function notice(text, ...more) {
    $("notice").replaceChildren(text, ...more);
    $("notice").hidden = !text;
  }

  // The table is gone (the host removed it): say so, link to the list, stop watching.
  function gone() {
    if (source) source.close();
    source = null;
    document.body.dataset.gone = "yes";
    setConnection(tr("table gone"), false);
    notice(tr("Table {n} is gone: nobody is left at it.", { n: tableId }) + " ", el("a", { href: "/", id: "to-tables" }, tr("See the tables")));
  }

  async function connect() {
    setConnection(tr("connecting…"), false);
    const refused = await access(streamUrl, tableId);
    if (refused && refused.reason === "no-such-table") {
      gone();
      return;
    }
    if (refused) {
      notice(refused.text);
      setConnection(tr("not watching"), false);
      if (refused.retry) setTimeout(connect, 3000);   // the host may come back or have room
      return;
    }
    notice("");
    source = new EventSource(streamUrl);
    source.addEventListener("open", () => setConnection(tr("live"), true));
    source.addEventListener("table", (msg) => {
      table = JSON.parse(msg.data);
      render();
    });
    source.addEventListener("state", (msg) => {
      const data = JSON.parse(msg.data);
      if (data.reset) events = [];
      events = events.concat(data.events).slice(-MAX_LOG);
      view = data.view;
      seq = data.seq;
      chances.take(data);
      render();
    });
    source.addEventListener("gone", gone);
    source.addEventListener("error", () => {
      if (!source) return;
      if (source.readyState === EventSource.CLOSED) {
        source = null;
        setConnection(tr("reconnecting…"), false);
        setTimeout(connect, 2000);
      } else {
        setConnection(tr("reconnecting…"), false);
      }
    });
  }

  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(render, 150);
  });
  render();
  connect();
})();
