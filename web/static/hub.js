// The tournament hub: every table's game and the standings across tables, read every two seconds.
"use strict";

const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else if (k === "text") node.textContent = v; else node.setAttribute(k, v);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
};

function tableBox(t) {
  const ago = t.last_seen ? Math.round(Date.now() / 1000 - t.last_seen) : null;
  return el("article", { class: `seat ${t.online ? "" : "out"}`, "data-table": t.name },
    el("h2", {}, el("span", { text: t.name }), el("span", { class: "badge", text: t.online ? "online" : "offline" })),
    el("div", { class: "meta", text: `${t.title || "no game"} · ${t.state}${ago !== null ? ` · seen ${ago} s ago` : ""}` }),
    t.players.length ? el("div", { text: t.players.join(", ") }) : null,
    t.prompt ? el("div", { class: "say-line", text: t.prompt }) : null,
    el("ol", { class: "terms", reversed: "" }, ...t.results.slice(-5).reverse().map((r) => el("li", { text: r.say }))));
}

function standingsBox(game, rows) {
  return el("div", { class: "panel", "data-game": game }, el("h3", { text: game }),
    el("table", {}, el("tr", {}, el("th", { text: "player" }), el("th", { text: "won" }), el("th", { text: "played" })),
      ...rows.map((r) => el("tr", {}, el("td", { text: r.player }), el("td", { text: r.won }), el("td", { text: r.played })))));
}

function pairingsBox(game, round) {
  return el("div", { class: "panel" }, el("h3", { text: game }),
    el("ul", {}, ...round.pairs.map(([a, b]) => el("li", { text: `${a} vs ${b}` })),
      round.bye ? el("li", { text: `${round.bye}: bye` }) : null));
}

async function refresh() {
  try {
    const [tables, standings, pairings] = await Promise.all(
      ["/api/tables", "/api/standings", "/api/pairings"].map((u) => fetch(u).then((r) => r.json())));
    $("#tables").replaceChildren(...tables.tables.map(tableBox));
    $("#standings").replaceChildren(...Object.entries(standings.standings).map(([g, rows]) => standingsBox(g, rows)));
    $("#pairings").replaceChildren(...Object.entries(pairings.pairings).map(([g, round]) => pairingsBox(g, round)));
    $("#hub-meta").textContent = `${tables.tables.length} table(s)`;
  } catch (_) {
    $("#hub-meta").textContent = "reconnecting…";
  }
}
refresh();
setInterval(refresh, 2000);
