/* Shared helpers of the read-only web view: colours and letters, DOM building,
   cookies for passwords, the password form. No framework, no build step. */
"use strict";

// The pages' one global (i18n.js, the first script of every page, made it): these helpers
// join its words there.
window.Cartagena = window.Cartagena || {};

(() => {
  const { tr, Names } = Cartagena;
  const SVG_NS = "http://www.w3.org/2000/svg";

  // Seat colours: the Okabe-Ito palette (told apart with the common colour-vision
  // deficiencies); every seat also carries its letter, as on the terminal.
  const COLORS = {
    red: ["#D55E00", "#fff"], blue: ["#0072B2", "#fff"], yellow: ["#F0E442", "#222"],
    green: ["#009E73", "#fff"], purple: ["#CC79A7", "#222"], violet: ["#CC79A7", "#222"],
    magenta: ["#CC79A7", "#222"], grey: ["#9A9A9A", "#111"], gray: ["#9A9A9A", "#111"],
    orange: ["#E69F00", "#222"], black: ["#222222", "#fff"], white: ["#F5F5F5", "#222"],
    brown: ["#8B5A2B", "#fff"], pink: ["#F4A3C8", "#222"], cyan: ["#56B4E9", "#222"],
  };

  function colorOf(name) { return (COLORS[name] || ["#777777", "#fff"])[0]; }
  function inkOn(name) { return (COLORS[name] || ["#777777", "#fff"])[1]; }

  // One distinct capital letter per colour (blue B, black L, ...): the terminal's rule.
  function colorLetters(colors) {
    const letters = {}, taken = new Set();
    for (const color of colors) {
      if (color in letters) continue;
      // a letter of the colour's name in the page's language: the one shown beside it
      const own = Names ? Names.color(color) : color;
      for (const ch of (own.toUpperCase() + color.toUpperCase() + "ABCDEFGHIJKLMNOPQRSTUVWXYZ")) {
        if (/^\p{Lu}$/u.test(ch) && !taken.has(ch)) { letters[color] = ch; taken.add(ch); break; }
      }
    }
    return letters;
  }

  // One distinct lowercase letter per symbol (skull s, dagger d, ...): the terminal's rule.
  const RESERVED = new Set("qrewmcy");
  function symbolLetters(symbols) {
    const keys = {}, taken = new Set(RESERVED);
    for (const sym of symbols) {
      for (const ch of (sym.toLowerCase() + "abcdfghijklnopstuvxz")) {
        if (/^[a-z]$/.test(ch) && !taken.has(ch)) { keys[sym] = ch; taken.add(ch); break; }
      }
    }
    return keys;
  }

  // el("li", {class: "x", "data-seat": 2}, child, "text", ...)
  function el(tag, attrs, ...children) { return build(document.createElement(tag), attrs, children); }
  function svg(tag, attrs, ...children) { return build(document.createElementNS(SVG_NS, tag), attrs, children); }
  function build(node, attrs, children) {
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  const $ = (id) => document.getElementById(id);

  // A seat's chip: its colour with its letter (``L``: colour -> letter, colorLetters).
  function chip(color, L) {
    const c = el("span", { class: "chip", "data-color": color }, L[color] || "?");
    c.style.background = colorOf(color);
    c.style.color = inkOn(color);
    return c;
  }

  // How many of seat ``s``'s pirates are in the goal, in words ("2/3 in the boat").
  function homeText(view, s) {
    const home = s.pirates.filter((p) => p === view.boat).length;
    return tr("{n}/{m} in the {goal}", { n: home, m: s.pirates.length, goal: Names.place(view.goal_name || "boat") });
  }

  // The board's box (width / height) in the element ``wrap``: on a phone (narrower than
  // 900 px) a strip ``tall`` times as high as wide that the page scrolls; wider, the
  // ``height`` the page leaves it (at least ``least`` px).
  function boardAspect(wrap, { tall = 1.4, height = window.innerHeight, least = 300 } = {}) {
    const w = wrap.clientWidth || window.innerWidth;
    return w / (window.innerWidth < 900 ? Math.max(w * tall, 300) : Math.max(height, least));
  }

  // ``draw`` again 150 ms after the window's size last changed.
  function onResize(draw) {
    let timer = null;
    window.addEventListener("resize", () => { clearTimeout(timer); timer = setTimeout(draw, 150); });
  }

  function setCookie(name, value) {
    document.cookie = `${name}=${encodeURIComponent(value)}; path=/; SameSite=Strict`;
  }

  // Ask for a password with the page's form; resolve when the user submits it.
  function askPassword(cookieName, label, wrong) {
    const form = document.getElementById("password-form");
    const input = document.getElementById("password-input");
    document.getElementById("password-label").textContent = label;
    document.getElementById("password-wrong").hidden = !wrong;
    form.hidden = false;
    input.value = "";
    input.focus();
    return new Promise((resolve) => {
      form.onsubmit = (event) => {
        event.preventDefault();
        setCookie(cookieName, input.value);
        form.hidden = true;
        resolve();
      };
    });
  }

  // May this page open ``url``'s stream? Asks (HEAD) and, when a password is missing,
  // shows the form until the right one is given. Resolves with null (go) or a refusal:
  // {reason, text, retry} (reason: "no-such-table", "no-spectators", "no-answer" or
  // "refused"; retry: it may pass later, e.g. the host is restarting or full).
  async function access(url, tableId) {
    const tried = new Set();
    for (;;) {
      let response;
      try {
        response = await fetch(url, { method: "HEAD", cache: "no-store", credentials: "same-origin" });
      } catch (err) {
        return { reason: "no-answer", text: tr("the host does not answer"), retry: true };
      }
      if (response.ok) return null;
      const reason = response.headers.get("X-Cartagena-Refused") || "";
      if (reason === "host-password" || reason === "table-password") {
        const cookie = reason === "host-password" ? "cartagena_host" : `cartagena_table_${tableId}`;
        const label = reason === "host-password" ? tr("This host needs its password")
          : tr("Table {n} needs its password", { n: tableId });
        await askPassword(cookie, label, tried.has(reason));
        tried.add(reason);
        continue;
      }
      if (reason === "no-spectators") return { reason, text: tr("this table is closed to spectators") };
      if (reason === "no-such-table" || response.status === 404) return { reason: "no-such-table", text: tr("there is no such table") };
      return { reason: "refused", text: tr("refused ({status})", { status: response.status }), retry: response.status >= 500 };
    }
  }

  // The page lost its host (``on``) or has it again: a banner under the bar says so in
  // big letters and the page's body (web.css: body[data-offline]) is dimmed, so no board
  // or "to play" looks live while nothing can reach it.
  function offline(on) {
    const was = document.body.dataset.offline === "yes";
    if (was === !!on) return;
    let banner = document.getElementById("offline");
    if (!banner) {
      banner = el("p", { id: "offline", class: "offline", role: "alert", hidden: true },
        tr("No connection to the host: trying again…"));
      const bar = document.getElementById("bar");
      if (bar) bar.after(banner); else document.body.prepend(banner);
    }
    banner.hidden = !on;
    document.body.dataset.offline = on ? "yes" : "no";
  }

  // The address a phone opens to play (/play/address: the host's LAN address when this
  // page came as localhost, which no phone reaches), asked once a page: a promise of it,
  // or of "" when the host does not answer (asked again then).
  let joinAsked = null;
  function joinAddress() {
    if (joinAsked === null) {
      joinAsked = fetch("/play/address", { credentials: "same-origin", cache: "no-store" })
        .then((response) => (response.ok ? response.text() : ""))
        .catch(() => { joinAsked = null; return ""; });
    }
    return joinAsked;
  }

  // A finished game keeps the names it was played by (a player may leave its table, or
  // another sit there, before the next game): ``kept(over, seat, name)`` gives the first
  // name the seat was seen with once the game is ``over`` (and ``name`` while it is not).
  function keptNames() {
    let names = {};
    return (over, seat, name) => {
      if (!over) { names = {}; return name; }
      if (!names[seat] && name) names[seat] = name;
      return names[seat] || name;
    };
  }

  Object.assign(Cartagena, { SVG_NS, $, colorOf, inkOn, colorLetters, symbolLetters, el, svg, chip,
    homeText, boardAspect, onResize, access, offline, joinAddress, keptNames });
})();
