/* /game/ID: a finished game, replayed. Every position is the engine's spectator view
   (from /game/ID.json, built by the host from the game's record); with the bot's review,
   the chances of winning after every action, its turning points and the bot's moves. */
"use strict";

(() => {
  const { $, el, svg, chip, colorOf, colorLetters, symbolLetters, homeText, onResize } = Cartagena;
  const { tr, nt, Names, Board, Words, eventLine, eventSpoken, spokenText, percentText, reasonText } = Cartagena;
  const id = decodeURIComponent(location.pathname.split("/")[2] || "");
  let data = null, pos = 0, turnStarts = [0];

  const label = (seat) => {
    const person = data.summary.people && data.summary.people[seat];
    return person ? Names.player(person) : (data.players.find((p) => p.seat === seat) || {}).label || tr("seat {n}", { n: seat + 1 });
  };

  // A step (a button, a key, the slider, the chart): drawn, and the action it shows said
  // in the live region, in words, as the log shows it; the deal said as such.
  function go(to) {
    pos = Math.max(0, Math.min(data.views.length - 1, to));
    render();
    const view = data.views[pos];
    const said = pos === 0 ? [tr("the deal"), view.outcome ? "" : tr("{name} to play", { name: label(view.turn) })]
      : (data.events[pos] || []).map((e) => eventSpoken(e, view, label));
    $("live").textContent = spokenText(said.length ? said : [$("where").textContent]);
  }
  function turn(delta) {
    if (delta > 0) go(turnStarts.find((s) => s > pos) ?? data.views.length - 1);
    else {
      const before = turnStarts.filter((s) => s < pos);
      go(before.length ? before[before.length - 1] : 0);
    }
  }

  function render() {
    const view = data.views[pos];
    const L = colorLetters(view.seats.map((s) => s.color));
    const symL = symbolLetters(view.symbols);
    document.body.dataset.pos = String(pos);
    $("slider").value = String(pos);
    $("where").textContent = tr("action {n} of {m}", { n: pos, m: data.views.length - 1 });
    const highlight = Board.highlightOf(data.events[pos] || [], view);
    const aspect = Cartagena.boardAspect($("board-wrap"), { height: window.innerHeight * 0.62 });
    Board.render($("board"), view, { letters: L, symbolLetters: symL, highlight, aspect });
    const t = $("turn");
    t.replaceChildren();
    if (view.outcome) t.append(chip(view.seats[view.outcome.winner].color, L), " " + tr("{name} wins!", { name: label(view.outcome.winner) }));
    else t.append(chip(view.seats[view.turn].color, L), " " + tr("{name} to play", { name: label(view.turn) }));
    const list = $("player-list");
    list.replaceChildren();
    for (const s of view.seats) {
      const li = el("li", { class: "player" + (!view.outcome && view.turn === s.seat ? " turn" : ""), "data-seat": s.seat },
        chip(s.color, L), ` ${label(s.seat)} · ${nt("{n} card", "{n} cards", s.hand_size)} · ${homeText(view, s)}`);
      li.style.borderColor = colorOf(s.color);
      list.append(li);
    }
    const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
    $("piles").replaceChildren(el("span", { class: "pile" }, tr("Stock: {n}", { n: view.stock })), " ",
      el("span", { class: "pile" }, tr("Discard:") + " ", top ? Board.symbolIcon(top, symL[top.replace(/\*$/, "")], 22) : tr("empty")));
    const log = $("event-log");
    log.replaceChildren();
    for (let k = pos; k >= Math.max(1, pos - 40); k--) {
      for (const e of [...(data.events[k] || [])].reverse()) {
        const li = el("li", { class: "event" + (k === pos ? " recent" : ""), "data-type": e.type }, eventLine(e, view, label));
        if (e.seat !== undefined && view.seats[e.seat]) li.style.borderColor = colorOf(view.seats[e.seat].color);
        log.append(li);
      }
    }
    renderReview(view, L);
  }

  // The review: one line a seat (its chance after every action), the turning points
  // marked, this position's line; a click on the chart goes to that action.
  function renderReview(view, L) {
    const review = data.review;
    $("review").hidden = !review;
    if (!review) return;
    const chart = $("curve");
    const n = review.positions.length - 1, W = 600, H = 160, P = 6;
    const x = (k) => P + (W - 2 * P) * (n ? k / n : 0);
    const y = (c) => H - P - (H - 2 * P) * c;
    chart.setAttribute("viewBox", `0 0 ${W} ${H}`);
    chart.replaceChildren(svg("rect", { x: 0, y: 0, width: W, height: H, class: "curve-bg" }));
    chart.append(svg("line", { x1: P, x2: W - P, y1: y(0.5), y2: y(0.5), class: "curve-half" }));
    view.seats.forEach((s) => {
      const pts = review.positions.map((p, k) => `${x(k).toFixed(1)},${y(p.chances[s.seat]).toFixed(1)}`).join(" ");
      chart.append(svg("polyline", { points: pts, class: "curve-line", stroke: colorOf(s.color), "data-seat": s.seat }));
    });
    for (const k of review.turning) {
      chart.append(svg("circle", { cx: x(k + 1), cy: y(review.positions[k + 1].chances[review.moves[k].seat]), r: 5, class: "turning", "data-k": k }));
    }
    chart.append(svg("line", { x1: x(pos), x2: x(pos), y1: 0, y2: H, class: "curve-now" }));
    // The key: each seat's line (its chip, its name) and the turning points' dot.
    const dot = svg("svg", { width: 14, height: 14, viewBox: "0 0 14 14", "aria-hidden": "true" },
      svg("circle", { cx: 7, cy: 7, r: 5, class: "turning" }));
    $("curve-legend").replaceChildren(...view.seats.map((s) => {
      const line = el("span", { class: "line-key", "aria-hidden": "true" });
      line.style.background = colorOf(s.color);
      return el("li", { "data-seat": s.seat }, line, chip(s.color, L), label(s.seat));
    }), el("li", { class: "turning-key" }, dot, tr("turning point")));
    chart.onclick = (e) => {
      const box = chart.getBoundingClientRect();
      go(Math.round(((e.clientX - box.left) / box.width * W - P) / (W - 2 * P) * n));
    };
    const chances = review.positions[pos].chances.map((c, seat) => `${label(seat)} ${percentText(c)}`).join(" · ");
    const move = pos > 0 ? review.moves[pos - 1] : null;
    // A move in words, the same for every seat (as the terminal's review names it), from
    // the board before it; a power or decision in the review's own words (move.said, the
    // hints' templates), else in the builder's words.
    const worded = (m) => (m && typeof m === "object" ? reasonText(m.why, m.args) : null);
    const said = (action, saidAs) => {
      const before = data.views[pos - 1];
      const plain = Words.move(action, before);
      if (plain !== null) return plain;
      const own = worded(saidAs);
      if (own !== null) return own;
      return Words.text(String(action).split(" "), { view: before, seat: null, mover: move.seat, seatName: label,
        chip: (color) => chip(color, colorLetters(before.seats.map((s) => s.color))), symbolLetters: symbolLetters(before.symbols) });
    };
    let advice = tr("Chances here: {chances}.", { chances });
    const saidAs = (move && move.said) || {};
    if (move && move.best && move.best !== move.played) {
      const played = said(move.played, saidAs.played), best = said(move.best, saidAs.best);
      advice += " " + (move.loss ? tr("{name}: {played}; better: {best} (it cost {n}% of the chance to win).", { name: label(move.seat), played, best, n: Math.round(move.loss * 100) })
        : tr("{name}: {played}; the bot would have chosen: {best}.", { name: label(move.seat), played, best }));
    } else if (move) {
      advice += " " + tr("{name}: {played}; the bot agrees.", { name: label(move.seat), played: said(move.played, saidAs.played) });
    }
    if (review.turning.includes(pos - 1)) advice = tr("A turning point.") + " " + advice;
    $("advice").textContent = advice;
  }

  async function load() {
    // Behind the host's password, as the lobby: asked on the page when missing.
    const refused = await Cartagena.access("/tables.json", null);
    if (refused) { $("notice").textContent = refused.text; $("notice").hidden = false; return; }
    let response;
    try {
      response = await fetch(`/game/${encodeURIComponent(id)}.json`, { credentials: "same-origin", cache: "no-store" });
    } catch (err) {
      $("notice").textContent = tr("the host does not answer"); $("notice").hidden = false;
      return;
    }
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      $("notice").textContent = body.error || tr("no such game ({status})", { status: response.status });
      $("notice").hidden = false;
      return;
    }
    data = body;
    const s = data.summary, rules = s.preset ? Names.rules(s.preset, s.options) : s.rules;
    document.title = tr("{rules} · replay · Cartagena", { rules });
    $("title").textContent = `${s.people ? s.people.map(Names.player).join(", ") : s.players.join(", ")}`;
    $("rules").textContent = `${rules} · ${Names.when(s.started)}`;
    turnStarts = [0];
    for (let k = 1; k < data.views.length; k++) {
      if (data.views[k].turn !== data.views[k - 1].turn) turnStarts.push(k);
    }
    $("slider").max = String(data.views.length - 1);
    $("controls").hidden = false;
    document.body.dataset.loaded = "yes";
    pos = 0;
    render();   // the deal, drawn; said only once the replay is stepped
    if (!data.review) setTimeout(lookForReview, REVIEW_POLL_MS);
  }

  // A game is reviewed after it ends: a page opened before that asks again until the
  // review is there, and draws it without moving from where it is.
  const REVIEW_POLL_MS = 10000;
  async function lookForReview() {
    try {
      const response = await fetch(`/game/${encodeURIComponent(id)}.json`, { credentials: "same-origin", cache: "no-store" });
      const body = response.ok ? await response.json() : null;
      if (body && body.review) { data.review = body.review; render(); return; }
    } catch (err) { /* asked again below */ }
    setTimeout(lookForReview, REVIEW_POLL_MS);
  }

  $("first").onclick = () => go(0);
  $("last").onclick = () => go(Infinity);
  $("back").onclick = () => go(pos - 1);
  $("forward").onclick = () => go(pos + 1);
  $("turn-back").onclick = () => turn(-1);
  $("turn-forward").onclick = () => turn(1);
  $("slider").oninput = () => go(Number($("slider").value));
  document.addEventListener("keydown", (e) => {
    if (!data || e.target.tagName === "INPUT" && e.key !== "Home" && e.key !== "End") return;
    const keys = { ArrowLeft: () => go(pos - 1), ArrowRight: () => go(pos + 1), ArrowUp: () => turn(-1),
      ArrowDown: () => turn(1), Home: () => go(0), End: () => go(Infinity) };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
  onResize(() => data && render());
  load();
})();
