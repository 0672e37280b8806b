// A finished game's chart for the History page: one line per seat of its cards (or points) after
// every battle, combat or round, drawn as inline SVG by the page itself (no library).
"use strict";

(() => {
  const SVG = "http://www.w3.org/2000/svg";
  // Seat colours, each at least 4.5:1 against the page's dark panel (#1f232b) and told apart by a
  // dash pattern too, so a seat is found without telling colours apart.
  const COLOURS = ["#f2b134", "#6cc3ff", "#ff8a80", "#7ee08a", "#d9a6ff", "#ffffff"];
  const DASHES = ["", "8 4", "2 4", "12 4 2 4", "4 4", "1 3"];
  const W = 640, H = 300, LEFT = 44, RIGHT = 12, TOP = 12, BOTTOM = 34;

  function node(name, attrs = {}, text = null) {
    const n = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    if (text !== null) n.textContent = text;
    return n;
  }

  function gameChart(chart) {
    const { el } = window.companion;
    const steps = chart.steps.length;
    const top = Math.max(1, ...chart.seats.flatMap((s) => s.values));
    const x = (i) => LEFT + (steps === 1 ? 0 : (i * (W - LEFT - RIGHT)) / (steps - 1));
    const y = (v) => TOP + (H - TOP - BOTTOM) * (1 - v / top);
    const noun = chart.steps[0] || "battle";
    const label = `${chart.measure} of each seat after every ${noun}, ${steps} ${noun}s`;
    const svg = node("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, class: "game-chart-svg" });
    svg.append(node("title", {}, label));
    for (const v of [0, Math.round(top / 2), top]) {   // three gridlines are enough to read a count
      svg.append(node("line", { x1: LEFT, x2: W - RIGHT, y1: y(v), y2: y(v), class: "grid" }));
      svg.append(node("text", { x: LEFT - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, String(v)));
    }
    svg.append(node("text", { x: LEFT, y: H - 8, class: "tick" }, `${noun} 1`));
    svg.append(node("text", { x: W - RIGHT, y: H - 8, "text-anchor": "end", class: "tick" }, `${noun} ${steps}`));
    chart.seats.forEach((seat, i) => {
      const points = seat.values.map((v, j) => `${x(j).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
      const line = node("polyline", { points, fill: "none", stroke: COLOURS[i % COLOURS.length], "stroke-width": 3,
        "stroke-dasharray": DASHES[i % DASHES.length], "data-seat": seat.seat, class: "seat-line" });
      line.append(node("title", {}, `${seat.name}: ${seat.values.at(-1)} ${chart.measure} at the end`));
      svg.append(line);
    });
    const legend = el("ul", { class: "chart-legend" }, ...chart.seats.map((seat, i) => el("li", {},
      swatch(COLOURS[i % COLOURS.length], DASHES[i % DASHES.length]),
      ` ${seat.name}: ${seat.values.at(-1)} ${chart.measure} at the end`)));
    return el("figure", { class: "game-chart" },
      el("figcaption", { text: `How it went: ${chart.measure} after every ${noun}` }), svg, legend);
  }

  function swatch(colour, dash) {
    const svg = node("svg", { viewBox: "0 0 28 10", width: 28, height: 10, "aria-hidden": "true" });
    svg.append(node("line", { x1: 0, x2: 28, y1: 5, y2: 5, stroke: colour, "stroke-width": 3, "stroke-dasharray": dash }));
    return svg;
  }

  window.companion.gameChart = gameChart;
})();
