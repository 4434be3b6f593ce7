/* /: the host's tables, live, as in the lobby. */
"use strict";

(() => {
  const { $, el, chip, colorLetters, access } = Cartagena;
  const { tr, nt, Names } = Cartagena;

  // How to sit at this host from a terminal or a phone: the address this page came
  // from (the host's LAN address when it came as localhost: common.js's joinAddress),
  // the game port.
  function showJoin(port) {
    const show = (where) => {
      $("join-command").textContent = `cartagena join ${where.hostname}:${port}`;
      $("play-url").textContent = `${where.host}/play`;
    };
    show(location);
    Cartagena.joinAddress().then((url) => {
      try { if (url) show(new URL(url)); } catch (err) { /* this page's own */ }
    });
  }

  function render(data) {
    $("host-name").textContent = data.host;
    document.title = `${data.host} · Cartagena`;
    showJoin(data.port);
    $("join").hidden = false;
    const list = $("tables");
    list.replaceChildren();
    if (!data.tables.length) list.append(el("li", { class: "empty" }, tr("No table yet.")));
    for (const t of data.tables) {
      const L = colorLetters(t.seats.map((s) => s.color));
      const free = t.status === "playing" ? 0 : t.seats.filter((s) => !s.name).length;
      const seats = t.seats.map((s) => {
        const c = chip(s.color, L);
        c.title = Names.color(s.color);
        return el("span", { class: "seat" + (s.name ? "" : " free") }, c, " ", s.name || tr("free"));
      });
      const closed = t.spectators_allowed === false;
      const link = el("a", { href: `/table/${t.id}`, class: "table-link" }, t.name);
      list.append(el("li", { class: "table-entry", "data-table": t.id, "data-status": t.status },
        el("div", { class: "table-head" }, link, " ",
          el("span", { class: "badge-status", "data-status": t.status }, ({ waiting: tr("waiting"), playing: tr("playing"), finished: tr("finished") })[t.status] || t.status),
          t.password ? el("span", { class: "tag" }, tr("password")) : null,
          t.hints ? el("span", { class: "tag" }, tr("hints")) : null,
          t.player_chances ? el("span", { class: "tag" }, tr("chances shown")) : null,
          closed ? el("span", { class: "tag" }, tr("no spectators")) : null),
        el("div", { class: "table-info" }, `${Names.preset(t.rules)} · ${nt("{n} seat", "{n} seats", t.seats.length)} · ${nt("{n} free", "{n} free", free)} · ${nt("{n} watching", "{n} watching", t.spectators)}`),
        el("div", { class: "seats" }, seats)));
    }
  }

  // Tonight's scoreboard (the lobby's scores) and this host's finished games.
  function renderScores(rows) {
    $("tonight").hidden = !rows || !rows.length;
    $("scores").replaceChildren(...(rows || []).map((r) => el("li", { class: "score" },
      `${r.bot ? Names.botRow(r.player) : r.player}: ${nt("{n} win", "{n} wins", r.wins)} ${nt("in {n} game", "in {n} games", r.games)}`)));
    $("scores-note").hidden = !(rows || []).some((r) => r.bot);
  }

  // How a game that no one won ended (the record's end: the data's word otherwise).
  const endWord = (end) => ({ stopped: tr("stopped"), abandoned: tr("abandoned") })[end] || end;
  // Who won a game, said as such ("won by Ann"); a game no one won, said unfinished.
  function endText(g) {
    if (g.end !== "won") return tr("unfinished ({how})", { how: endWord(g.end) });
    const name = g.people && g.winner_seat !== null && g.people[g.winner_seat] ? Names.player(g.people[g.winner_seat]) : g.winner;
    return tr("won by {name}", { name });
  }
  let gamesAsked = 0;
  async function loadGames() {
    const now = Date.now();
    if (now - gamesAsked < 3000) return;
    gamesAsked = now;
    try {
      const response = await fetch("/games.json", { credentials: "same-origin", cache: "no-store" });
      if (!response.ok) return;
      const data = await response.json();
      $("finished").hidden = !data.games.length;
      $("games").replaceChildren(...data.games.map((g) => el("li", { class: "game-entry", "data-game": g.id },
        el("a", { href: `/game/${encodeURIComponent(g.id)}`, class: "game-link" }, Names.when(g.ended || g.started) || g.id),
        ` · ${g.preset ? Names.rules(g.preset, g.options) : g.rules} · ${g.people ? g.people.map(Names.player).join(", ") : g.players.join(", ")} · `,
        el("strong", { class: "game-end", "data-end": g.end }, endText(g)))));
    } catch (err) { /* the list waits for the next change */ }
  }

  async function connect() {
    const refused = await access("/events", null);
    if (refused) {
      $("status").textContent = refused.text;
      return;
    }
    const source = new EventSource("/events");
    source.addEventListener("open", () => { $("status").textContent = tr("live"); Cartagena.offline(false); });
    source.addEventListener("lobby", (msg) => {
      const data = JSON.parse(msg.data);
      render(data);
      renderScores(data.scores);
      loadGames();
    });
    source.addEventListener("error", () => {
      $("status").textContent = tr("reconnecting…");
      Cartagena.offline(true);
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
    });
  }
  connect();
})();
