/* The pages' words in the reader's language. /i18n.js is this file after one line the
   host writes for the browser (window.CARTAGENA_I18N: the language chosen by the switch's
   cookie or Accept-Language, the plural form's index for 0..199, and the translations of
   the pages' messages, from the same catalog as the terminal's). A message missing from
   it reads in English. In the pages' scripts (each takes them from the namespace: const
   { tr, nt, pt } = Cartagena): tr(MSGID), nt(ONE, MANY, n), pt(CONTEXT, MSGID), called by
   those names with literal double-quoted strings, each with named {placeholders} filled
   from an object; in the HTML, data-t (the element's text) and data-ta (its title,
   aria-label, alt and placeholder). */
"use strict";

// The pages' one global, Cartagena: each script adds its part to it and takes the parts it
// needs from it (const { tr, Names } = Cartagena). This file is the first script of every page.
window.Cartagena = window.Cartagena || {};

(() => {
  const I18N = (() => {
    const data = window.CARTAGENA_I18N || { lang: "en", plural: [], messages: {}, languages: { en: "English" } };
    const COOKIE = data.cookie || "cartagena_lang";

    function fill(text, args) {
      if (!args) return text;
      return text.replace(/\{([a-z_]+)\}/g, (all, name) => (name in args ? String(args[name]) : all));
    }
    function look(key) {
      const got = data.messages[key];
      return typeof got === "string" && got ? got : null;
    }
    function pluralIndex(n) {
      const k = Math.abs(Math.trunc(Number(n) || 0));
      const table = data.plural || [];
      const i = k < 200 ? table[k] : table[100 + (k % 100)];
      return typeof i === "number" ? i : (k === 1 ? 0 : 1);
    }

    // Marked HTML: data-t's text, data-ta's attributes.
    function translatePage(root) {
      for (const node of (root || document).querySelectorAll("[data-t]")) {
        const text = node.textContent.split(/\s+/).filter(Boolean).join(" ");
        if (text) node.textContent = tr(text);
      }
      for (const node of (root || document).querySelectorAll("[data-ta]")) {
        for (const attr of ["title", "aria-label", "alt", "placeholder"]) {
          if (node.hasAttribute(attr)) node.setAttribute(attr, tr(node.getAttribute(attr)));
        }
      }
    }

    // The switch: one small select in the page's bar, remembered in a cookie the host reads.
    function choose(code) {
      if (!(code in (data.languages || {}))) return;
      document.cookie = `${COOKIE}=${code}; path=/; max-age=31536000; SameSite=Strict`;
      try { localStorage.setItem(COOKIE, code); } catch (e) { /* private mode */ }
      location.reload();
    }
    function addSwitch() {
      const bar = document.getElementById("bar");
      const codes = Object.keys(data.languages || {});
      if (!bar || codes.length < 2 || document.getElementById("lang")) return;
      const select = document.createElement("select");
      select.id = "lang";
      select.className = "lang-switch";
      select.setAttribute("aria-label", tr("Language"));
      for (const code of codes) {
        const option = document.createElement("option");
        option.value = code;
        option.textContent = data.languages[code];
        option.selected = code === data.lang;
        select.append(option);
      }
      select.onchange = () => choose(select.value);
      bar.append(select);
    }

    function start() {
      document.documentElement.lang = data.lang;
      translatePage(document);
      addSwitch();
    }
    return { lang: data.lang, fill, look, pluralIndex, translatePage, choose, start };
  })();

  // A message in the reader's language; named {placeholders} filled from args.
  function tr(msgid, args) {
    if (typeof msgid !== "string") return msgid;
    return I18N.fill(I18N.look(msgid) || msgid, args);
  }
  // In one sense of an English word (a gettext context).
  function pt(context, msgid, args) { return I18N.fill(I18N.look(`${context}\u0004${msgid}`) || msgid, args); }
  // With a number, by the language's plural rule ("1 kort", "2 kort" in Swedish).
  function nt(one, many, n, args) {
    const forms = window.CARTAGENA_I18N && window.CARTAGENA_I18N.messages[one];
    const i = I18N.pluralIndex(n);
    const text = Array.isArray(forms) && forms[i] ? forms[i] : (i === 0 ? one : many);
    return I18N.fill(text, Object.assign({ n }, args || {}));
  }

  // A fraction (0.45) as a percentage the reader's way: "45%", in Swedish "45 %" (a
  // no-break space) and "12,5 %" with ``digits`` decimals; the browser's Intl formats it.
  const percentText = (() => {
    const formats = {};
    return (fraction, digits = 0) => {
      const key = String(digits);
      if (!formats[key]) {
        try {
          formats[key] = new Intl.NumberFormat(I18N.lang, { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits });
        } catch (err) {
          formats[key] = { format: (x) => `${(x * 100).toFixed(digits)}%` };
        }
      }
      return formats[key].format(Number(fraction) || 0);
    };
  })();

  // The game's words in the reader's language (the glossary of docs/rules.md); the notation
  // and the host keep the engine's English ("skull", "red", "sloop").
  const Names = (() => {
    const CARDS = {
      skull: () => pt("card", "skull"), dagger: () => pt("card", "dagger"), key: () => pt("card", "key"),
      keys: () => pt("card", "keys"), keyring: () => pt("card", "keyring"), bottle: () => pt("card", "bottle"),
      rum: () => pt("card", "rum"), hat: () => pt("card", "hat"), pistol: () => pt("card", "pistol"),
      gun: () => pt("card", "gun"), hook: () => pt("card", "hook"), grapple: () => pt("card", "grapple"),
      lantern: () => pt("card", "lantern"), spyglass: () => pt("card", "spyglass"),
      telescope: () => pt("card", "telescope"), parrot: () => pt("card", "parrot"),
      chest: () => pt("card", "chest"), treasure: () => pt("card", "treasure"),
    };
    const COLORS = {
      red: () => tr("red"), blue: () => tr("blue"), green: () => tr("green"), yellow: () => tr("yellow"),
      purple: () => tr("purple"), violet: () => tr("violet"), magenta: () => tr("magenta"),
      black: () => tr("black"), white: () => tr("white"), orange: () => tr("orange"), brown: () => tr("brown"),
      pink: () => tr("pink"), cyan: () => tr("cyan"), grey: () => tr("grey"), gray: () => tr("gray"),
    };
    const PLACES = {
      start: () => pt("place", "start"), sloop: () => pt("place", "sloop"), jail: () => pt("place", "jail"),
      "flooded sloop": () => pt("place", "flooded sloop"), cove: () => pt("place", "cove"),
      "meeting place": () => pt("place", "meeting place"), rowboat: () => pt("place", "rowboat"),
      boat: () => pt("place", "boat"), passage: () => pt("place", "passage"),
      "underground passage": () => pt("place", "underground passage"),
      "island path": () => pt("place", "island path"), "jungle path": () => pt("place", "jungle path"),
      path: () => pt("place", "path"),
    };
    // A card ("skull"; a dark "skull*" is said "skull (dark card)": the notation's star
    // never reaches a sentence), a seat colour, a place the engine names.
    function card(word) {
      const s = String(word), dark = s.endsWith("*"), base = dark ? s.slice(0, -1) : s;
      const name = CARDS[base] ? CARDS[base]() : base;
      return dark ? tr("{card} (dark card)", { card: name }) : name;
    }
    function color(name) { return COLORS[name] ? COLORS[name]() : String(name); }
    function place(name) { return PLACES[name] ? PLACES[name]() : String(name); }
    // A rules preset by its name ("studiogiochi-2017" reads "Studiogiochi 2017").
    const PRESETS = {
      jamaica: () => tr("Jamaica"), tortuga: () => tr("Tortuga"), hispaniola: () => tr("Hispaniola"),
      ravensburger: () => tr("Ravensburger basic"), "ravensburger-advanced": () => tr("Ravensburger advanced"),
      "studiogiochi-2017": () => tr("Studiogiochi 2017"), "web-2008": () => tr("Web 2008"),
    };
    function preset(name) {
      if (PRESETS[name]) return PRESETS[name]();
      const s = String(name || "").replace(/[-_]+/g, " ");
      return s ? s[0].toUpperCase() + s.slice(1) : "";
    }
    // A bot's kind and level, a table's options, a record's rules and player, a time: in
    // words (the port of cartagena_net/i18n/words.py and when.py, the same catalog entries).
    const BOTS = { random: () => pt("bot kind", "random bot"), greedy: () => pt("bot kind", "greedy bot"),
                   ismcts: () => pt("bot kind", "thinking bot") };
    const LEVELS = { easy: () => pt("bot level", "easy"), normal: () => pt("bot level", "normal"),
                     hard: () => pt("bot level", "hard") };
    function bot(kind, level, think) {
      let text = BOTS[kind] ? BOTS[kind]() : String(kind);
      if (level) text += ", " + (LEVELS[level] ? LEVELS[level]() : String(level));
      else if (typeof think === "number") text += ", " + tr("{seconds} s", { seconds: String(think).replace(".", pt("decimal separator", ".")) });
      return text;
    }
    const YES_NO = {
      hands_public: [() => pt("option", "open hands"), () => pt("option", "hidden hands")],
      filibusters: [() => pt("option", "Filibusters"), () => pt("option", "no Filibusters")],
      magic: [() => pt("option", "Black Magic Woman"), () => pt("option", "no Black Magic Woman")],
      jail_in_passage: [() => pt("option", "the jail in the passage"), () => pt("option", "the jail apart from the passage")],
    };
    const CHOICES = {
      empty_hand_draw: { stuck: () => pt("option", "an empty hand draws when stuck"), always: () => pt("option", "an empty hand always draws") },
      morgan: { off: () => pt("option", "no Morgan"), instead: () => pt("option", "Morgan instead of retreat"),
                also: () => pt("option", "Morgan beside retreat"), island: () => pt("option", "Morgan on the island") },
      side: { passage: () => pt("option", "the passage side"), tunnel: () => pt("option", "the tunnel side"),
              island: () => pt("option", "the island side"), jungle: () => pt("option", "the jungle side") },
      story: { escape: () => pt("option", "the escape"), island: () => pt("option", "the island"),
               whole: () => pt("option", "the Whole Jailbreak") },
    };
    const COUNTED = {
      players: (n) => nt("{n} player", "{n} players", n), pirates: (n) => nt("{n} pirate each", "{n} pirates each", n),
      segments: (n) => nt("{n} segment", "{n} segments", n), actions: (n) => nt("{n} action a turn", "{n} actions a turn", n),
      deal: (n) => nt("{n} card dealt", "{n} cards dealt", n),
      start_bonus: (n) => nt("{n} extra card for the start player", "{n} extra cards for the start player", n),
      row_size: (n) => (n ? nt("a face-up row of {n}", "a face-up row of {n}", n) : tr("no face-up row")),
      hand_limit: (n) => tr("hand limit {n}", { n }),
      island_segments: (n) => nt("{n} island segment", "{n} island segments", n),
    };
    const ORDER = ["players", "pirates", "segments", "actions", "deal", "start_bonus", "hands_public", "row_size",
                   "empty_hand_draw", "morgan", "filibusters", "magic", "hand_limit", "side", "story",
                   "island_segments", "jail_in_passage", "board", "colors"];
    function option(name, given) {
      // a value as typed (text) reads as the rules read it: digits a number, true/false yes or no
      const value = typeof given !== "string" ? given : /^[0-9]+$/.test(given) ? Number(given)
        : /^(true|false)$/i.test(given) ? given.toLowerCase() === "true" : given;
      if (typeof value === "boolean" && YES_NO[name]) return YES_NO[name][value ? 0 : 1]();
      if (CHOICES[name] && CHOICES[name][value]) return CHOICES[name][value]();
      if (Number.isInteger(value) && COUNTED[name]) return COUNTED[name](value);
      return `${name}=${Array.isArray(value) ? value.join(",") : value}`;
    }
    // A choice of an option (a select's entry of the New table form): its words, else as it is.
    function choice(name, value) { return CHOICES[name] && CHOICES[name][value] ? CHOICES[name][value]() : String(value); }
    function options(opts) {
      const rank = (k) => (ORDER.indexOf(k) < 0 ? ORDER.length : ORDER.indexOf(k));
      return Object.entries(opts || {}).filter(([k]) => k !== "colors")
        .sort((a, b) => rank(a[0]) - rank(b[0]) || (a[0] < b[0] ? -1 : 1)).map(([k, v]) => option(k, v)).join(", ");
    }
    function rules(name, opts) { const rest = options(opts); return rest ? `${preset(name)}, ${rest}` : preset(name); }
    // A scoreboard's bot row ("ismcts normal", "ismcts 1.5s": its kind and level).
    function botRow(key) {
      const s = String(key), i = s.indexOf(" "), kind = i < 0 ? s : s.slice(0, i), how = i < 0 ? "" : s.slice(i + 1);
      if (!BOTS[kind]) return `${s} (${tr("bot")})`;
      if (/^\d+(\.\d+)?s$/.test(how)) return bot(kind, null, Number(how.slice(0, -1)));
      return bot(kind, how || null);
    }
    function player(p) { return p && p.bot ? `${p.name} (${bot(p.bot, p.level, p.think)})` : String((p && p.name) || ""); }
    const MONTHS = [() => pt("month", "Jan"), () => pt("month", "Feb"), () => pt("month", "Mar"), () => pt("month", "Apr"),
                    () => pt("month", "May"), () => pt("month", "Jun"), () => pt("month", "Jul"), () => pt("month", "Aug"),
                    () => pt("month", "Sep"), () => pt("month", "Oct"), () => pt("month", "Nov"), () => pt("month", "Dec")];
    // A record's UTC time in the browser's time zone, the language's way ("" for none).
    function when(stamp) {
      const d = typeof stamp === "string" && stamp ? new Date(stamp) : null;
      if (!d || Number.isNaN(d.getTime())) return String(stamp || "");
      const two = (n) => String(n).padStart(2, "0");
      return pt("date and time", "{day} {month} {year}, {time}", { day: d.getDate(), month: MONTHS[d.getMonth()](),
        year: d.getFullYear(), time: `${two(d.getHours())}:${two(d.getMinutes())}` });
    }
    return { card, color, place, preset, bot, botRow, choice, option, options, rules, player, when };
  })();

  // The rules options' labels on the New table form (cartagena_net/engine/options.py); their
  // values and phrases are Names.choice and Names.option's, one table of words.
  const Options = (() => {
    const LABELS = {
      players: () => tr("Players"), pirates: () => tr("Pirates each"), segments: () => tr("Board segments"),
      actions: () => tr("Actions a turn"), deal: () => tr("Cards dealt"), start_bonus: () => tr("Extra cards for the start player"),
      hands_public: () => tr("Open hands"), row_size: () => tr("Face-up row"), empty_hand_draw: () => tr("An empty hand draws"),
      morgan: () => tr("Morgan"), filibusters: () => tr("Filibusters"), magic: () => tr("Black Magic Woman"),
      hand_limit: () => tr("Hand limit"), side: () => tr("Board side"), story: () => tr("Story"),
      island_segments: () => tr("Island path segments"), jail_in_passage: () => tr("The jail counts as the passage"),
      board: () => tr("Board layout"), colors: () => tr("Seat colours"),
    };
    const label = (name) => (LABELS[name] ? LABELS[name]() : String(name).replace(/_/g, " "));
    // An option written NAME=VALUE (in an option's help) as words: Names.option's, with the
    // value typed as the rules have it; one it does not word reads "Label: value".
    function phrase(name, text) {
      const value = text === "true" ? true : text === "false" ? false : /^[0-9]+$/.test(text) ? Number(text) : text;
      const said = Names.option(name, value);
      return said.includes("=") ? `${label(name)}: ${Names.choice(name, text)}` : said;
    }
    return { label, phrase };
  })();

  // A decision a seat owes (view.pending: docs/protocol.md), said as what it asks: a
  // Filibusters discard, or the Black Magic Woman's rum (give), lantern (keep, put back)
  // and gun (take). ``who`` names the seat; ``you``: the reader owes it.
  function pendingText(p, view, who, you) {
    const power = (view && view.magic && view.magic.power) || null;
    const n = Number(p.count) || 1;
    const target = power && Number.isInteger(power.target) ? who(power.target) : "";
    const name = you ? "" : who(p.seat);
    switch (p.kind) {
      case "give":
        return you ? nt("give one drawn card to each other player ({n} to give)", "give one drawn card to each other player ({n} to give)", n)
          : nt("{who} gives one drawn card to each other player ({n} to give)", "{who} gives one drawn card to each other player ({n} to give)", n, { who: name });
      case "keep":
        return you ? nt("keep {n} of the drawn cards", "keep {n} of the drawn cards", n)
          : nt("{who} keeps {n} of the drawn cards", "{who} keeps {n} of the drawn cards", n, { who: name });
      case "stack":
        return you ? nt("put {n} drawn card back on top of the stock", "put {n} drawn cards back on top of the stock, one at a time", n)
          : nt("{who} puts {n} drawn card back on top of the stock", "{who} puts {n} drawn cards back on top of the stock", n, { who: name });
      case "take":
        return you ? tr("take one card from {target}'s hand", { target })
          : tr("{who} takes one card from {target}'s hand", { who: name, target });
      default:
        return you ? nt("you must discard {n} card", "you must discard {n} cards", n)
          : nt("{who} must discard {n} card", "{who} must discard {n} cards", n, { who: name });
    }
  }

  // A host's reason (an error's or a bye's why and args: docs/protocol.md 4.3) in the
  // reader's language, from the templates the host writes into /i18n.js (the table of
  // cartagena_net/engine/reasons.py, translated by the same catalog); a field is shown by its
  // name as the terminal shows it. null for a key not known here or fields that do not fit
  // (the page then shows the host's English line).
  // An operating system's error by its name (ENOSPC...), in the page's language
  // (cartagena_net/engine/reasons.py OS_ERRORS, written into /i18n.js by the host).
  function osErrors() {
    return (window.CARTAGENA_I18N || {}).os_errors || {};
  }

  // A damaged journal's kind of damage (damaged, inconsistent...) in the page's language
  // (cartagena_net/engine/reasons.py JOURNAL_DAMAGE, written into /i18n.js by the host).
  function journalDamage() {
    return (window.CARTAGENA_I18N || {}).journal_damage || {};
  }

  function reasonText(why, args) {
    const reasons = (window.CARTAGENA_I18N || {}).reasons || {};
    if (typeof why !== "string" || !Object.prototype.hasOwnProperty.call(reasons, why)) return null;
    const template = reasons[why];
    const COUNTS = {
      cards: (n) => nt("{n} card", "{n} cards", n), spaces: (n) => nt("{n} space", "{n} spaces", n),
      actions: (n) => nt("{n} action", "{n} actions", n), seats: (n) => nt("{n} seat", "{n} seats", n),
      tables: (n) => nt("{n} table", "{n} tables", n),
    };
    const shown = {};
    for (const [name, value] of Object.entries(args && typeof args === "object" ? args : {})) {
      if (name in COUNTS) {
        if (!Number.isInteger(value)) return null;
        shown[name] = COUNTS[name](value);
      } else if (typeof value === "boolean") shown[name] = String(value);
      else if (name === "card" || name === "power") shown[name] = Names.card(value);
      else if (name === "color") shown[name] = Names.color(value);
      else if (name === "colors") shown[name] = String(value).split(/\s+/).filter(Boolean).map(Names.color).join(", ");
      else if (name === "symbols") shown[name] = String(value).split(/\s+/).filter(Boolean).map(Names.card).join(", ");
      else if (name === "error" && Object.prototype.hasOwnProperty.call(osErrors(), args.errno)) shown[name] = osErrors()[args.errno];
      else if (name === "place") shown[name] = Number.isInteger(value) ? tr("space {n}", { n: value }) : Names.place(value);
      else if ((name === "seconds" || name === "limit") && (typeof value === "string" || typeof value === "number")) shown[name] = String(value).replace(".", pt("decimal separator", "."));
      else if (name === "from") shown[name] = Number.isInteger(value) ? tr("on space {n}", { n: value }) : tr("at the {place}", { place: Names.place(value) });
      else if (name === "to") shown[name] = Number.isInteger(value) ? tr("space {n}", { n: value }) : tr("the {place}", { place: Names.place(value) });
      else shown[name] = value;
    }
    let missing = false;
    const text = String(template).replace(/\{([a-z_]+)\}/g, (all, name) => {
      if (Object.prototype.hasOwnProperty.call(shown, name)) return String(shown[name]);
      missing = true;
      return all;
    });
    return missing ? null : text;
  }

  // A hint's line from its why map (docs/protocol.md 4.18), the port of
  // cartagena_net/engine/reasons.py's hint_reason and hint_text: the move as the screens say
  // it (why.move) and why (why.also, else its kind's reason), and the seat's chance before
  // and after it; null if it cannot be said.
  function hintText(why) {
    if (!why || typeof why !== "object") return null;
    const said = (r) => (r && typeof r === "object" ? reasonText(r.why, r.args) : null);
    let line = said(why.move);
    if (line !== null) {
      const more = said(why.also);
      if (more !== null) line = `${line} — ${more}`;
    } else {
      // A field the map leaves out stays out: the template does not fit, the host's line shows.
      const given = (...names) => Object.fromEntries(names.filter((n) => why[n] !== undefined && why[n] !== null).map((n) => [n, why[n]]));
      const FIELDS = { only: [], retreat: ["spaces", "cards"], push: ["cards"], sail: [],
                       keep: ["card", "spaces"], power: ["power"], choose: ["card"], draw: [] };
      const k = why.kind;
      let found = ["hint-gain", {}];
      if (k === "boat") found = ["hint-boat", { ...given("spaces"), place: why.place || "boat" }];
      else if (k === "jump") {
        const two = (why.pirates || 1) > 1 ? "-two" : "";
        found = why.power ? [`hint-power-jump${two}`, given("power", "spaces")] : [`hint-jump${two}`, given("spaces")];
      } else if (typeof k === "string" && Object.prototype.hasOwnProperty.call(FIELDS, k)) found = [`hint-${k}`, given(...FIELDS[k])];
      line = reasonText(found[0], found[1]);
    }
    if (line !== null && Number.isInteger(why.before) && Number.isInteger(why.after)) {
      line = reasonText("hint-chance", { line, before: why.before, after: why.after });
    }
    return line;
  }

  // An event's line in the reader's language, from its data (the port of
  // cartagena_net/engine/sentences.py: the same templates, from the same catalog); the
  // host's English line for a kind not known here. who(seat) names a seat.
  function eventLine(e, view, who) {
    try {
      const said = sentence(e, view, who || ((s) => Names.color(view.seats[s].color)), false);
      if (said !== null) return said;
    } catch (err) { /* fields that do not fit their kind: the host's line */ }
    return e.text || e.type;
  }

  // The same event said aloud (a live region's words): a move reads "from 4 to 9", not
  // with an arrow a screen reader spells out ("right arrow"), as the terminal's
  // screen-reader mode says it (client/reader_words.py Spoken); a move taken back is said
  // as one. The host's line for a kind not known here, its arrows said in words too.
  function eventSpoken(e, view, who) {
    try {
      const said = sentence(e, view, who || ((s) => Names.color(view.seats[s].color)), true);
      if (said !== null) return said;
    } catch (err) { /* fields that do not fit their kind: the host's line */ }
    return String(e.text || e.type).split(" → ").join(` ${tr("to")} `);
  }

  // Sentences said one after another (a live region's): each ends as a sentence does.
  function spokenText(lines) {
    return lines.filter(Boolean).map((l) => (/[.!?…]$/.test(l) ? l : `${l}.`)).join(" ");
  }

  // A message as it reads (tr), and one whose move is written "{frm} → {to}" with that
  // arrow in words.
  function plainTr(msgid, args) { return tr(msgid, args); }
  function spokenTr(msgid, args) {
    const template = I18N.look(msgid) || msgid;
    return I18N.fill(template.split("{frm} → {to}").join(tr("from {frm} to {to}")), args);
  }

  // A place of the board as a sentence names it: the sloop, the start and the goal (also
  // -1) by their names, any other space by its number.
  function placeWord(view, p) {
    p = Number(p);
    const sloop = view.sloop && typeof view.sloop === "object" ? view.sloop.pos : null;
    if (sloop !== null && sloop !== undefined && p === sloop) return Names.place("sloop");
    if (p === 0) return Names.place(view.start_name || "start");
    if (p === view.boat || p === -1) return Names.place(view.goal_name || "boat");
    return String(p);
  }

  function sentence(e, view, color, spoken) {
    if (!view || !e || typeof e !== "object") return null;
    // (its own tr: the templates are the engine's, "{frm} → {to}" said in words aloud)
    const tr = spoken ? spokenTr : plainTr;
    const place = (p) => placeWord(view, p);
    const num = (x) => { const n = Number(x); if (!Number.isInteger(n)) throw new Error("nan"); return n; };
    const cards = (n) => nt("{n} card", "{n} cards", n);
    const list = (cs) => cs.map((c) => Names.card(c)).join(", ");
    const drawn = () => ("cards" in e ? list(e.cards) || tr("no card") : cards(num(e.drawn)));
    const moved = () => ({ frm: place(num(e.from)), to: place(num(e.to)) });
    const title = (s) => String(s).replace(/\b\w/g, (c) => c.toUpperCase());
    const who = e.seat !== undefined && e.seat !== null ? color(num(e.seat)) : "";
    const card = () => Names.card(e.card);
    const k = e.type;
    if (k === "advance") return tr("{who} plays {card}: {frm} → {to}", { who, card: card(), ...moved() });
    if (k === "retreat") return tr("{who} retreats {frm} → {to} and draws {what}", { who, what: drawn(), ...moved() });
    if (k === "morgan") return tr("{who} moves {owner}'s pirate {frm} → {to} and draws {what}", { who, owner: color(num(e.owner)), what: drawn(), ...moved() });
    if (k === "undo" && e.action === "sail") return tr("{who} takes back the sail to {shore}", { who, shore: title(e.shore) });
    if (k === "undo" && spoken) {
      // said as a taking back: the pirate goes back from where the move took it
      return tr("{who} takes back the {card}: the pirate goes back from {frm} to {to}, and the {card} returns to the hand", { who, card: card(), frm: place(num(e.to)), to: place(num(e.from)) });
    }
    if (k === "undo") return tr("{who} takes back: {frm} → {to} ({card})", { who, card: card(), ...moved() });
    if (k === "sail") {
      const shore = title(e.shore);
      if (e.free) return tr("{who} sails the sloop to {shore} (the Captain's free sail)", { who, shore });
      return tr("{who} sails the sloop to {shore}", { who, shore });
    }
    if (k === "captain") return tr("{who} is the Captain (most pirates aboard) and may sail once before the first action, free", { who });
    if (k === "draw") return tr("{who} has no cards and draws {what} as the whole turn", { who, what: drawn() });
    if (k === "discard") return tr("{who} discards {card}", { who, card: card() });
    if (k === "owe") return nt("Filibusters! {who} must discard {n} card", "Filibusters! {who} must discard {n} cards", num(e.count), { who });
    if (k === "reshuffle") return nt("the discard pile is shuffled into a new stock of {n} card", "the discard pile is shuffled into a new stock of {n} cards", num(e.size));
    if (k === "row") return tr("a new face-up row: {cards}", { cards: list(e.cards) });
    if (k === "power") {
      if (e.power === "gun") return tr("{who} plays {card} for its power: looks at {target}'s cards to take one", { who, card: card(), target: color(num(e.target)) });
      const n = num(e.drawn);
      if (e.power === "rum") return tr("{who} plays {card} for its power: draws {n} to keep two and give one to each other player", { who, card: card(), n });
      return tr("{who} plays {card} for its power: draws {n} to keep one and put the others back on top of the stock", { who, card: card(), n });
    }
    if (k === "take") {
      if ("card" in e) return tr("{who} takes {card} from {target}, who draws {what}", { who, card: card(), target: color(num(e.target)), what: drawn() });
      return tr("{who} takes a card from {target}, who draws {what}", { who, target: color(num(e.target)), what: drawn() });
    }
    if (k === "give") {
      if ("card" in e) return tr("{who} gives {to} {card}", { who, to: color(num(e.to)), card: card() });
      return tr("{who} gives {to} a card", { who, to: color(num(e.to)) });
    }
    if (k === "keep" || k === "stack") {
      const shown = "cards" in e;
      const what = shown ? list(e.cards) : cards(num(e.count));
      if (k === "keep") return tr("{who} keeps {what}", { who, what });
      if (shown && e.cards.length > 1) return tr("{who} puts {what} back on top of the stock (top first)", { who, what });
      return tr("{who} puts {what} back on top of the stock", { who, what });
    }
    if (k === "chest") {
      const at = place(num(e.pos));
      if (e.tile === "snake") return tr("{who} opens the chest at {place}: the snake! back to {to}", { who, place: at, to: place(num(e.to)) });
      if (e.tile === "empty") return tr("{who} opens the chest at {place}: empty", { who, place: at });
      return tr("{who} opens the chest at {place} and draws {what}", { who, place: at, what: drawn() });
    }
    if (k === "tiles") return tr("all eight chest tiles are shuffled and laid face down again");
    if (k === "parrot") return tr("{who} plays two parrots as {card}: {frm} → {to}", { who, card: card(), ...moved() });
    if (k === "hook") return tr("{who} hooks two pirates with {card}: {frm} → {to}", { who, card: Names.card(e.cards[1]), ...moved() });
    if (k === "turn") return tr("{who}'s turn", { who });
    if (k === "end") return tr("{who} ends the turn", { who });
    if (k === "win") return tr("{who} has every pirate in the {goal} and wins!", { who, goal: place(-1) });
    return null;
  }

  Object.assign(Cartagena, { I18N, tr, pt, nt, percentText, Names, Options, pendingText, osErrors,
    journalDamage, reasonText, hintText, eventLine, eventSpoken, spokenText, placeWord });

  // The page's marked HTML in the reader's language, and the switch (before the page's own
  // scripts run: this file is the first of them).
  I18N.start();
})();
