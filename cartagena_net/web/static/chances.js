/* Live chances: each seat's chance of winning as a bar, and how it moved over the game as
   a small curve. Shared by the TV page (/table/N) and the browser seats (/play) when the
   table shows them. The host estimates them from the spectator's view only; this file
   only draws what it sends (state.chances, and state.curve on a first or reset state). */
"use strict";

(() => {
  const { el, svg, colorOf, chip, colorLetters } = Cartagena;
  const { tr, percentText } = Cartagena;

  // One tracker per page: the curve's points, by the state number each is of.
  function tracker() {
    let points = [];   // [{seq, chances}], oldest first
    let latest = null;
    return {
      take(data) {
        if (data.reset) points = [];
        if (Array.isArray(data.curve)) {
          points = data.curve.map((p) => ({ seq: p.seq, chances: p.chances }));
        }
        latest = Array.isArray(data.chances) ? data.chances : (data.reset ? null : latest);
        if (latest) {
          const at = data.chances_seq ?? data.seq;
          const last = points[points.length - 1];
          if (last && last.seq === at) last.chances = latest;
          else if (!last || last.seq < at) points.push({ seq: at, chances: latest });
        }
      },
      clear() { points = []; latest = null; },   // a new game: nothing of the last one
      get latest() { return latest; },
      get points() { return points; },
    };
  }

  function curve(points, colors) {
    const W = 240, H = 60;
    const box = svg("svg", { class: "chances-curve", viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", role: "img",
                             "aria-label": tr("each seat's chance over the game") });
    if (points.length < 2) return box;
    box.append(svg("line", { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: "curve-half", "vector-effect": "non-scaling-stroke" }));
    const n = points.length - 1;
    colors.forEach((color, seat) => {
      const xy = points.map((p, i) => `${(i * W / n).toFixed(1)},${(H - (p.chances[seat] || 0) * H).toFixed(1)}`);
      box.append(svg("polyline", { points: xy.join(" "), fill: "none", stroke: colorOf(color),
                                   "stroke-width": 2, "vector-effect": "non-scaling-stroke", "data-seat": seat }));
    });
    return box;
  }

  // The curve with each line's seat at its end: the seat's chip (its colour and letter,
  // as on the rest of the page) beside where its line ends, so that colour is not the
  // only cue; chips of close chances are spread apart, none out of the box.
  function plot(points, colors, names) {
    const box = curve(points, colors);
    const ends = el("div", { class: "curve-ends" });
    if (points.length >= 2) {
      const L = colorLetters(colors), last = points[points.length - 1].chances;
      const order = colors.map((c, seat) => ({ seat, y: 1 - (last[seat] || 0) })).sort((a, b) => a.y - b.y);
      const gap = Math.min(0.3, 1 / Math.max(1, colors.length));
      let prev = -gap / 2;
      for (const o of order) { o.y = Math.max(o.y, prev + gap); prev = o.y; }
      let next = 1 + gap / 2;
      for (const o of [...order].reverse()) { o.y = Math.min(o.y, next - gap); next = o.y; }
      for (const o of order) {
        const c = chip(colors[o.seat], L);
        c.dataset.seat = o.seat;
        c.title = names(o.seat);
        c.style.top = `${(Math.max(gap / 2, o.y) * 100).toFixed(1)}%`;
        ends.append(c);
      }
    }
    return el("div", { class: "chances-plot" }, box, ends);
  }

  // Draw into ``node``: a bar a seat (its name, its percent) and the curve; hidden
  // while there is nothing to show.
  function draw(node, track, seats, names) {
    const panel = node.closest(".chances") || node;
    const chances = track.latest;
    if (!chances || !seats || chances.length !== seats.length) {
      panel.hidden = true;
      node.replaceChildren();
      return;
    }
    panel.hidden = false;
    const colors = seats.map((s) => s.color);
    const bars = chances.map((p, seat) => {
      const fill = el("span", { class: "chance-fill" });
      fill.style.width = `${Math.max(0, Math.min(100, p * 100)).toFixed(1)}%`;
      fill.style.background = colorOf(colors[seat]);
      return el("li", { class: "chance", "data-seat": seat, "data-chance": p },
        el("span", { class: "chance-name" }, names(seat)),
        el("span", { class: "chance-bar" }, fill),
        el("span", { class: "chance-pct" }, percentText(p)));
    });
    node.replaceChildren(el("ol", { class: "chance-bars" }, bars), plot(track.points, colors, names));
  }

  Cartagena.LiveChances = { tracker, draw };
})();
