/* The board as SVG, built from the engine's spectator view.

   The board is a list of TRACKS, each an ordered list of PLACES. Today's view has one
   track, the passage: the start, spaces 1..N, the goal. More places (the Whole
   Jailbreak's island path and its sloop) are added by pushing a builder onto
   Board.TRACK_BUILDERS that reads them from the view and returns more tracks; pirates
   find their place through Board.placeKey, which already accepts {path, pos} objects. */
"use strict";

const Board = (() => {
  const { svg, colorOf, inkOn } = Cartagena;
  const CELL = 100;           // one place, in SVG units
  const GAP = 14;             // between places

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
    const g = svg("svg", { class: "icon" + (dark ? " dark" : ""), viewBox: "0 0 34 24", width: size * 34 / 24, height: size,
      role: "img", "aria-label": symbol, "data-symbol": name });
    g.append(svg("use", { href: "#sym-" + name, x: 0, y: 0, width: 24, height: 24, class: "shape" }));
    g.append(svg("text", { x: 29, y: 20, class: "letter" }, letter || name[0]));
    return g;
  }

  // -- places --------------------------------------------------------------------

  function passage(view) {
    const places = [{ key: "passage:0", kind: "start", pos: 0, label: view.start_name || "start" }];
    view.board.forEach((symbol, i) => places.push({ key: `passage:${i + 1}`, kind: "space", pos: i + 1, symbol }));
    places.push({ key: `passage:${view.boat}`, kind: "goal", pos: view.boat, label: view.goal_name || "goal" });
    return [{ id: "passage", places }];
  }

  const TRACK_BUILDERS = [passage];

  // Where a pirate stands: a position on the passage, or later {path, pos}.
  function placeKey(position) {
    if (position !== null && typeof position === "object") return `${position.path}:${position.pos}`;
    return `passage:${position}`;
  }

  // seat counts per place key: Map(key -> Map(seat -> count))
  function pirateCounts(view) {
    const counts = new Map();
    for (const seat of view.seats) {
      for (const p of seat.pirates) {
        const key = placeKey(p);
        if (!counts.has(key)) counts.set(key, new Map());
        const m = counts.get(key);
        m.set(seat.seat, (m.get(seat.seat) || 0) + 1);
      }
    }
    return counts;
  }

  // Columns that make the best use of a box of this aspect (width / height).
  function chooseColumns(count, aspect) {
    let best = 4, bestSize = 0;
    for (let cols = 4; cols <= Math.min(24, count); cols++) {
      const rows = Math.ceil(count / cols);
      const size = Math.min(aspect / cols, 1 / rows);
      if (size > bestSize + 1e-9) { best = cols; bestSize = size; }
    }
    return best;
  }

  // Serpentine positions: left to right, then right to left, ...
  function layOut(tracks, aspect) {
    const all = tracks.flatMap((t) => t.places);
    const cols = chooseColumns(all.length, aspect);
    const step = CELL + GAP;
    all.forEach((place, i) => {
      const row = Math.floor(i / cols), k = i % cols;
      const col = row % 2 === 0 ? k : cols - 1 - k;
      place.x = GAP / 2 + col * step;
      place.y = GAP / 2 + row * step;
      place.row = row;
    });
    return { cols, rows: Math.ceil(all.length / cols), width: cols * step, height: Math.ceil(all.length / cols) * step, places: all };
  }

  // -- drawing ------------------------------------------------------------------

  function piece(seat, count, x, y, r, letters, color) {
    const g = svg("g", { class: "piece", "data-seat": seat, "data-count": count, transform: `translate(${x} ${y})` });
    g.append(svg("circle", { r, fill: colorOf(color), class: "pawn" }));
    g.append(svg("text", { class: "pawn-letter", y: r * 0.36, fill: inkOn(color), "font-size": r * 1.05 }, letters[color] || "?"));
    if (count > 1) {
      g.append(svg("circle", { cx: r * 0.95, cy: -r * 0.85, r: r * 0.62, class: "badge" }));
      g.append(svg("text", { x: r * 0.95, y: -r * 0.62, class: "badge-text", "font-size": r * 0.78 }, count));
    }
    return g;
  }

  function drawPieces(group, here, view, letters, area) {
    const seats = [...here.keys()].sort((a, b) => a - b);
    if (!seats.length) return;
    const per = area.columns, r = area.r;
    seats.forEach((seat, i) => {
      const col = i % per, row = Math.floor(i / per);
      const x = area.x + r + col * (2 * r + area.gap);
      const y = area.y + r + row * (2 * r + 3);
      group.append(piece(seat, here.get(seat), x, y, r, letters, view.seats[seat].color));
    });
  }

  function render(root, view, opts) {
    const letters = opts.letters, symLetters = opts.symbolLetters;
    const tracks = TRACK_BUILDERS.flatMap((build) => build(view));
    const layout = layOut(tracks, opts.aspect || 1.6);
    root.replaceChildren();
    defineSymbols(root, view.symbols);
    root.setAttribute("viewBox", `0 0 ${layout.width} ${layout.height}`);
    root.dataset.cols = layout.cols;
    const counts = pirateCounts(view);

    // The route, under the places.
    const route = layout.places.map((p) => `${p.x + CELL / 2},${p.y + CELL / 2}`).join(" ");
    root.append(svg("polyline", { points: route, class: "route" }));

    for (const place of layout.places) {
      const moved = opts.highlight.to.get(place.key);
      const left = opts.highlight.from.get(place.key);
      const g = svg("g", { class: `place ${place.kind}`, "data-key": place.key, "data-pos": place.pos,
        transform: `translate(${place.x} ${place.y})` });
      g.append(svg("rect", { width: CELL, height: CELL, rx: 12, class: "tile" }));
      if (left !== undefined) {
        g.append(svg("rect", { x: 3, y: 3, width: CELL - 6, height: CELL - 6, rx: 10, class: "left", stroke: colorOf(view.seats[left].color) }));
      }
      if (moved !== undefined) {
        g.append(svg("rect", { x: 3, y: 3, width: CELL - 6, height: CELL - 6, rx: 10, class: "moved", stroke: colorOf(view.seats[moved].color) }));
        g.classList.add("highlight");
      }
      const here = counts.get(place.key) || new Map();
      const who = [...here.entries()].map(([seat, n]) => `${view.seats[seat].color} ×${n}`).join(", ");
      const what = place.kind === "space" ? `space ${place.pos}: ${place.symbol}` : place.label;
      g.append(svg("title", {}, who ? `${what} — ${who}` : what));
      if (place.kind === "space") {
        g.append(svg("text", { x: 9, y: 22, class: "num" }, place.pos));
        g.append(svg("use", { href: "#sym-" + baseName(place.symbol), x: 30, y: 6, width: 40, height: 40, class: "shape" }));
        g.append(svg("text", { x: 88, y: 24, class: "letter" }, symLetters[place.symbol] || place.symbol[0]));
        g.dataset.symbol = place.symbol;
        drawPieces(g, here, view, letters, { x: 6, y: 48, r: 12, columns: 3, gap: 5 });
      } else {
        g.append(svg("text", { x: CELL / 2, y: 22, class: "place-label" }, place.label));
        let total = 0;
        for (const n of here.values()) total += n;
        g.append(svg("text", { x: CELL / 2, y: 96, class: "place-count" }, `${total} pirate${total === 1 ? "" : "s"}`));
        drawPieces(g, here, view, letters, { x: 6, y: 29, r: 12, columns: 3, gap: 5 });
      }
      root.append(g);
    }
    return layout;
  }

  return { render, symbolIcon, defineSymbols, placeKey, TRACK_BUILDERS, SHAPES, chooseColumns };
})();
