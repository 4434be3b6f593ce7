/* /table/N: one table, live. Every update is the engine's spectator view pushed by the
   host with Server-Sent Events; the page only draws it. */
"use strict";

(() => {
  const { $, el, chip, homeText, colorOf, colorLetters, symbolLetters, onResize, access } = Cartagena;
  const { tr, nt, Names, Board, LiveChances, eventLine, eventSpoken, spokenText, pendingText } = Cartagena;
  const MAX_LOG = 60;
  const tableId = Number(location.pathname.split("/")[2]);
  const streamUrl = `/table/${tableId}/events`;

  let table = null;   // the lobby entry: names, seats, status
  let view = null;    // the engine's spectator view
  let seq = 0;
  let events = [];    // recent events, oldest first (of this game only)
  let game = null;    // the game they are of: the seq of its first state
  let source = null;
  let fresh = false;  // the next drawing follows a new state: its moves are drawn as they happen
  let caughtUp = false;  // a state came on this stream: its first one is a catch-up
  const chances = LiveChances.tracker();   // live chances (chances.js)

  function letters() { return view ? colorLetters(view.seats.map((s) => s.color)) : colorLetters((table ? table.seats : []).map((s) => s.color)); }

  const kept = Cartagena.keptNames();  // a finished game's names, as it was played
  function seatName(i) {
    const s = table && table.seats[i];
    const name = kept(!!(view && view.outcome), i, s && s.name ? s.name : null);
    if (!name) return view ? Names.color(view.seats[i].color) : tr("seat {n}", { n: i + 1 });
    return name;
  }

  const lastMoves = () => Board.lastMoves(events);

  // The board's box: on a screen as wide as a TV, the room the stage's grid leaves it
  // (web.css); on a phone, a tall strip the page scrolls.
  function boardAspect() {
    return Cartagena.boardAspect($("board-wrap"), { tall: 1.6, least: 200,
      height: $("board").getBoundingClientRect().height || (window.innerHeight - $("bar").offsetHeight - 32) });
  }

  // Between games the join code shows: big in the board's place while the table waits,
  // in the side after a game; during a game the board has the room.
  function placeJoin(status) {
    const box = $("join-box");
    const waiting = !view;
    box.hidden = status === "playing" && !!view && !view.outcome;
    const home = waiting ? $("waiting-box") : $("side");
    if (box.parentNode !== home) home.prepend(box);
    box.classList.toggle("big", waiting);
    // the address the code holds (the host's LAN address when this page came as
    // localhost: common.js's joinAddress), this page's own until the host says
    $("join-url").textContent = `${location.host}/play`;
    Cartagena.joinAddress().then((url) => { if (url) $("join-url").textContent = url.replace(/^https?:\/\//, ""); });
  }

  // -- drawing --------------------------------------------------------------------

  function render() {
    document.body.dataset.seq = String(seq);
    document.body.dataset.size = `${window.innerWidth}x${window.innerHeight}`;  // drawn for
    document.body.dataset.game = game === null || game === undefined ? "" : String(game);
    const L = letters();
    $("table-name").textContent = table ? `${table.name}` : tr("Table {n}", { n: tableId });
    document.title = table ? `${table.name} · Cartagena` : "Cartagena";
    const status = table ? table.status : "";
    $("status-badge").textContent = ({ waiting: tr("waiting"), playing: tr("playing"), finished: tr("finished") })[status] || status;
    $("status-badge").dataset.status = status;
    $("rules").textContent = table ? Names.preset(table.rules) : "";
    $("watching").textContent = table ? nt("{n} watching", "{n} watching", table.spectators) : "";
    document.body.dataset.phase = !view ? "waiting" : (view.outcome ? "over" : "playing");
    placeJoin(status);
    const moves = view ? lastMoves() : [];
    renderPlayers(L, new Set(moves.map((m) => m.seat)));
    if (!view) {
      $("turn").textContent = "";  // the board's place says it, under the join code
      $("board").replaceChildren();
      $("board-wrap").classList.add("empty");
      $("waiting-box").hidden = false;
      $("last-move").hidden = true;
      $("cards-panel").hidden = true;
      $("log-panel").hidden = true;
      $("ranking").hidden = true;
      $("tonight").hidden = true;
      LiveChances.draw($("chances"), chances, null, seatName);
      return;
    }
    $("board-wrap").classList.remove("empty");
    $("waiting-box").hidden = true;
    $("cards-panel").hidden = false;
    $("log-panel").hidden = false;
    renderLastMove(L);
    renderTurn(L);  // the bar's height first: the board takes the room left under it
    drawBoard(L, moves, fresh);
    fresh = false;
    renderCards();
    renderRanking(L);
    LiveChances.draw($("chances"), chances, view.outcome ? null : view.seats, seatName);
    renderLog(new Set(moves));  // last: it keeps the lines that fit in the room left
    if (!boardFits()) drawBoard(L, moves, false);
  }

  // The board, laid out for its box as it is now. On a TV (web.css's stage) no text on
  // the board is under a 60th of the screen's height: 18 px at 1080p, 12 px at 720p. That
  // holds for the box the board was drawn in; when the box changes afterwards (a line
  // above it wraps, the window settles), the board is drawn again for the new box.
  let drawnFor = "";
  const boardBox = () => {
    const r = $("board").getBoundingClientRect();
    return `${Math.round(r.width)}x${Math.round(r.height)}`;
  };
  const boardFits = () => !view || $("board-wrap").classList.contains("empty") || boardBox() === drawnFor;

  function drawBoard(L, moves, animate) {
    const stage = window.innerWidth >= 900;
    Board.render($("board"), view, { letters: L, symbolLetters: symbolLetters(view.symbols),
      highlight: Board.highlightOf(moves, view), aspect: boardAspect(), animate,
      minText: stage ? window.innerHeight / 60 : 0 });
    drawnFor = boardBox();  // as drawn (on a phone the board's height follows its drawing)
  }

  if (window.ResizeObserver) {
    new ResizeObserver(() => { if (!boardFits()) drawBoard(letters(), lastMoves(), false); }).observe($("board"));
  }

  // What just happened, in big letters above the board: the latest event of the game
  // (a move, a power, a card played), with the acting seat's chip.
  const lastMove = () => [...events].reverse().find((x) => x.type !== "turn" && x.type !== "end");
  function renderLastMove(L) {
    const line = $("last-move");
    const e = lastMove();
    // Before a game's first move its place is kept, empty: the board does not jump
    // down when the first move comes.
    line.hidden = false;
    line.style.visibility = e ? "" : "hidden";
    line.dataset.empty = e ? "" : "yes";
    if (!e) { line.replaceChildren("\u00a0"); line.dataset.seat = ""; return; }
    const seat = e.seat !== undefined && e.seat !== null && view.seats[e.seat] ? e.seat : null;
    line.replaceChildren(...(seat !== null ? [chip(view.seats[seat].color, L), " "] : []), eventLine(e, view, seatName));
    line.dataset.seat = seat === null ? "" : String(seat);
    line.style.borderColor = seat === null ? "" : colorOf(view.seats[seat].color);
  }

  // The evening's scoreboard, shown when a game ends (the lobby's scores: /tables.json).
  let scoresAsked = 0;
  const SCORES_SHOWN = 8;  // the evening's best: the whole board is on / (the lobby page)
  let scoresLater = null;
  async function loadScores() {
    // a host out of reach is not asked (its stream's return draws the page, and asks)
    if (document.body.dataset.offline === "yes") return;
    const now = Date.now();
    if (now - scoresAsked < 2000) {  // asked a moment ago: once more when the pause is over
      if (scoresLater === null) {
        scoresLater = setTimeout(() => { scoresLater = null; loadScores(); }, 2000 - (now - scoresAsked));
      }
      return;
    }
    scoresAsked = now;
    try {
      const response = await fetch("/tables.json", { credentials: "same-origin", cache: "no-store" });
      if (!response.ok) return;
      const rows = (await response.json()).scores || [];
      $("tonight").hidden = !rows.length || !view || !view.outcome;
      $("scores").replaceChildren(...rows.slice(0, SCORES_SHOWN).map((r) => el("li", { class: "score" },
        el("span", { class: "score-name" }, r.bot ? Names.botRow(r.player) : r.player), " ",
        el("span", { class: "score-count" }, `${nt("{n} win", "{n} wins", r.wins)} ${nt("in {n} game", "in {n} games", r.games)}`))));
    } catch (err) { /* asked again at the next change */ }
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
      t.append(el("span", { class: "pending" }, " · " + pendingText(p, view, seatName, false)));
    }
  }

  function renderPlayers(L, acted) {
    const list = $("player-list");
    list.replaceChildren();
    const seats = view ? view.seats : (table ? table.seats.map((s) => ({ seat: s.seat, color: s.color })) : []);
    const symL = view ? symbolLetters(view.symbols) : {};
    for (const s of seats) {
      const info = table ? table.seats[s.seat] : null;
      const isTurn = view && !view.outcome && view.turn === s.seat;
      const moved = view && acted && acted.has(s.seat);
      const li = el("li", { class: "player" + (isTurn ? " turn" : "") + (moved ? " acted" : ""), "data-seat": s.seat, "data-color": s.color });
      li.style.borderColor = colorOf(s.color);
      const name = el("span", { class: "name" }, info && info.name ? info.name : tr("(free seat)"));
      const tags = [];
      if (info && info.bot) tags.push(el("span", { class: "tag" }, tr("bot")));
      if (info && info.name && !info.connected) tags.push(el("span", { class: "tag away" }, tr("away")));
      if (moved) tags.push(el("span", { class: "tag acted-tag" }, tr("just played")));
      if (isTurn) tags.push(el("span", { class: "tag turn-tag" }, "▶ " + tr("to play")));
      if (view && view.captain === s.seat) tags.push(el("span", { class: "tag captain" }, "⚓ " + tr("Captain")));
      const head = el("div", { class: "player-head" }, chip(s.color, L), " ", name, " ", ...tags);
      li.append(head);
      if (view) {
        const stats = el("div", { class: "stats" },
          el("span", { class: "hand-size" }, nt("{n} card", "{n} cards", s.hand_size)),
          el("span", { class: "home" }, homeText(view, s)),
          view.sloop ? el("span", { class: "aboard" }, tr("{n} aboard", { n: view.sloop.aboard[s.seat] })) : null);
        li.append(stats);
        if (s.hand) {
          li.append(el("div", { class: "hand cards", "aria-label": tr("{name}'s hand", { name: info && info.name ? info.name : Names.color(s.color) }) },
            s.hand.map((c) => Board.symbolIcon(c, symL[c.replace(/\*$/, "")], 22))));
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
        ...(top ? [Board.symbolIcon(top, symL[top.replace(/\*$/, "")], 26),
          el("span", { class: "pile-count" }, nt("{n} card", "{n} cards", view.discard.length))]
          : [el("span", { class: "pile-value" }, tr("empty"))])));
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
    if (!view.outcome) { $("tonight").hidden = true; return; }
    loadScores();
    for (const seat of view.outcome.ranking) {
      const s = view.seats[seat];
      list.append(el("li", { "data-seat": seat }, chip(s.color, L), ` ${seatName(seat)} · ${homeText(view, s)}`));
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
    // On the stage the panel keeps the newest lines that fit whole: no line half shown.
    if (window.innerWidth >= 900) {
      const bottom = Math.min(list.getBoundingClientRect().bottom, $("side").getBoundingClientRect().bottom) + 0.5;
      for (const li of [...list.children].reverse()) {
        if (li.getBoundingClientRect().bottom <= bottom) break;
        li.hidden = true;
      }
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
    Cartagena.offline(false);
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
    caughtUp = false;
    source = new EventSource(streamUrl);
    source.addEventListener("open", () => { setConnection(tr("live"), true); Cartagena.offline(false); });
    source.addEventListener("table", (msg) => {
      table = JSON.parse(msg.data);
      render();
    });
    source.addEventListener("state", (msg) => {
      const data = JSON.parse(msg.data);
      if (data.reset) events = [];
      const anew = game !== null && data.game !== game;   // said: the last one's end is not read again
      if (data.game !== game) {   // another game: nothing of the last one is drawn
        game = data.game;
        events = [];
        chances.clear();
      }
      events = events.concat(data.events).slice(-MAX_LOG);
      view = data.view;
      seq = data.seq;
      // Said to a spectator who cannot see the screen (the live region, in words): each
      // state's moves as they happen; a stream's first state (a reload, a reconnect), which
      // carries the recent moves again, says only the newest, as the line above the board.
      const catchUp = !caughtUp || data.reset;
      caughtUp = true;
      const newest = catchUp ? [lastMove()].filter(Boolean) : data.events || [];
      const said = newest.map((e) => eventSpoken(e, view, seatName));
      if (anew) said.unshift(tr("A new game begins."));
      if (said.length) $("live").textContent = spokenText(said);
      fresh = !data.reset && (data.events || []).some((e) => ["advance", "retreat", "morgan", "parrot", "hook"].includes(e.type));
      chances.take(data);
      render();
    });
    source.addEventListener("gone", gone);
    source.addEventListener("error", () => {
      if (!source) return;
      Cartagena.offline(true);   // the board and "to play" no longer look live
      if (source.readyState === EventSource.CLOSED) {
        source = null;
        setConnection(tr("reconnecting…"), false);
        setTimeout(connect, 2000);
      } else {
        setConnection(tr("reconnecting…"), false);
      }
    });
  }

  onResize(render);
  render();
  connect();
})();
