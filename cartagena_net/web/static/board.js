/* The board as SVG, built from the engine's spectator view (nothing else).

   The board is a list of TRACKS, each an ordered list of PLACES: one track per path of
   the view (view.paths), the start before the first, the goal after the last. In the
   Whole Jailbreak the sloop lies between the two paths (view.sloop; view.board holds
   null at its position): the passage's track ends in the Cartagena shore and the island
   path's begins with the Tortuga shore, and the sloop, with its load by colour, is drawn
   at the shore where it lies. Each track is laid out as a serpentine; when the story is
   not the basic escape, each track carries its path's name. */
"use strict";

(() => {
  const { svg, colorOf, inkOn } = Cartagena;
  const { tr, nt, Names } = Cartagena;
  const CELL = 100;           // one place, in SVG units
  const GAP = 14;             // between places
  const TITLE = 44;           // a path's name above its track
  const WAY_OUT = 4.5;        // a way's line (web.css .way: 8 wide, round ends) off a square's edge
  const INSET = 7;            // a highlighted place's border (web.css .moved: 7 wide at 3.5)

  // Symbol shapes on a 24 x 24 grid, drawn in ink; each place also shows the letter.
  const SHAPES = {
    skull: [["path", { d: "M12 2C6.5 2 3 5.8 3 10.5c0 3 1.4 5 3.5 6.2V21h11v-4.3C19.6 15.5 21 13.5 21 10.5 21 5.8 17.5 2 12 2z" }],
      ["circle", { cx: 8.5, cy: 11, r: 2.4, class: "hole" }], ["circle", { cx: 15.5, cy: 11, r: 2.4, class: "hole" }],
      ["path", { d: "M12 13.5l-1.5 2.5h3z", class: "hole" }]],
    dagger: [["path", { d: "M12 1l2.2 4v9.5h-4.4V5z" }], ["rect", { x: 6, y: 14.5, width: 12, height: 2.4, rx: 1 }],
      ["rect", { x: 10.6, y: 16.9, width: 2.8, height: 4.6 }], ["circle", { cx: 12, cy: 22.2, r: 1.6 }]],
    key: [["circle", { cx: 7, cy: 12, r: 5.2 }], ["circle", { cx: 7, cy: 12, r: 2.2, class: "hole" }],
      ["rect", { x: 11.5, y: 10.8, width: 11, height: 2.6 }], ["rect", { x: 17, y: 13.2, width: 2.4, height: 4 }],
      ["rect", { x: 20.5, y: 13.2, width: 2, height: 3 }]],
    bottle: [["rect", { x: 10, y: 1.5, width: 4, height: 2.2, rx: 0.6 }], ["path", { d: "M10.3 3.5h3.4v4.2c2.6 1 4.3 3.2 4.3 6V21a1.8 1.8 0 0 1-1.8 1.8H7.8A1.8 1.8 0 0 1 6 21v-7.3c0-2.8 1.7-5 4.3-6z" }],
      ["rect", { x: 7.6, y: 13, width: 8.8, height: 5, class: "hole" }]],
    pistol: [["path", { d: "M2 6.5h19.5v4.5H12.2l-1 2.4h-2l-1.4 7.8H3.2l2-9.3L2 11z" }], ["rect", { x: 19, y: 4.5, width: 2, height: 2 }],
      ["path", { d: "M9.2 11h2.6l-.8 2.5H9z", class: "hole" }]],
    hat: [["path", { d: "M1 9.5c3 1.2 5.5 1.3 7-.8C9 6.6 10.4 4 12 4s3 2.6 4 4.7c1.5 2.1 4 2 7 .8-1 4-3.2 7.5-5.2 9.5-3.8-1.6-7.8-1.6-11.6 0C4.2 17 2 13.5 1 9.5z" }],
      ["circle", { cx: 12, cy: 11.5, r: 2, class: "hole" }]],
    rum: [["path", { d: "M6 3h12c1.5 3 1.5 15 0 18H6C4.5 18 4.5 6 6 3z" }], ["rect", { x: 4.8, y: 7, width: 14.4, height: 1.6, class: "hole" }],
      ["rect", { x: 4.8, y: 15.4, width: 14.4, height: 1.6, class: "hole" }]],
    hook: [["path", { d: "M13.4 2v11.5a5 5 0 1 1-10 0h3a2 2 0 1 0 4 0V2z" }], ["rect", { x: 10, y: 1, width: 10, height: 4, rx: 1 }]],
    lantern: [["path", { d: "M9 2.5a3 3 0 0 1 6 0v1.3h-1.6V2.5a1.4 1.4 0 0 0-2.8 0v1.3H9z" }], ["rect", { x: 7, y: 4, width: 10, height: 2.4, rx: 0.6 }],
      ["path", { d: "M7.8 6.4h8.4l1 12.6H6.8z" }], ["path", { d: "M12 9c1.6 2 2 3.5 0 6.3-2-2.8-1.6-4.3 0-6.3z", class: "hole" }],
      ["rect", { x: 6, y: 19, width: 12, height: 2.6, rx: 0.6 }]],
    spyglass: [["path", { d: "M2.5 15.5l10-6.5 2.3 3.6-10 6.5z" }], ["path", { d: "M12.8 8.4l6.5-4.2 2.6 4-6.5 4.2z" }],
      ["rect", { x: 4, y: 19, width: 16, height: 2.4, rx: 1 }]],
    parrot: [["path", { d: "M13 2.5c3.5 0 5.5 2.7 5.5 5.5 0 2-1 3.3-2.2 4.3L17.5 22h-3l-1.5-6.2L10 22H7.5l2.4-8.5C8.4 12.2 7.5 10.4 7.5 8.3 7.5 5 9.8 2.5 13 2.5z" }],
      ["path", { d: "M18.2 5.5l3.3 1.7-3 1.9z" }], ["circle", { cx: 14.5, cy: 6.5, r: 1.2, class: "hole" }]],
    chest: [["path", { d: "M3 9.5C3 6 6 4 12 4s9 2 9 5.5z" }], ["rect", { x: 3, y: 10.5, width: 18, height: 10, rx: 1 }],
      ["rect", { x: 10.3, y: 9, width: 3.4, height: 4.4, class: "hole" }]],
  };
  const ALIASES = { keys: "key", keyring: "key", gun: "pistol", grapple: "hook", telescope: "spyglass", treasure: "chest" };

  function baseName(symbol) { return String(symbol).replace(/\*$/, ""); }

  // <symbol id="sym-NAME"> for each symbol of the ruleset, once per SVG.
  function defineSymbols(root, symbols) {
    let defs = root.querySelector("defs");
    if (!defs) { defs = svg("defs"); root.prepend(defs); }
    for (const name of symbols) {
      const id = "sym-" + name;
      if (defs.querySelector(`[id="${id}"]`)) continue;
      const shape = SHAPES[ALIASES[name] || name];
      const sym = svg("symbol", { id, viewBox: "0 0 24 24" });
      if (shape) {
        for (const [tag, attrs] of shape) sym.append(svg(tag, attrs));
      } else {
        sym.append(svg("circle", { cx: 12, cy: 12, r: 10 }));
      }
      defs.append(sym);
    }
  }

  // A symbol drawn with its letter: used on the board and for cards in the side panel.
  function symbolIcon(symbol, letter, size) {
    const name = baseName(symbol);
    const dark = String(symbol).endsWith("*");
    const said = Names.card(symbol);
    const g = svg("svg", { class: "icon" + (dark ? " dark" : ""), viewBox: "0 0 34 24", width: size * 34 / 24, height: size,
      role: "img", "aria-label": said, "data-symbol": name });
    g.append(svg("use", { href: "#sym-" + name, x: 0, y: 0, width: 24, height: 24, class: "shape" }));
    g.append(svg("text", { x: 29, y: 20, class: "letter" }, letter || name[0]));
    return g;
  }

  // -- places --------------------------------------------------------------------

  const SHORES = ["cartagena", "tortuga"];   // the sloop's two shores: first path's, second's
  const SHORE_NAMES = { cartagena: "Cartagena", tortuga: "Tortuga" };

  function capitalized(text) { return text ? text[0].toUpperCase() + text.slice(1) : ""; }

  function space(view, pos) { return { key: `place:${pos}`, kind: "space", pos, symbol: view.board[pos - 1] }; }

  function dock(view, shore) {
    const here = view.sloop.shore === shore;
    return { key: `shore:${shore}`, kind: "dock", shore, label: SHORE_NAMES[shore] || shore, sloop: here,
      pos: here ? view.sloop.pos : null };
  }

  // One track per path (the view's paths; a view without them is one path 1..boat-1).
  function paths(view) {
    const list = view.paths && view.paths.length ? view.paths
      : [{ name: "", first: 1, last: view.boat - 1 }];
    const titled = (view.story || "escape") !== "escape";
    const sloop = view.sloop || null;
    const tracks = list.map((path, i) => {
      const places = [];
      for (let pos = path.first; pos <= path.last; pos++) places.push(space(view, pos));
      return { id: `path-${i}`, title: titled ? capitalized(Names.place(path.name)) : "", name: path.name, places };
    });
    tracks[0].places.unshift({ key: "place:0", kind: "start", pos: 0, label: Names.place(view.start_name || "start") });
    tracks[tracks.length - 1].places.push({ key: `place:${view.boat}`, kind: "goal", pos: view.boat, label: Names.place(view.goal_name || "boat") });
    if (sloop) {
      // The sloop is the place after the path that ends just before it.
      const i = list.findIndex((p) => p.last + 1 === sloop.pos);
      if (i >= 0 && i + 1 < tracks.length) {
        tracks[i].places.push(dock(view, SHORES[0]));
        tracks[i + 1].places.unshift(dock(view, SHORES[1]));
      }
    }
    return tracks;
  }

  const TRACK_BUILDERS = [paths];

  // Where a pirate stands: a position (the sloop's is drawn at its shore), or {path, pos}.
  function placeKey(position, view) {
    if (position !== null && typeof position === "object") return `${position.path}:${position.pos}`;
    if (view && view.sloop && position === view.sloop.pos) return `shore:${view.sloop.shore}`;
    return `place:${position}`;
  }

  // seat counts per place key: Map(key -> Map(seat -> count))
  function pirateCounts(view) {
    const counts = new Map();
    for (const seat of view.seats) {
      for (const p of seat.pirates) {
        const key = placeKey(p, view);
        if (!counts.has(key)) counts.set(key, new Map());
        const m = counts.get(key);
        m.set(seat.seat, (m.get(seat.seat) || 0) + 1);
      }
    }
    return counts;
  }

  // Columns that make the best use of a box of this aspect (width / height), for tracks
  // of these lengths (a number: one track), each track with titleRows of height above it.
  function chooseColumns(lengths, aspect, titleRows) {
    const counts = typeof lengths === "number" ? [lengths] : lengths;
    const extra = titleRows || 0;
    let best = 4, bestSize = 0;
    for (let cols = 4; cols <= Math.min(24, Math.max(...counts)); cols++) {
      const rows = counts.reduce((n, c) => n + Math.ceil(c / cols) + extra, 0);
      const size = Math.min(aspect / cols, 1 / rows);
      if (size > bestSize + 1e-9) { best = cols; bestSize = size; }
    }
    return best;
  }

  // Each track a serpentine (left to right, then right to left, ...) under its title.
  // The serpentine runs on from one track to the next, so a track begins below the end
  // of the one before; the title stands on the other side from where the track begins.
  function layOut(tracks, aspect) {
    const step = CELL + GAP;
    const titleH = tracks.some((t) => t.title) ? TITLE : 0;
    const cols = chooseColumns(tracks.map((t) => t.places.length), aspect, titleH / step);
    let y = GAP / 2, rows = 0;
    tracks.forEach((track, t) => {
      if (track.title) {
        track.titleY = y;
        track.titleEnd = t > 0 && rows % 2 === 0;   // the track begins on the left
        y += titleH;
      }
      track.places.forEach((place, i) => {
        const row = Math.floor(i / cols), k = i % cols;
        const col = (rows + row) % 2 === 0 ? k : cols - 1 - k;
        place.x = GAP / 2 + col * step;
        place.y = y + row * step;
        place.row = rows + row;
        place.track = track.id;
      });
      const n = Math.ceil(track.places.length / cols);
      y += n * step;
      rows += n;
    });
    return { cols, width: cols * step, height: y - GAP / 2, tracks, places: tracks.flatMap((t) => t.places) };
  }

  // -- drawing ------------------------------------------------------------------

  // A seat's pirates on a place: a pawn with the seat's letter and, for more than one,
  // their number on a badge at its top right. Text is never smaller than 13 units (the
  // TV's smallest text, docs/web.md).
  function piece(seat, count, x, y, r, letters, color) {
    const g = svg("g", { class: "piece", "data-seat": seat, "data-count": count, transform: `translate(${x} ${y})` });
    g.append(svg("circle", { r, fill: colorOf(color), class: "pawn" }));
    const size = Math.max(15, floor);
    g.append(svg("text", { class: "pawn-letter", y: size * 0.36, fill: inkOn(color), "font-size": size }, letters[color] || "?"));
    if (count > 1) {
      const b = Math.max(13.5, floor), br = Math.max(8, b * 0.6);
      g.append(svg("circle", { cx: r * 0.8, cy: -r * 0.8, r: br, class: "badge" }));
      g.append(svg("text", { x: r * 0.8, y: -r * 0.8 + b * 0.36, class: "badge-text", "font-size": b }, count));
    }
    return g;
  }

  // The seats' pieces in a box of the place (x, y, w, h): one row while they fit, else
  // rows of ``columns``; each pawn as big as its cell allows (at most ``r``).
  function drawPieces(group, here, view, letters, area) {
    const seats = [...here.keys()].sort((a, b) => a - b);
    if (!seats.length) return;
    if (area.pairs && seats.length > area.columns && seats.some((s) => here.get(s) > 1)) {
      // Crowded (the start): two columns of a pawn and its number beside it, no badge
      // over a neighbour.
      const rows = Math.ceil(seats.length / 2), cw = area.w / 2, ch = area.h / rows;
      const size = Math.max(15, floor);
      const r = Math.min(area.r, ch / 2 - 1, (cw - size * 0.7 - 4) / 2);
      seats.forEach((seat, i) => {
        const x = area.x + cw * (i % 2) + (cw - (2 * r + 3 + size * 0.6)) / 2 + r;
        const y = area.y + ch * (Math.floor(i / 2) + 0.5);
        const g = piece(seat, 1, x, y, r, letters, view.seats[seat].color);
        g.dataset.count = here.get(seat);
        g.append(svg("text", { x: r + 2, y: size * 0.36, class: "piece-count", "font-size": size }, here.get(seat)));
        group.append(g);
      });
      return;
    }
    const per = seats.length <= area.columns ? seats.length : area.columns;
    const rows = Math.ceil(seats.length / per);
    // A number's badge sits at its pawn's top right: room is kept for it at the right, so
    // that no badge reaches over the place's edge (or a highlight's border).
    const badge = seats.some((s) => here.get(s) > 1) ? Math.max(8, Math.max(13.5, floor) * 0.6) : 0;
    const cw = (area.w - badge) / area.columns, ch = area.h / rows;
    const r = Math.min(area.r, cw / 2 - 1.5, ch / 2 - 1);
    seats.forEach((seat, i) => {
      const col = i % per, row = Math.floor(i / per);
      const x = area.x + cw * (col + 0.5);
      const y = area.y + ch * (row + 0.5);
      group.append(piece(seat, here.get(seat), x, y, r, letters, view.seats[seat].color));
    });
  }

  // The sloop: a hull and a sail, in ink, about 44 x 26 units.
  function sloopShape(x, y, scale) {
    const g = svg("g", { class: "sloop", transform: `translate(${x} ${y}) scale(${scale || 1})` });
    g.append(svg("path", { d: "M22 0v20", class: "mast" }));
    g.append(svg("path", { d: "M23.5 1.5l14 16h-14z", class: "sail" }));
    g.append(svg("path", { d: "M20.5 4l-12 13.5h12z", class: "sail" }));
    g.append(svg("path", { d: "M0 20h44l-6 7H6z", class: "hull" }));
    return g;
  }

  // A line of text centred on a tile; a long one ("flooded sloop") is squeezed to the
  // tile's width rather than set smaller (it stays as readable as the rest).
  function label(text, y, size, cls) {
    size = Math.max(size, floor);
    const node = svg("text", { x: CELL / 2, y, class: cls, "font-size": size }, text);
    if (String(text).length * size * 0.56 > CELL - 8) {
      node.setAttribute("textLength", CELL - 8);
      node.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
    return node;
  }

  function drawDock(g, place, view, letters) {
    g.dataset.shore = place.shore;
    g.append(label(place.label, 19, 16, "place-label"));
    if (!place.sloop) {
      g.dataset.sloop = "no";
      g.append(svg("path", { d: "M14 52q9-8 18 0t18 0 18 0 18 0", class: "wave" }));
      g.append(label(tr("sloop away"), 86, 14, "place-count"));
      return;
    }
    g.dataset.sloop = "yes";
    g.classList.add("has-sloop");
    g.append(sloopShape(34, 24, 0.72));
    const load = new Map();
    view.sloop.aboard.forEach((n, seat) => { if (n > 0) load.set(seat, n); });
    g.dataset.load = view.sloop.aboard.join(",");
    drawPieces(g, load, view, letters, { x: 4, y: 46, w: 92, h: 54, r: 13, columns: 3 });
    if (!load.size) g.append(label(tr("empty"), 76, 14, "place-count"));
  }

  function placeTitle(place, view, here) {
    const who = [...here.entries()].map(([seat, n]) => `${Names.color(view.seats[seat].color)} ×${n}`).join(", ");
    let what = place.kind === "space" ? tr("space {n}: {card}", { n: place.pos, card: Names.card(place.symbol) }) : place.label;
    if (place.kind === "dock") {
      what = place.sloop ? tr("the sloop at {shore} (at most {n} of a colour aboard)", { shore: place.label, n: view.sloop.capacity })
        : tr("{shore}: the sloop is away", { shore: place.label });
    }
    if (place.kind === "start" || place.kind === "goal") {
      let total = 0;
      for (const n of here.values()) total += n;
      what = `${what} · ${nt("{n} pirate", "{n} pirates", total)}`;
    }
    return who ? `${what} — ${who}` : what;
  }

  // The least font size on the board, in its units: opts.minText (CSS px, the TV's
  // smallest text) over the scale the board is drawn at; 0 where none is asked.
  let floor = 0;

  function render(root, view, opts) {
    const letters = opts.letters, symLetters = opts.symbolLetters;
    const tracks = TRACK_BUILDERS.flatMap((build) => build(view));
    const layout = layOut(tracks, opts.aspect || 1.6);
    floor = 0;
    if (opts.minText) {
      const box = root.getBoundingClientRect();
      const scale = Math.min(box.width / layout.width, box.height / layout.height);
      if (scale > 0) floor = Math.min(30, opts.minText / scale + 0.3);
    }
    root.style.setProperty("--floor", `${floor}px`);
    root.replaceChildren();
    defineSymbols(root, view.symbols);
    root.setAttribute("viewBox", `0 0 ${layout.width} ${layout.height}`);
    root.dataset.cols = layout.cols;
    const counts = pirateCounts(view);
    const centre = (p) => `${p.x + CELL / 2},${p.y + CELL / 2}`;

    // The route of each track, under the places; a crossing joins one track to the next.
    layout.tracks.forEach((track, i) => {
      root.append(svg("polyline", { points: track.places.map(centre).join(" "), class: "route", "data-track": track.id }));
      const next = layout.tracks[i + 1];
      if (next && track.places.length && next.places.length) {
        root.append(svg("polyline", { points: `${centre(track.places[track.places.length - 1])} ${centre(next.places[0])}`, class: "crossing" }));
      }
      if (track.title) {
        const x = track.titleEnd ? layout.width - GAP / 2 - 4 : GAP / 2 + 4;
        root.append(svg("text", { x, y: track.titleY + TITLE * 0.68, class: "path-title", "data-track": track.id,
          "text-anchor": track.titleEnd ? "end" : "start" }, track.title));
      }
    });

    for (const place of layout.places) {
      const moved = opts.highlight.to.get(place.key);
      const left = opts.highlight.from.get(place.key);
      const g = svg("g", { class: `place ${place.kind}`, "data-key": place.key, "data-pos": place.pos,
        "data-track": place.track, transform: `translate(${place.x} ${place.y})` });
      g.append(svg("rect", { width: CELL, height: CELL, rx: 12, class: "tile" }));
      if (left !== undefined) {
        g.append(svg("rect", { x: 3, y: 3, width: CELL - 6, height: CELL - 6, rx: 10, class: "left", stroke: colorOf(view.seats[left].color) }));
      }
      if (moved !== undefined) {
        g.append(svg("rect", { x: 3, y: 3, width: CELL - 6, height: CELL - 6, rx: 10, class: "moved", stroke: colorOf(view.seats[moved].color) }));
        g.classList.add("highlight");
      }
      const here = counts.get(place.key) || new Map();
      g.append(svg("title", {}, placeTitle(place, view, here)));
      if (place.kind === "space") {
        g.append(svg("text", { x: 9, y: 22, class: "num" }, place.pos));
        g.append(svg("use", { href: "#sym-" + baseName(place.symbol), x: 30, y: 6, width: 40, height: 40, class: "shape" }));
        g.append(svg("text", { x: 88, y: 24, class: "letter" }, symLetters[place.symbol] || place.symbol[0]));
        g.dataset.symbol = place.symbol;
        drawPieces(g, here, view, letters, { x: 4, y: 47, w: 92, h: 53, r: 13, columns: 3 });
      } else if (place.kind === "dock") {
        drawDock(g, place, view, letters);
      } else {
        // The name at the top and the count at the bottom stay whole inside the
        // highlight's border (INSET), at any size; the pawns take the room between.
        const nameSize = Math.max(17, floor), countSize = Math.max(14, floor);
        const nameY = Math.max(21, INSET + nameSize * 0.8), countY = CELL - INSET - countSize * 0.26;
        g.append(label(place.label, nameY, 17, "place-label"));
        let total = 0;
        for (const n of here.values()) total += n;
        // Crowded, the pawns take the count's line (each says its number).
        const crowded = here.size > 3;
        if (!crowded) g.append(label(nt("{n} pirate", "{n} pirates", total), countY, 14, "place-count"));
        const top = nameY + nameSize * 0.3 + 2, bottom = crowded ? CELL - INSET : countY - countSize * 0.8 - 2;
        drawPieces(g, here, view, letters, { x: INSET - 1, y: top, w: CELL - 2 * INSET + 2, h: Math.max(bottom - top, 20), r: 13, columns: 3, pairs: true });
      }
      root.append(g);
    }
    // The pawns of the spaces, the start and the goal lie over the ways drawn across
    // them (a way runs under them, never over a pawn): each place's pawns in a layer of
    // their own at the place (its data-key), which lets clicks through to the place.
    const layers = [];
    for (const g of root.querySelectorAll("g.place:not(.dock)")) {
      const pieces = g.querySelectorAll(":scope > .piece");
      if (!pieces.length) continue;
      const layer = svg("g", { class: "pieces", "data-key": g.dataset.key, transform: g.getAttribute("transform") });
      layer.append(...pieces);
      layers.push(layer);
    }
    drawWays(root, layout, opts.highlight.ways || [], view, opts.animate);
    root.append(...layers);
    return layout;
  }

  // The way each pirate of the last turn went, square by square along the route, in its
  // seat's colour, ending in an arrow; drawn as it happens (the line runs to its end).
  function drawWays(root, layout, ways, view, animate) {
    const index = new Map(layout.places.map((p, i) => [p.key, i]));
    ways.forEach((way, n) => {
      const a = index.get(way.from), b = index.get(way.to);
      if (a === undefined || b === undefined || a === b || !view.seats[way.seat]) return;
      const step = a < b ? 1 : -1;
      const pts = [];
      let prev = null;
      for (let i = a; i !== b + step; i += step) {
        const p = layout.places[i];
        if (prev && prev.x === p.x && prev.y !== p.y) {
          // A turn of the serpentine: round the outside of the column, not through the
          // squares' symbols and pawns.
          // (WAY_OUT beyond the squares: the line's width stays off their edges)
          const xo = prev.x + CELL / 2 > layout.width / 2 ? prev.x + CELL + WAY_OUT : prev.x - WAY_OUT;
          pts.push([xo, prev.y + 47], [xo, p.y + 47]);
        }
        pts.push([p.x + CELL / 2, p.y + 47]);
        prev = p;
      }
      // From the edge of the square it left to the edge of the one it reached (the
      // arrow's tip): the pawns on both stay in view; between, it runs over the squares
      // it passed, between their symbols and their pawns.
      const edge = (at, toward) => {
        const dx = toward[0] - at[0], dy = toward[1] - at[1], d = Math.hypot(dx, dy) || 1;
        const k = Math.min(1, (CELL / 2 + WAY_OUT) / Math.max(Math.abs(dx), Math.abs(dy), 1));
        return [at[0] + dx * k, at[1] + dy * k, d];
      };
      const first = edge(pts[0], pts[1]);
      const last = edge(pts[pts.length - 1], pts[pts.length - 2]);
      pts[0] = first;
      pts[pts.length - 1] = last;
      const points = pts.map((q) => `${q[0].toFixed(1)},${q[1].toFixed(1)}`);
      const color = colorOf(view.seats[way.seat].color);
      const id = `way-end-${n}`;
      let defs = root.querySelector("defs");
      const marker = svg("marker", { id, viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 2.4, markerHeight: 2.4, orient: "auto-start-reverse" },
        svg("path", { d: "M0 0L10 5L0 10z", fill: color, stroke: "#111", "stroke-width": 1 }));
      defs.append(marker);
      root.append(svg("polyline", { points: points.join(" "), class: "way" + (animate ? " fresh" : ""), stroke: color, "data-seat": way.seat,
        "data-from": way.from, "data-to": way.to, pathLength: 100, "marker-end": `url(#${id})` }));
    });
  }

  // The moves of the last turn that moved (a move taken back by an "undo" is not one).
  const MOVES = new Set(["advance", "retreat", "morgan", "sail", "parrot", "hook"]);
  function lastMoves(events) {
    const picked = [];
    let seenMove = false, undone = 0;
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i];
      if (e.type === "turn" && seenMove) break;
      if (e.type === "undo") undone++;
      else if (MOVES.has(e.type) && undone > 0) undone--;
      else if (MOVES.has(e.type)) { picked.push(e); seenMove = true; }
    }
    return picked;
  }

  // What render's opts.highlight marks for these move events: where each went (to) and
  // came from (from), with the seat that moved. A sail moves the sloop between shores.
  function highlightOf(moves, view) {
    const highlight = { to: new Map(), from: new Map(), ways: [] };
    for (const m of moves) {
      if (!MOVES.has(m.type)) continue;
      const mover = m.type === "morgan" ? m.owner : m.seat;
      const to = m.type === "sail" ? `shore:${m.shore}` : placeKey(m.to, view);
      const from = m.type === "sail" ? `shore:${SHORES.find((s) => s !== m.shore)}` : placeKey(m.from, view);
      highlight.to.set(to, mover);
      if (!highlight.to.has(from)) highlight.from.set(from, mover);
      if (m.type !== "sail") highlight.ways.unshift({ from, to, seat: mover });
    }
    return highlight;
  }

  Cartagena.Board = { render, symbolIcon, defineSymbols, placeKey, lastMoves, highlightOf, TRACK_BUILDERS, SHAPES, SHORES, chooseColumns };
})();
