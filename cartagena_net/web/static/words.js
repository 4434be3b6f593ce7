/* The words of an action, as a guest reads them. An action's text is the engine's
   notation (cartagena_net/engine/actions.py): a verb, then its arguments, each a seat
   number, a pirate's position or a card. Which is which depends on the verb (and, after
   "power", on the power's card), never on how the word looks: "give 1 parrot" is about
   the player in seat 1, "advance 1 parrot" about the pirate on space 1.

   Words.kindAt(words, i): "verb", "seat", "pos", "card", "power" or "word".
   Words.label(words, i, ctx): a DOM node that names that word for a person; ctx gives
   {view, seat (the guest's own, or null), seatName(i), chip(color), symbolLetters}. */
"use strict";

(() => {
  const { el } = Cartagena;
  const { tr, pt, Names, Board, pendingText } = Cartagena;
  // The arguments after each verb: s = seat, p = position, c = card (engine notation).
  const ARGS = { advance: "pc", retreat: "p", morgan: "sp", give: "sc", take: "c", keep: "c",
    stack: "c" };
  // ... and after "power CARD", by the card's symbol (engine/actions.py POWER_ARGS).
  const POWER_ARGS = { gun: "s", rum: "", lantern: "", chest: "p", parrot: "cpc", hook: "cp" };
  const KIND = { s: "seat", p: "pos", c: "card" };
  const VERBS = {
    advance: () => pt("verb", "advance"), retreat: () => pt("verb", "retreat"),
    morgan: () => tr("Morgan: push a pirate"), draw: () => tr("draw a card"),
    end: () => tr("end the turn"), discard: () => pt("verb", "discard"), sail: () => tr("sail the sloop"),
    undo: () => pt("verb", "undo"), power: () => tr("use a power"), take: () => pt("verb", "take"),
    give: () => pt("verb", "give"), keep: () => pt("verb", "keep"), stack: () => tr("put back"),
  };

  const base = (card) => String(card).replace(/\*$/, "");

  function kindAt(words, i) {
    if (i === 0) return "verb";
    const verb = words[0];
    if (verb === "discard") return "card";
    if (verb === "power") {
      if (i === 1) return "power";
      return KIND[(POWER_ARGS[base(words[1])] || "")[i - 2]] || "word";
    }
    return KIND[(ARGS[verb] || "")[i - 1]] || "word";
  }

  // A card drawn as a card (a dark one dark): the board's symbol with its letter.
  function card(word, ctx, size) {
    const letters = ctx.symbolLetters || {};
    const icon = Board.symbolIcon(word, letters[base(word)], size || 26);
    const dark = String(word).endsWith("*");
    const name = dark ? tr("{card} (dark card)", { card: Names.card(base(word)) }) : Names.card(base(word));
    icon.setAttribute("aria-label", name);  // a button of cards is named by the cards' names
    return el("span", { class: "card-word" + (dark ? " dark" : ""), "data-card": word, title: name }, icon);
  }

  // A player: colour chip with its letter, name, colour (as the player list shows them).
  function player(seat, ctx) {
    const s = ctx.view && ctx.view.seats[seat];
    if (!s) return el("span", { class: "seat-word" }, tr("seat {n}", { n: seat + 1 }));
    const you = seat === ctx.seat ? ` (${tr("you")})` : "";
    return el("span", { class: "seat-word", "data-seat": seat }, ctx.chip(s.color), ` ${ctx.seatName(seat)}${you} · ${Names.color(s.color)}`);
  }

  // Where a pirate stands, named as a place of the board.
  function place(pos, view, letters) {
    if (pos === 0) return [tr("at the {place}", { place: Names.place(view.start_name || "start") })];
    if (pos === view.boat) return [tr("at the {place}", { place: Names.place(view.goal_name || "boat") })];
    if (view.sloop && pos === view.sloop.pos) return [tr("on the sloop")];
    const sym = view.board[pos - 1];
    return sym ? [tr("on {n}", { n: pos }) + " ", Board.symbolIcon(sym, (letters || {})[sym], 18)] : [tr("on {n}", { n: pos })];
  }

  function position(words, i, ctx) {
    const pos = Number(words[i]);
    const view = ctx.view;
    const owner = words[0] === "morgan" ? Number(words[1]) : (ctx.mover ?? ctx.seat);
    // The pirate that moves from a place is the lowest-numbered of its seat's there: the
    // host's numbers, the same on every screen (docs/protocol.md, `numbered`).
    const s = view && owner !== null && owner !== undefined ? view.seats[owner] : null;
    const n = s && s.numbered ? s.numbered.indexOf(pos) + 1 : 0;
    let whose;
    if (owner === ctx.seat) {
      whose = n ? tr("your pirate {n}", { n }) : tr("your pirate");
    } else {
      const name = ctx.seatName(owner);
      whose = n ? tr("{name}'s pirate {n}", { name, n }) : tr("{name}'s pirate", { name });
    }
    return el("span", { class: "pos-word", "data-pos": pos }, `${whose} `, ...place(pos, view, ctx.symbolLetters));
  }

  function label(words, i, ctx) {
    const word = words[i];
    const kind = kindAt(words, i);
    if (kind === "verb") return el("span", { class: "verb-word" }, VERBS[word] ? VERBS[word]() : word);
    if (kind === "seat" && /^[0-9]+$/.test(word)) return player(Number(word), ctx);
    if (kind === "pos" && /^[0-9]+$/.test(word) && ctx.view) return position(words, i, ctx);
    if (kind === "card") return el("span", { class: "card-named" }, card(word, ctx), ` ${Names.card(word)}`);
    if (kind === "power") return el("span", { class: "power-word" }, card(word, ctx), ` ${Names.card(base(word))}`);
    return el("span", {}, word);
  }

  // The whole of a (partial) action, word after word.
  function phrase(words, ctx) {
    return el("span", { class: "phrase" }, ...words.map((_, i) => label(words, i, ctx)));
  }

  // A pirate's place in plain text ("your pirate 1 on 5 (skull)"): the symbol by its name.
  function positionText(words, i, ctx) {
    const node = position(words, i, ctx);
    return [...node.childNodes].map((n) => (n.nodeType === 3 ? n.textContent
      : n.getAttribute && n.getAttribute("aria-label") ? `(${n.getAttribute("aria-label")})` : ""))
      .join("").replace(/\s+/g, " ").trim();
  }

  // The whole of an action as plain text ("advance · Ann's pirate 1 on 5 · skull"), for
  // a line of text (a hint's, a replay's advice); ctx as for label, with ctx.mover the
  // seat that plays it when that is not the reader's.
  function text(words, ctx) {
    return words.map((word, i) => {
      const kind = kindAt(words, i);
      if (kind === "verb") return VERBS[word] ? VERBS[word]() : word;
      if (kind === "seat" && /^[0-9]+$/.test(word)) return ctx.seatName(Number(word));
      if (kind === "card" || kind === "power") return Names.card(word);
      if (kind === "pos" && /^[0-9]+$/.test(word) && ctx.view) return positionText(words, i, ctx);
      return word;
    }).join(" · ");
  }

  // One word as a screen reader says it (a choice button's name): label's words with no
  // letter badge, chip or middle dot ("Ann (you), blue", "your pirate 1 on 5 (skull)").
  function said(words, i, ctx) {
    const word = words[i];
    const kind = kindAt(words, i);
    if (kind === "verb") return VERBS[word] ? VERBS[word]() : word;
    if (kind === "seat" && /^[0-9]+$/.test(word)) {
      const seat = Number(word), s = ctx.view && ctx.view.seats[seat];
      if (!s) return tr("seat {n}", { n: seat + 1 });
      return `${ctx.seatName(seat)}${seat === ctx.seat ? ` (${tr("you")})` : ""}, ${Names.color(s.color)}`;
    }
    if (kind === "pos" && /^[0-9]+$/.test(word) && ctx.view) return positionText(words, i, ctx);
    if (kind === "card" || kind === "power") return Names.card(word);
    return word;
  }

  // A move as every seat reads it, whoever played it ("hat from 4", "back from 9"): the
  // replay's review names moves so, as the terminal's review does (client/powers.py
  // move_words); null for a power or a decision, which the review words itself.
  function move(action, view) {
    const w = String(action).split(" ");
    const at = (word) => Cartagena.placeWord(view, word);
    const colorOf = (seat) => Names.color((view.seats[seat] || {}).color || String(seat));
    if (w[0] === "advance" && w.length === 3) return tr("{card} from {place}", { card: Names.card(w[2]), place: at(w[1]) });
    if (w[0] === "retreat" && w.length === 2) return tr("back from {place}", { place: at(w[1]) });
    if (w[0] === "morgan" && w.length === 3) return tr("Morgan: {color}'s pirate from {place}", { color: colorOf(Number(w[1])), place: at(w[2]) });
    if (w[0] === "end") return tr("end of the turn");
    if (w[0] === "draw") return tr("draws a card");
    if (w[0] === "sail") return tr("sails the sloop");
    if (w[0] === "undo") return tr("takes back the last move");
    if (w[0] === "discard") return tr("discards {cards}", { cards: w.slice(1).map((c) => Names.card(c)).join(", ") });
    return null;
  }

  // What the page asks of the guest now, in a line ("give one drawn card to each other
  // player"), or null when it is a plain turn.
  function instruction(ctx) {
    const v = ctx.view;
    const p = v && (v.pending || [])[0];
    if (!p || p.seat !== ctx.seat) return null;
    const line = pendingText(p, v, ctx.seatName, true);
    return line.charAt(0).toUpperCase() + line.slice(1) + ".";
  }

  // The cards a power of the guest's shows (only its player's view carries them): the
  // rum's or the lantern's drawn cards, the lantern's put back so far, the gun's
  // target's hand, each under whose they are. [] when none.
  function powerCards(ctx) {
    const power = ctx.view && ctx.view.magic && ctx.view.magic.power;
    if (!power || power.seat !== ctx.seat) return [];
    const row = (title, cards, kind) => el("div", { class: "power-cards", "data-kind": kind },
      el("p", { class: "power-title" }, title),
      el("div", { class: "cards" }, ...cards.map((c) => el("span", { class: "card-named" }, card(c, ctx, 30), ` ${Names.card(c)}`))));
    const out = [];
    if (power.kind === "gun" && Array.isArray(power.hand)) {
      out.push(row(tr("{name}'s hand (take one):", { name: ctx.seatName(power.target) }), power.hand, "hand"));
    }
    if (Array.isArray(power.pool) && power.pool.length) {
      const title = power.kind === "rum" ? tr("The cards you drew with the rum:") : tr("The cards you drew with the lantern:");
      out.push(row(title, power.pool, "pool"));
    }
    if (Array.isArray(power.placed) && power.placed.length) {
      out.push(row(tr("Put back on the stock so far (top first):"), power.placed, "placed"));
    }
    return out;
  }

  Cartagena.Words = { kindAt, label, phrase, text, said, move, card, player, instruction, powerCards, ARGS, POWER_ARGS };
})();
