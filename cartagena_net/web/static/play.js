/* /play: a guest's seat in the browser. The page is a client of the host's protocol
   (docs/web.md): the host's messages arrive as "msg" events of /play/events; the page
   sends its own with POST /play/send. A move is picked word by word from the legal
   actions the host sent (pirate, then card...), each word named for a person
   (words.js), previewed, then confirmed.

   The page opens its stream itself and decides when to open another: never while a
   password is being asked (a refused one is never sent again) and never after its seat
   moved to another tab (until the guest takes it back here). */
"use strict";

(() => {
  const { $, el, colorOf, colorLetters, symbolLetters, homeText, onResize } = Cartagena;
  const { tr, nt, Names, Board, Words, TableForm, LiveChances, eventLine, eventSpoken, spokenText, hintText,
    reasonText, pendingText, osErrors, journalDamage } = Cartagena;
  const MAX_LOG = 60;
  const lastMoves = () => Board.lastMoves(events);

  let session = null;        // {id, csrf} of the open play stream
  let source = null;
  let welcomed = false;
  let lobby = [];            // lobby.tables
  let here = null;           // {table, seat} where we are (seat null: watching)
  let view = null, legal = [], previews = {}, seq = 0, events = [];
  let game = null;           // the game events, marks and chances are of (its first seq)
  let prefix = [];           // the words of an action picked so far
  let stepped = false;       // a word was picked, taken back or confirmed: focus goes on to what comes next
  let arrived = false;       // a turn of ours began, or the game's screen was shown: a keyboard left nowhere comes to it
  let asking = null;         // what the secret form asks: "host" or a table id
  let hostPassword = null;
  let myTurnBefore = false;
  let caughtUp = false;      // a state came on this stream: its first one is a catch-up
  let paused = null;         // why no stream is opened now: "password", "moved" or null
  let retry = 1500;          // ms before the next stream after a lost one (doubles)
  let retryTimer = null;
  let room = false;          // after a game: the table's room (seats, bots, start)
  let streams = 0;

  // ``why``: what the notice is about (a host's reason), so that it goes once it is no
  // longer true (the seats it says are empty are taken).
  let noticeWhy = null;
  function notice(text, why) { $("notice").textContent = text || ""; $("notice").hidden = !text; noticeWhy = text ? why || null : null; }
  function setConnection(text, live) { $("conn").textContent = text; $("conn").dataset.live = live ? "yes" : "no"; }
  function screen(name) {
    if (name === "game" && document.body.dataset.screen !== "game") arrived = true;
    document.body.dataset.screen = name;
    $("name-form").hidden = name !== "name";
    $("lobby").hidden = name !== "lobby";
    $("waiting").hidden = name !== "waiting";
    $("game").hidden = name !== "game";
    $("moved").hidden = name !== "moved";
    // "connecting": nothing but the bar (and the password form, when it is asked) until
    // the host says where this page is: no lobby, waiting room or old game in between.
  }

  // -- talking to the host --------------------------------------------------------

  async function post(path, body) {
    if (!session) return null;
    try {
      const response = await fetch(path, {
        method: "POST", credentials: "same-origin", cache: "no-store",
        headers: { "Content-Type": "application/json", "X-Cartagena-Session": session.id, "X-Cartagena-Csrf": session.csrf },
        body: JSON.stringify(body),
      });
      const answer = await response.json().catch(() => ({}));
      if (!response.ok) notice(answer.message || tr("refused ({status})", { status: response.status }));
      return answer;
    } catch (err) {
      setConnection(tr("reconnecting…"), false);
      return null;
    }
  }
  const send = (msg) => post("/play/send", msg);

  function hello() {
    const msg = { type: "hello", versions: [1], name: localStorage.getItem("cartagena-name") || "guest", role: "player" };
    if (hostPassword) msg.password = hostPassword;
    send(msg);
  }

  function connect() {
    clearTimeout(retryTimer);
    retryTimer = null;
    if (source || paused) return;
    setConnection(tr("connecting…"), false);
    streams += 1;
    document.body.dataset.streams = String(streams);
    const stream = source = new EventSource("/play/events");
    stream.addEventListener("session", (e) => {
      session = JSON.parse(e.data);
      welcomed = false;
      caughtUp = false;
      setConnection(tr("live"), true);
      Cartagena.offline(false);
      if (localStorage.getItem("cartagena-name")) hello();
    });
    stream.addEventListener("msg", (e) => receive(JSON.parse(e.data)));
    stream.addEventListener("error", () => {
      // The stream ended (the host dropped it, the network went): the page, not the
      // browser, decides whether and when to open another.
      stream.close();
      if (source !== stream) return;
      source = null;
      session = null;
      if (paused) return;
      setConnection(tr("reconnecting…"), false);
      // Nothing can be sent while the host is away: the page says so, dims, and its title
      // no longer says "Your turn" (it says so again with the next stream's state).
      Cartagena.offline(true);
      document.title = tr("Cartagena · play");
      retryTimer = setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30000);
    });
  }

  // Close the stream and open none until the guest asks (a password, a seat moved).
  function pause(why) {
    paused = why;
    clearTimeout(retryTimer);
    if (source) { source.close(); source = null; }
    session = null;
    Cartagena.offline(false);
    setConnection(why === "moved" ? tr("not here") : tr("waiting for you"), false);
  }
  function resume() { paused = null; retry = 1500; connect(); }

  function receive(msg) {
    const handler = HANDLERS[msg.type];
    if (handler) handler(msg);
  }

  const HANDLERS = {
    welcome(msg) {
      welcomed = true;
      retry = 1500;
      notice("");
      // A new stream is a new connection: it is at a table only if its seat came back.
      // Its first state repeats the game's recent events: none is kept from before.
      if (msg.resumed) { here = { table: msg.resumed.table, seat: msg.resumed.seat }; events = []; }
      else forget();
      render();
    },
    lobby(msg) {
      const was = (table() || {}).notices || [];
      lobby = msg.tables; hostNotices = msg.notices || [];
      const now = (table() || {}).notices || [];
      if (was.some((n) => n.kind === "journal-failed") && !now.some((n) => n.kind === "journal-failed")) {
        notice("The host's disk has room again: the game goes on.");
      }
      const t = table();
      if (noticeWhy === "seats-empty" && t && !t.seats.some((s) => !s.name && !s.bot)) notice("");
      render();
    },
    joined(msg) {
      here = { table: msg.table, seat: msg.seat === undefined ? null : msg.seat };
      room = false;
      post("/play/keep", {});
      render();
    },
    state(msg) {
      const anew = game !== null && msg.game !== game;   // said: the last one's end is not read again
      if (msg.game !== game) {
        // Another game (Play again, another table): nothing of the last one is drawn
        // with this one's seats: no event, no move mark, no chance, no hint.
        game = msg.game;
        arrived = true;
        events = events.filter((e) => e.type === "chat"); prefix = [];
        Learn.newGame();
      }
      Learn.state(msg);
      const wasTurn = myTurnBefore;
      view = msg.view; legal = msg.legal || []; previews = msg.previews || {}; seq = msg.seq;
      events = events.concat(msg.events || []).slice(-MAX_LOG);
      if (!view.outcome) room = false;
      const still = legal.some((a) => { const w = a.split(" "); return prefix.every((p, i) => w[i] === p); });
      if (!still) prefix = [];
      myTurnBefore = legal.length > 0;
      if (myTurnBefore && !wasTurn) { turnNotice(); arrived = true; }
      // The live region: a screen reader speaks each move as it happens, and the turn,
      // in words (no arrow: "from start to 3"). The first state of a stream (a reload, a
      // reconnect) carries the recent moves again: only the last of them is spoken, not
      // the whole log once more.
      const fresh = caughtUp ? msg.events || [] : (msg.events || []).slice(-1);
      caughtUp = true;
      const said = fresh.map((e) => eventSpoken(e, view, seatName)).filter(Boolean);
      if (myTurnBefore && !wasTurn) said.push(tr("Your turn"));
      if (anew) said.unshift(tr("A new game begins."));
      if (said.length) $("live").textContent = spokenText(said);
      if (!myTurnBefore) document.title = tr("Cartagena · play");
      else if (wasTurn) document.title = tr("▶ Your turn · Cartagena");   // a stream back at our turn
      render();
    },
    error(msg) {
      if (msg.code === "resumed-elsewhere") { movedAway(); return; }
      if (msg.code === "bad-password" && msg.ref === "hello") {
        // Fatal: the host drops this stream. The password is asked again, never re-sent.
        const wrong = hostPassword !== null;
        hostPassword = null;
        pause("password");
        askSecret("host", tr("This host needs its password"), wrong);
        render();
        return;
      }
      if (msg.code === "bad-password" && msg.ref === "join_table" && asking !== null) return askSecret(asking, tr("Table {n} needs its password", { n: asking }), true);
      if (msg.code === "bad-password" && msg.ref === "join_table") return;
      notice(reasonText(msg.why, msg.args) || msg.message || msg.code, msg.why);
    },
    hint(msg) { Learn.hint(msg); },
    ping(msg) { send({ type: "pong", nonce: msg.nonce }); },
    bye(msg) { notice(tr("The host stopped: {reason}", { reason: reasonText(msg.why, msg.args) || msg.reason })); },
    chat(msg) { events = events.concat([{ type: "chat", text: `${msg.sender || "?"}: ${msg.text}` }]).slice(-MAX_LOG); render(); },
  };

  // Another tab (or window) of this browser took the seat: this one stops, shows no
  // moves, and offers to take the seat back; it never reconnects on its own.
  function movedAway() {
    pause("moved");
    legal = []; prefix = [];
    $("turn").replaceChildren();
    document.title = tr("Cartagena · play");
    notice("");
    screen("moved");
    $("take-back").focus();   // said with why (the panel's words describe the button)
  }

  function turnNotice() {
    document.title = tr("▶ Your turn · Cartagena");
    // Browsers allow vibrating only after the person has touched the page.
    if (navigator.vibrate && navigator.userActivation && navigator.userActivation.hasBeenActive) navigator.vibrate(200);
    if ($("sound").checked) {
      try {
        const ctx = new AudioContext(), o = ctx.createOscillator();
        o.connect(ctx.destination); o.frequency.value = 660; o.start(); o.stop(ctx.currentTime + 0.15);
      } catch (err) { /* no sound here */ }
    }
  }

  function askSecret(what, label, wrong) {
    asking = what;
    $("secret-label").textContent = wrong ? tr("{label} (that was not right)", { label }) : label;
    $("secret-form").hidden = false;
    $("secret-input").value = "";
    $("secret-input").focus();
  }

  // -- drawing --------------------------------------------------------------------

  // A table's status as the host names it ("waiting"), in the reader's words.
  const status = (s) => ({ waiting: tr("waiting"), playing: tr("playing"), finished: tr("finished") }[s] || s);
  function table() { return here ? lobby.find((t) => t.id === here.table) : null; }
  function letters() { return colorLetters((view ? view.seats : (table() ? table().seats : [])).map((s) => s.color)); }
  const kept = Cartagena.keptNames();  // a finished game's names, as it was played
  function seatName(i) {
    const t = table(), s = t && t.seats[i];
    const name = kept(!!(view && view.outcome), i, s && s.name ? s.name : null);
    return name || (view && view.seats[i] ? Names.color(view.seats[i].color) : tr("seat {n}", { n: i + 1 }));
  }
  const chip = (color, L) => Cartagena.chip(color, L || letters());
  // What words.js needs to name a word.
  function wordContext() {
    const L = letters();
    return { view, seat: here ? here.seat : null, seatName, chip: (color) => chip(color, L),
      symbolLetters: view ? symbolLetters(view.symbols) : {} };
  }
  const mayManage = (t) => !!(t && here && here.seat !== null && (t.owner === here.seat || t.owner === null || t.owner === undefined));

  // What went wrong on the host, sent as data (docs/protocol.md 4.4, notices), in words.
  let hostNotices = [];
  // The same messages as the terminal's (client/notices.py), as sentences.
  // A disk's error by its name (osErrors, i18n.js), else the host's OS's words.
  function osError(n, otherwise) {
    return Object.hasOwn(osErrors(), n.errno) ? osErrors()[n.errno] : (n.error || otherwise);
  }
  // A damaged journal's kind of damage (journalDamage, i18n.js), else the host's words.
  function cause(n) {
    return Object.hasOwn(journalDamage(), n.cause) ? journalDamage()[n.cause] : (n.why || "?");
  }
  function noticeText(n) {
    const count = (k) => (Number.isInteger(k) ? k : 0);
    const kept = n.kept_as ? `; ${tr("the damaged journal is kept on the host as {file}", { file: n.kept_as })}` : "";
    let text = null;
    if (n.kind === "journal-failed") text = tr("game paused: the host's disk is full or refuses writes ({error}); it goes on by itself once there is room", { error: osError(n, tr("it refuses writes")) });
    else if (n.kind === "journal-shortened") text = nt("this game came back shorter after the host restarted: its journal was damaged, so it resumes at action {kept} and the {n} action after it is lost", "this game came back shorter after the host restarted: its journal was damaged, so it resumes at action {kept} and the {n} actions after it are lost", count(n.lost), { kept: count(n.kept) }) + kept;
    else if (n.kind === "journal-lost") text = tr("the game of table {table} could not come back after the host restarted: its journal was damaged ({why}), {what}", { table: n.table, why: cause(n), what: count(n.lost) ? nt("its {n} action is lost", "its {n} actions are lost", count(n.lost)) : tr("it is lost") }) + kept;
    else if (n.kind === "no-journal") text = tr("this game is not saved: the host cannot write its state folder {folder} ({error}), so a crash would lose it", { folder: n.folder || "", error: osError(n, "?") });
    return text && `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  }
  function renderNotices() {
    const t = here ? table() : null;
    const texts = [...hostNotices, ...((t && t.notices) || [])].map(noticeText).filter(Boolean);
    $("host-notices").replaceChildren(...texts.map((x) => el("li", { class: "host-notice" }, x)));
    $("host-notices").hidden = !texts.length;
  }

  function render() {
    renderNotices();
    document.body.dataset.seq = String(seq);
    document.body.dataset.game = game === null || game === undefined ? "" : String(game);
    document.body.dataset.prefix = prefix.join(" ");
    if (paused === "moved") return screen("moved");
    if (!welcomed && !localStorage.getItem("cartagena-name")) return screen("name");
    if (!welcomed) return screen("connecting");
    if (!here) { renderLobby(); return screen("lobby"); }
    const t = table();
    $("title").textContent = t ? t.name : tr("Table {n}", { n: here.table });
    $("rules").textContent = t ? Names.preset(t.rules) : "";
    // A seat coming back to a game: its state is on its way (no waiting room before it).
    if (!view && (!t || t.status === "playing")) return screen("connecting");
    if (!view || (t && t.status === "waiting") || room) { renderWaiting(t); return screen("waiting"); }
    screen("game");
    renderGame();
  }

  function renderLobby() {
    $("title").textContent = "Cartagena";
    $("rules").textContent = "";
    $("turn").replaceChildren();
    const list = $("table-list");
    // Drawn again only when the tables changed: a button is not replaced under a finger.
    const drawn = JSON.stringify(lobby);
    if (list.dataset.drawn === drawn) return;
    list.dataset.drawn = drawn;
    list.replaceChildren();
    if (!lobby.length) list.append(el("li", {}, tr("No table yet: start one below.")));
    for (const t of lobby) {
      const free = t.seats.filter((s) => !s.name && !s.bot).length;
      const li = el("li", { class: "table-item", "data-table": t.id },
        el("span", { class: "name" }, `${t.name}${t.password ? " 🔒" : ""}`),
        el("span", { class: "table-info" }, ` · ${Names.preset(t.rules)} · ${status(t.status)} · ${nt("{n} free seat", "{n} free seats", free)}${t.hints ? " · " + tr("hints") : ""}${t.player_chances ? " · " + tr("chances shown") : ""}`));
      const sit = el("button", { class: "sit", "data-table": t.id }, tr("Take a seat"));
      sit.disabled = free === 0;
      sit.onclick = () => join(t, false);
      const watch = el("button", { class: "watch", "data-table": t.id }, tr("Watch"));
      watch.onclick = () => join(t, true);
      li.append(el("span", { class: "buttons" }, sit, watch));
      list.append(li);
    }
  }

  async function join(t, spectate, password) {
    asking = t.id;
    const msg = { type: "join_table", table: t.id, spectate };
    if (password) msg.password = password;
    if (t.password && !password) return askSecret(t.id, tr("Table {n} needs its password", { n: t.id }), false);
    send(msg);
  }

  function renderWaiting(t) {
    $("waiting-title").textContent = t ? `${t.name} · ${Names.preset(t.rules)} · ${status(t.status)}` : tr("Table");
    $("turn").replaceChildren();
    $("waiting-options").textContent = t && t.options ? Names.options(t.options) : "";
    const list = $("seat-list");
    list.replaceChildren();
    const L = letters();
    for (const s of t ? t.seats : []) {
      const me = here.seat === s.seat;
      list.append(el("li", { class: "player", "data-seat": s.seat }, chip(s.color, L),
        ` ${s.name || tr("(free seat)")}${s.bot ? " · " + Names.bot(s.bot, s.level) : ""}${me ? " · " + tr("you") : ""}${t.owner === s.seat ? " · " + tr("owner") : ""}`));
    }
    const owner = t && here.seat !== null && t.owner === here.seat;
    $("start").hidden = !owner;
    $("start").textContent = t && t.status === "finished" ? tr("Start another game") : tr("Start the game");
    $("add-bot").hidden = !owner || !(t && t.seats.some((s) => !s.name && !s.bot));
    $("bot-level").hidden = $("add-bot").hidden;
    botLevels();
    $("leave").textContent = here.seat === null ? tr("Stop watching") : tr("Leave the table");
  }

  // The bots the owner adds (client/uistate.py BOT_CHOICES): the host's searching bot at
  // its level, one of each level (easy: the greedy bot), or a random one.
  const BOT_CHOICES = { "": ["ismcts", null], easy: ["greedy", null], normal: ["ismcts", "normal"],
                        hard: ["ismcts", "hard"], random: ["random", null] };
  function botLevels() {
    const select = $("bot-level");
    if (select.options.length) return;  // filled once; the language does not change here
    const words = {
      "": tr("the host's level"), easy: Names.bot("greedy", "easy"),
      normal: Names.bot("ismcts", "normal"), hard: Names.bot("ismcts", "hard"), random: Names.bot("random"),
    };
    for (const [value, text] of Object.entries(words)) select.append(el("option", { value }, text));
  }

  function renderGame() {
    const L = letters(), symL = symbolLetters(view.symbols);
    const ctx = wordContext();
    const moves = lastMoves();
    const highlight = Board.highlightOf(moves, view);
    const chosen = prefix.join(" ");
    const landing = previews[chosen];
    // Where the move chosen lands, in the colour of the pirate it moves (Morgan's: another seat's).
    const mover = prefix[0] === "morgan" ? Number(prefix[1]) : here.seat;
    if (landing !== undefined && mover !== null && view.seats[mover]) highlight.to.set(Board.placeKey(landing, view), mover);
    Board.render($("board"), view, { letters: L, symbolLetters: symL, highlight, aspect: boardAspect() });
    for (const g of $("board").querySelectorAll("g.place")) g.addEventListener("click", () => pickPlace(g.dataset.pos));
    renderTurn(L);
    const me = here.seat !== null ? view.seats[here.seat] : null;
    $("you-title").textContent = me ? tr("You: {name} ({color})", { name: seatName(here.seat), color: Names.color(me.color) }) : tr("Watching");
    $("hand").replaceChildren(...(me && me.hand ? me.hand.map((c) => Words.card(c, ctx, 30)) : []));
    const shown = Words.powerCards(ctx);
    $("power-box").replaceChildren(...shown);
    $("power-box").hidden = !shown.length;
    $("game-leave").textContent = here.seat === null ? tr("Stop watching") : tr("Leave the seat");
    renderChoices(ctx);
    renderEnd(L);
    renderPlayers(L, ctx);
    renderPiles(ctx);
    renderLog(new Set(moves));
    Learn.render();
  }

  function boardAspect() {
    return Cartagena.boardAspect($("board-wrap"), { height: window.innerHeight - $("bar").offsetHeight - 32 });
  }

  function renderTurn(L) {
    const t = $("turn");
    t.replaceChildren();
    if (view.outcome) {
      const w = view.outcome.winner;
      if (w === null || w === undefined) { t.append(tr("The game is over.")); return; }
      t.append(chip(view.seats[w].color, L), " " + (w === here.seat ? tr("You win!") : tr("{name} wins!", { name: seatName(w) })));
      return;
    }
    const turn = view.turn;
    const mine = turn === here.seat;
    t.append(chip(view.seats[turn].color, L), mine ? " " + tr("Your turn") : " " + tr("{name} to play", { name: seatName(turn) }),
      el("span", { class: "actions" }, " · " + tr("action {n} of {m}", { n: Math.min(view.actions_taken + 1, view.actions_max), m: view.actions_max })));
    for (const p of view.pending || []) t.append(el("span", { class: "pending" }, " · " + pendingText(p, view, seatName, p.seat === here.seat)));
  }

  // The next words of the legal actions that begin with the words picked so far.
  function nextWords() {
    const words = new Map();
    for (const a of legal) {
      const w = a.split(" ");
      if (w.length > prefix.length && prefix.every((p, i) => w[i] === p)) words.set(w[prefix.length], true);
    }
    return [...words.keys()];
  }

  // Where the keyboard is in the move's part of the screen (a choice, Confirm, Back or
  // the question), before it is drawn again: null when it is elsewhere.
  function focusInMove() {
    const a = document.activeElement;
    if (!a || a === document.body) return null;
    if ($("choices").contains(a)) return { word: a.dataset.word, depth: prefix.length };
    return ["confirm", "back", "doing"].includes(a.id) ? { id: a.id } : null;
  }

  // After a step of a move (a word picked or taken back, a move confirmed), the keyboard
  // goes to what the move asks next: its first choice, else Confirm (the move described
  // to it), else the question itself; never to the top of the page. A drawing that only
  // replaced the buttons under it (another seat's move, the lobby) keeps it on the same
  // word, or failing that, on what the move asks next.
  // So does a keyboard left nowhere (on the page itself, or on a button now hidden: Start,
  // Play again, a reload) when a turn of ours begins or the game's screen opens.
  function placeFocus(was) {
    const a = document.activeElement;
    const nowhere = !a || a === document.body || !a.isConnected || !!a.closest("[hidden]");
    const lost = was && nowhere;
    const come = arrived && nowhere;
    if (document.body.dataset.screen === "game") arrived = false;
    if (!stepped && !lost && !come) return;
    const step = stepped;
    stepped = false;
    if (!$("leave-ask").hidden || document.body.dataset.screen !== "game") return;
    const buttons = [...$("choices").querySelectorAll("button.choice")];
    const same = !step && was && was.word !== undefined && was.depth === prefix.length
      ? buttons.find((b) => b.dataset.word === was.word) : null;
    const next = same || buttons[0] || (!$("confirm-box").hidden ? $("confirm") : $("doing"));
    next.focus({ preventScroll: !step });
  }

  function renderChoices(ctx) {
    const box = $("choices");
    const was = focusInMove();
    box.replaceChildren();
    const complete = prefix.length > 0 && legal.includes(prefix.join(" "));
    const words = nextWords();
    const doing = $("doing");
    doing.replaceChildren();
    // The move chosen is said once: in the Confirm box when it is whole, here while not.
    if (!legal.length) doing.append(view.outcome ? tr("The game is over.") : tr("Wait for your turn."));
    else if (complete) doing.append(tr("Your move is ready: confirm it, or go back."));
    else if (prefix.length) doing.append(tr("You chose:") + " ", Words.phrase(prefix, ctx));
    else doing.append(Words.instruction(ctx) || tr("Your move: pick one."));
    words.forEach((word, i) => {
      const picked = prefix.concat([word]);
      const kind = Words.kindAt(picked, prefix.length);
      const land = previews[picked.join(" ")];
      // Named in words ("1: dagger, lands on 4"): the key's digit, a chip's or a card's
      // letter and the arrow are shown, not said; the words are said, not shown (the
      // button's own text, so that what it shows is not a name it lacks).
      const said = [Words.said(picked, prefix.length, ctx), land !== undefined ? landsText(land) : null].filter(Boolean).join(", ");
      const label = Words.label(picked, prefix.length, ctx);
      label.setAttribute("aria-hidden", "true");
      const b = el("button", { class: "choice", "data-word": word, "data-kind": kind },
        el("span", { class: "key", "aria-hidden": "true" }, i < 9 ? `${i + 1}` : ""), label,
        land !== undefined ? el("span", { class: "lands", "aria-hidden": "true" }, `→ ${land === view.boat ? Names.place(view.goal_name || "boat") : land}`) : null,
        el("span", { class: "spoken" }, i < 9 ? `${i + 1}: ${said}` : said));
      b.onclick = () => pick(word);
      box.append(b);
    });
    $("confirm-box").hidden = !complete;
    if (complete) {
      const action = prefix.join(" ");
      const land = previews[action];
      const preview = $("preview");
      preview.replaceChildren(Words.phrase(prefix, ctx));
      // the arrow shown, a comma said
      if (land !== undefined) preview.append(el("span", { "aria-hidden": "true" }, " →"), el("span", { class: "spoken" }, ","), " " + landsText(land));
    }
    $("back").hidden = !prefix.length;
    placeFocus(was);
  }

  // Where a move lands, in words.
  function landsText(land) {
    return land === view.boat ? tr("lands in the {goal}", { goal: Names.place(view.goal_name || "boat") }) : tr("lands on {n}", { n: land });
  }

  // After the game: play again (the owner, as the terminal's "p"), or wait for the owner.
  function renderEnd(L) {
    const box = $("end-box");
    box.hidden = !view.outcome;
    if (!view.outcome) return;
    renderStandings(L);
    $("end-text").hidden = $("again").hidden = here.seat === null;
    if (here.seat === null) return;
    const t = table();
    const manage = mayManage(t);
    $("again").hidden = !manage;
    $("end-text").textContent = manage ? tr("Play again with this table?")
      : (t && t.owner !== null && t.owner !== undefined ? tr("{name} may start another game here.", { name: seatName(t.owner) }) : tr("The table's owner may start another game here."));
  }

  // The final standings, as on the TV: each seat in its place, with its pirates home.
  function renderStandings(L) {
    const ranking = (view.outcome && view.outcome.ranking) || [];
    $("standings").hidden = !ranking.length;
    $("standings-list").replaceChildren(...ranking.filter((seat) => view.seats[seat]).map((seat) => {
      const s = view.seats[seat];
      return el("li", { "data-seat": seat }, chip(s.color, L),
        ` ${seatName(seat)}${seat === here.seat ? " (" + tr("you") + ")" : ""} · ${homeText(view, s)}`);
    }));
  }

  function playAgain() {
    const t = table();
    if (!here || !mayManage(t)) return;
    const empty = t ? t.seats.filter((s) => !s.name && !s.bot) : [];
    if (empty.length) {
      // Someone left: the table's room, where a bot may take the seat before starting.
      room = true;
      notice(nt("{n} seat empty: add a bot or wait for a player, then start.", "{n} seats empty: add a bot or wait for a player, then start.", empty.length), "seats-empty");
      render();
      return;
    }
    send({ type: "start", table: here.table });
  }

  function pick(word) { prefix = prefix.concat([word]); stepped = true; render(); }
  function unpick() { stepped = prefix.length > 0; prefix = prefix.slice(0, -1); render(); }
  function pickPlace(pos) {
    if (pos === undefined || Words.kindAt(prefix.concat(["0"]), prefix.length) !== "pos") return;
    if (nextWords().includes(String(pos))) pick(String(pos));
  }
  function confirm() {
    const action = prefix.join(" ");
    if (!legal.includes(action) || !here) return;
    prefix = [];
    stepped = true;   // the keyboard goes on once the host's answer is drawn
    send({ type: "action", table: here.table, seq, action });
  }

  function renderPlayers(L, ctx) {
    const list = $("player-list");
    list.replaceChildren();
    const t = table();
    for (const s of view.seats) {
      const info = t ? t.seats[s.seat] : null;
      const li = el("li", { class: "player" + (!view.outcome && view.turn === s.seat ? " turn" : ""), "data-seat": s.seat });
      li.style.borderColor = colorOf(s.color);
      li.append(el("div", { class: "player-head" }, chip(s.color, L),
        el("span", { class: "name" }, `${seatName(s.seat)}${s.seat === here.seat ? " (" + tr("you") + ")" : ""}`),
        el("span", { class: "stats" }, `${info && info.bot ? tr("bot") + " · " : ""}${info && info.name && !info.connected ? tr("away") + " · " : ""}${nt("{n} card", "{n} cards", s.hand_size)} · ${homeText(view, s)}`)));
      // Open hands (Tortuga): every hand the view carries is shown, as cards.
      if (Array.isArray(s.hand) && s.seat !== here.seat) {
        li.append(el("div", { class: "cards open-hand", "data-seat": s.seat }, ...s.hand.map((c) => Words.card(c, ctx, 20))));
      }
      list.append(li);
    }
  }

  function renderPiles(ctx) {
    const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
    const piles = [
      el("span", { class: "pile" }, tr("Stock: {n}", { n: view.stock })),
      el("span", { class: "pile" }, tr("Discard:") + " ", top ? Words.card(top, ctx, 22) : tr("empty")),
    ];
    if (view.row) {
      piles.push(el("div", { class: "pile row-pile" }, el("span", { class: "pile-label" }, tr("Face-up ({n}):", { n: view.row.length })),
        el("div", { class: "cards row-cards" }, ...view.row.map((c) => Words.card(c, ctx, 22)))));
    }
    $("piles").replaceChildren(...piles);
  }

  function renderLog(recent) {
    const list = $("event-log");
    list.replaceChildren();
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i];
      list.append(el("li", { class: "event" + (recent.has(e) ? " recent" : ""), "data-type": e.type }, e.type === "chat" ? e.text : eventLine(e, view, seatName)));
    }
  }

  // -- leaving: asked first, far from the move buttons -------------------------------

  // toPage: the bar's "←" (off to the list of tables; the seat stays the guest's).
  let leaving = "seat";
  function askLeave(toPage) {
    if (!here) return;
    leaving = toPage === true ? "page" : "seat";
    $("leave-ask-text").textContent = leaving === "page" ? tr("Go to the list of tables? Your seat stays yours: open this page again to play on.")
      : here.seat === null ? tr("Stop watching this table?")
      : view && !view.outcome ? tr("Leave your seat? The game goes on without you (a bot may take over), and this page forgets the seat.")
        : tr("Leave your seat at this table?");
    $("leave-yes").textContent = leaving === "page" ? tr("Go to the tables") : here.seat === null ? tr("Stop watching") : tr("Leave");
    $("leave-ask").hidden = false;
    $("leave-no").focus();
  }
  function forget() {
    here = null; view = null; legal = []; events = []; prefix = []; room = false; game = null;
    myTurnBefore = false; stepped = false;
    document.title = tr("Cartagena · play");   // no "Your turn" at a seat left
  }
  function leave() {
    $("leave-ask").hidden = true;
    if (!here) return;
    send({ type: "leave", table: here.table }).then(() => post("/play/keep", {}));
    forget();
    render();
  }

  // -- the page's own controls ------------------------------------------------------

  $("name-form").onsubmit = (e) => {
    e.preventDefault();
    const name = $("name-input").value.trim().slice(0, 32);
    if (!name) return;
    localStorage.setItem("cartagena-name", name);
    render();
    if (session) hello();
    else if (paused === "password") askSecret("host", tr("This host needs its password"), false);
    else connect();
  };
  $("secret-form").onsubmit = (e) => {
    e.preventDefault();
    $("secret-form").hidden = true;
    const secret = $("secret-input").value;
    if (asking === "host") {
      hostPassword = secret;
      if (paused === "password") resume(); else if (session) hello(); else connect();
      return;
    }
    const t = lobby.find((x) => x.id === asking);
    if (t) join(t, false, secret);
  };
  $("new-table").onsubmit = (e) => {
    e.preventDefault();
    let options;
    try { options = TableForm.options(); } catch (err) { notice(err.message); return; }
    notice("");
    // A name no table here has yet ("Ann's table", then "Ann's table 2"...).
    const base = tr("{name}'s table", { name: localStorage.getItem("cartagena-name") || "guest" });
    const taken = new Set(lobby.map((x) => x.name));
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base} ${n}`;
    send({ type: "create_table", name, rules: TableForm.rulesName(), options,
           hints: $("new-hints").checked, player_chances: $("new-chances").checked });
  };
  $("new-reset").onclick = () => TableForm.reset();
  $("start").onclick = () => { if (here) { room = false; notice(""); send({ type: "start", table: here.table }); } };
  $("add-bot").onclick = () => {
    if (!here) return;
    const [kind, level] = BOT_CHOICES[$("bot-level").value] || BOT_CHOICES[""];
    const msg = { type: "add_bot", table: here.table, kind };
    if (level) msg.level = level;  // the host's level and easy send none, as before levels
    send(msg);
  };
  $("leave").onclick = () => askLeave(false);
  $("game-leave").onclick = () => askLeave(false);
  $("leave-yes").onclick = () => { if (leaving === "page") location.href = "/"; else leave(); };
  document.querySelector("#bar .back").addEventListener("click", (e) => {
    if (!here || here.seat === null || document.body.dataset.screen !== "game") return;
    e.preventDefault();
    askLeave(true);
  });
  $("leave-no").onclick = () => { $("leave-ask").hidden = true; };
  $("take-back").onclick = () => { notice(""); forget(); welcomed = false; render(); resume(); };
  $("again").onclick = playAgain;
  $("confirm").onclick = confirm;
  $("back").onclick = unpick;
  document.addEventListener("keydown", (e) => {
    if (!$("leave-ask").hidden) { if (e.key === "Escape") $("leave-ask").hidden = true; return; }
    if (document.body.dataset.screen !== "game" || e.target.tagName === "INPUT") return;
    // Enter on a focused button, link or list presses that (a keyboard alone plays).
    if (e.key === "Enter" && !/^(BUTTON|A|SELECT|TEXTAREA)$/.test(e.target.tagName)) { e.preventDefault(); confirm(); }
    else if (e.key === "Escape" || e.key === "Backspace") unpick();
    else if (/^[1-9]$/.test(e.key)) { const w = nextWords()[Number(e.key) - 1]; if (w !== undefined) pick(w); }
  });
  onResize(render);

  // -- learning at the table: the Hint button and the chances (docs/web.md) ----------
  // Kept apart from the rest of the page: its own state, its own elements.
  const Learn = (() => {
    const chances = LiveChances.tracker();
    let shown = null;    // the hint shown: {seq, action, reason}
    let asked = null;    // the state number a hint was asked for
    return {
      newGame() { chances.clear(); shown = null; asked = null; },
      state(msg) {
        chances.take(msg);
        if (shown && shown.seq !== msg.seq) shown = null;
        if (asked !== null && asked !== msg.seq) asked = null;
      },
      hint(msg) {
        if (msg.seq !== seq || !legal.includes(msg.action)) return;  // the game moved on
        shown = msg;
        asked = null;
        prefix = msg.action.split(" ");   // previewed as if picked: Confirm plays it
        render();
      },
      ask() {
        if (!here || here.seat === null || !legal.length) return;
        if (shown && shown.seq === seq) { prefix = shown.action.split(" "); render(); return; }
        asked = seq;
        send({ type: "hint", table: here.table });
        render();
      },
      render() {
        const t = table();
        const allowed = !!(t && t.hints) && here && here.seat !== null && !view.outcome;
        $("hint-box").hidden = !allowed;
        $("hint").disabled = !legal.length || asked === seq;
        $("hint").textContent = asked === seq ? tr("Thinking…") : tr("Hint");
        const reason = shown && prefix.join(" ") === shown.action ? shown : null;
        $("hint-reason").hidden = !reason;
        const worded = reason && reason.why && reason.why.move ? hintText(reason.why) : null;
        $("hint-reason").textContent = !reason ? "" : worded !== null ? tr("Hint: {reason}", { reason: worded })
          : tr("Hint: {action} — {reason}", { action: Words.text(reason.action.split(" "), wordContext()), reason: hintText(reason.why) || reason.reason });
        LiveChances.draw($("chances"), chances, view.seats, seatName);
      },
    };
  })();
  $("hint").onclick = () => Learn.ask();

  $("name-input").value = localStorage.getItem("cartagena-name") || "";
  fetch("/play/rules.json", { credentials: "same-origin" }).then((r) => r.json()).then((r) => { TableForm.setup(r); render(); }).catch(() => {});
  screen(localStorage.getItem("cartagena-name") ? "connecting" : "name");
  connect();
})();
