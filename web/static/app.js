// The dashboard: plain JS, no build step. Every page reads the live view from /api/stream
// (server-sent events) and sends changes to /api/... with the table PIN.
"use strict";

const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
};

// -- the PIN and commands ---------------------------------------------------------------------
const pinInput = $("#pin");
pinInput.value = localStorage.getItem("tablePin") || "";
pinInput.addEventListener("input", () => localStorage.setItem("tablePin", pinInput.value.trim()));
$("#pin-form").addEventListener("submit", (e) => e.preventDefault());

function notice(message, kind = "error") {
  const box = $("#notice");
  box.textContent = message;
  box.className = `notice ${kind}`;
  box.hidden = false;
  clearTimeout(notice.timer);
  notice.timer = setTimeout(() => { box.hidden = true; }, kind === "error" ? 9000 : 4000);
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Table-PIN": pinInput.value.trim() },
    body: JSON.stringify(body || {}),
  });
  let reply = {};
  try { reply = await response.json(); } catch (_) { reply = { ok: false, error: `HTTP ${response.status}` }; }
  if (!reply.ok) notice(reply.error || "refused");
  return reply;
}

const command = (kind, data = {}) => post("/api/command", { kind, data });

// The event stream, kept open through Wi-Fi drops: the browser's EventSource retries a dropped
// connection by itself; one the server refused (an error page, a restart in progress) is opened
// again here with a growing delay. While it is down the page says so; once it is back the view is
// read afresh, so no result is missed.
function stream(handlers, onReconnect) {
  let source = null;
  let delay = 1000;
  let wasDown = false;
  const connection = $("#connection");
  const down = () => {
    wasDown = true;
    connection.hidden = false;
    document.body.classList.add("offline");
  };
  const open = () => {
    source = new EventSource("/api/stream");
    for (const [name, fn] of Object.entries(handlers)) {
      source.addEventListener(name, (e) => fn(JSON.parse(e.data)));
    }
    source.onopen = () => {
      delay = 1000;
      connection.hidden = true;
      document.body.classList.remove("offline");
      if (wasDown && onReconnect) onReconnect();
      wasDown = false;
    };
    source.onerror = () => {
      down();
      if (source.readyState === EventSource.CLOSED) {  // the browser gave up: try again ourselves
        source.close();
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 15000);
      }
    };
  };
  open();
  return { close: () => source && source.close() };
}

// -- keeping the tablet awake -----------------------------------------------------------------
// While a game runs the screen stays on: the Screen Wake Lock API where the browser offers it
// (https or localhost), re-taken whenever the page becomes visible again (the browser drops it
// when the tab is hidden). Over plain http on the LAN browsers withhold it; there a muted,
// looping one-pixel video started by the first tap keeps most tablets awake.
const keepAwake = {
  wanted: false,
  lock: null,
  video: null,
  async want(on) {
    this.wanted = on;
    document.body.dataset.wakeLock = on ? "wanted" : "off";
    if (on) await this.acquire(); else await this.release();
  },
  async acquire() {
    if (!this.wanted || document.visibilityState !== "visible") return;
    if ("wakeLock" in navigator) {
      try {
        if (!this.lock || this.lock.released) this.lock = await navigator.wakeLock.request("screen");
        document.body.dataset.wakeLock = "on";
        return;
      } catch (_) { /* refused (battery saver, no permission): fall back to the video */ }
    }
    this.playVideo();
  },
  playVideo() {
    if (!this.video) {
      this.video = el("video", { muted: "", loop: "", playsinline: "", src: "/static/keep-awake.webm", class: "keep-awake" });
      this.video.muted = true;
      document.body.append(this.video);
    }
    this.video.play().then(() => { document.body.dataset.wakeLock = "video"; })
      .catch(() => document.addEventListener("click", () => this.wanted && this.playVideo(), { once: true }));
  },
  async release() {
    if (this.lock && !this.lock.released) await this.lock.release();
    this.lock = null;
    if (this.video) this.video.pause();
  },
};
document.addEventListener("visibilitychange", () => keepAwake.acquire());

// -- rendering pieces shared by the games ------------------------------------------------------
function cardBox(card) {
  const classes = ["card", card.color || "", card.kind === "power" ? "power" : ""].join(" ");
  const sub = card.kind === "power" ? "POWER" :
    [card.value, card.color, card.shape].filter((x) => x !== undefined && x !== null).join(" ");
  return el("div", { class: classes, "data-card": card.key || "" },
    el("div", { class: "name", text: card.name || card.key || "?" }),
    card.pronunciation ? el("div", { class: "sub", text: `(${card.pronunciation})` }) : null,
    sub ? el("div", { class: "sub", text: sub }) : null);
}

function termsList(terms) {
  return (terms || []).map((t) => el("li", {},
    t.label, t.value !== null && t.value !== undefined && t.value !== "" ? el("span", {}, ": ", el("span", { class: "val", text: t.value })) : null,
    t.detail ? el("span", { class: "meta" }, ` (${t.detail})`) : null));
}

function countsOf(seat) {
  const c = seat.counts || seat;
  const shown = [["army", "army"], ["battalion", "battalion"], ["discard", "discard"], ["hand", "hand"], ["captured", "captured"], ["points", "points"]];
  // A game that counts cards (army...) uses "points" for a play's value, shown on the cards instead.
  return shown.filter(([k]) => typeof c[k] === "number" && !(k === "points" && typeof c.army === "number")).map(([k, label]) => el("span", {}, `${label} `, el("b", { text: c[k] })));
}

function seatBox(seat, view) {
  const total = seat.total ?? seat.counts?.total ?? seat.points ?? seat.score;
  const classes = ["seat"];
  if (view.winner === seat.seat) classes.push("winner");
  if (seat.eliminated) classes.push("out");
  if (view.turn === seat.seat) classes.push("turn");
  const play = seat.play;  // absent where a game has no plays on the table (Stratego)
  return el("article", { class: classes.join(" "), "data-seat": seat.seat },
    el("h2", {}, el("span", {}, `${seat.seat}. ${seat.name}`),
      total !== undefined ? el("span", { class: "total", title: "cards held", text: total }) : null),
    el("div", { class: "counts" }, countsOf(seat)),
    seat.eliminated ? el("span", { class: "badge", text: "out of the game" }) : null,
    seat.withdrawn ? el("span", { class: "badge", text: "sits out this battle" }) : null,
    play === undefined ? null :
      el("div", { class: "cards" }, play.length ? play.map(cardBox) : el("span", { class: "waiting", text: seat.eliminated ? "" : "waiting for a play" })),
    seat.say ? el("div", { class: "say-line", text: `“${seat.say}”` }) : null,
    seat.problem ? el("div", { class: "problem", text: seat.problem }) : null);
}

// -- the table page ---------------------------------------------------------------------------
function renderTable(view) {
  $("#game-title").textContent = view ? `${view.title}` : "No game in progress";
  $("#resolve").disabled = !view || view.over;
  $("#resolve").hidden = Boolean(view) && view.uses_resolve === false;
  if (!view) { $("#seats").replaceChildren(el("p", {}, "Start a game on the ", el("a", { href: "/setup", text: "New game" }), " page.")); return; }
  const meta = [];
  if (view.battle) meta.push(`Battle ${view.battle}`);
  if (view.phase) meta.push(view.phase);
  // Variants are the options switched on; settings such as who deals first are not shown.
  const options = Object.entries(view.options || {}).filter(([k, v]) => v === true || (k.endsWith("minutes") && v > 0))
    .map(([k, v]) => (v === true ? k : `${k} ${v}`).replaceAll("_", " "));
  if (options.length) meta.push(`Variants: ${options.join(", ")}`);
  if (view.over) meta.push(view.winner ? `Game over: seat ${view.winner} wins` : "Game over");
  $("#game-meta").textContent = meta.join(" · ");

  $("#prompt").hidden = !view.prompt;
  $("#prompt").textContent = view.prompt || "";
  const outcome = view.last_outcome;
  $("#result").hidden = !outcome;
  if (outcome) {
    $("#result-say").textContent = outcome.say;
    $("#result-terms").replaceChildren(...termsList(outcome.terms));
  }
  const problems = [...(view.conflicts || []).map((c) => c.say || c), ...(view.problems || [])];
  $("#problems").hidden = problems.length === 0;
  $("#problems").replaceChildren(...problems.map((p) => el("div", { text: typeof p === "string" ? p : JSON.stringify(p) })));
  $("#game-actions").replaceChildren(...(view.actions || []).map(actionButton));
  const seats = view.seats || view.standings || [];
  $("#seats").replaceChildren(...seats.map((s) => seatBox(s, view)));
  for (const render of companion.renderers) render(view);
}

function actionButton(action) {
  if (action.choose) {
    const select = el("select", { "aria-label": action.label },
      ...action.choose.options.map((o) => el("option", { value: o.value, text: o.label })));
    const button = el("button", { text: action.label });
    button.addEventListener("click", () => command(action.kind, { ...action.data, [action.choose.field]: select.value }));
    return el("span", { class: "choose" }, select, button);
  }
  const button = el("button", { text: action.label, "data-kind": action.kind });
  button.addEventListener("click", async () => {
    if (action.confirm && !window.confirm(action.confirm)) return;
    const reply = await command(action.kind, action.data || {});
    if (reply.ok) notice(`${action.label}: done`, "ok");
  });
  return button;
}

function tablePage() {
  const show = (view) => {
    renderTable(view);
    keepAwake.want(Boolean(view && !view.over));  // the screen stays on while a game runs
  };
  stream({
    view: (msg) => {
      show(msg.view);
      const entry = msg.entry;
      if (entry && entry.status === "refused" && entry.source !== "dashboard") notice(`Not accepted: ${entry.reason}`);
    },
  }, async () => {  // back after a drop: read the view afresh, whatever was missed meanwhile
    const reply = await (await fetch("/api/state")).json();
    show(reply.view !== undefined ? reply.view : reply);
  });
  $("#resolve").addEventListener("click", async () => {
    const reply = await command("resolve");
    if (reply.ok) notice("Battle resolved", "ok");
  });
  $("#undo").addEventListener("click", async () => { const r = await command("undo"); if (r.ok) notice("Undone", "ok"); });
  $("#seat-links").addEventListener("click", async () => {
    const box = $("#seat-codes");
    if (!box.hidden) { box.hidden = true; return; }
    const response = await fetch("/api/seat-links", { headers: { "X-Table-PIN": pinInput.value.trim() } });
    const reply = await response.json();
    if (!response.ok) { notice(reply.error); return; }
    box.replaceChildren(...reply.links.map((l) => el("figure", {},
      el("img", { src: `/api/qr.svg?text=${encodeURIComponent(l.url)}`, alt: `seat ${l.seat} code` }),
      el("figcaption", { text: `Seat ${l.seat}` }))));
    box.hidden = false;
  });
}

// -- history ----------------------------------------------------------------------------------
function describeEntry(e) {
  const d = e.data || {};
  if (e.kind === "start") return `New game: ${d.game} with ${(d.seats || []).map((s) => s.name).join(", ")}`;
  const card = d.card ? (e.card_name ? `${e.card_name} (${d.card})` : d.card) : "a hidden card";
  const zone = (d.zone || "").replace(":", " ");
  if (e.kind === "card_seen") return `${card} seen in ${zone}`;
  if (e.kind === "card_gone") return `${card} gone from ${zone}`;
  const rest = Object.entries(d).map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
  return `${e.kind.replaceAll("_", " ")}${rest ? ` (${rest})` : ""}`;
}

async function historyPage() {
  const refresh = async () => {
    const response = await fetch("/api/history");
    if (!response.ok) { $("#history-rows").replaceChildren(); return; }
    const { entries } = await response.json();
    $("#history-rows").replaceChildren(...entries.slice().reverse().map((e) => el("tr", { class: e.status },
      el("td", { text: e.seq }), el("td", { text: describeEntry(e) }), el("td", { text: e.source }),
      el("td", {}, e.status === "refused" ? `refused: ${e.reason}` : e.status === "undone" ? "undone" :
        (e.outcomes || []).map((o) => o.say).join(" ") || e.status))));
  };
  stream({ view: refresh }, refresh);
  $("#undo").addEventListener("click", async () => { const r = await command("undo"); if (r.ok) notice("Undone", "ok"); });
  $("#export").addEventListener("click", exportLog);
}

// The raw log holds every secret, so it is fetched with the PIN, then saved as a file.
async function exportLog() {
  const response = await fetch("/api/export.jsonl", { headers: { "X-Table-PIN": pinInput.value.trim() } });
  if (!response.ok) {
    let reply = {};
    try { reply = await response.json(); } catch (_) { reply = { error: `HTTP ${response.status}` }; }
    notice(reply.error || "refused");
    return;
  }
  const name = (response.headers.get("Content-Disposition") || "").match(/filename=([^;]+)/);
  const link = el("a", { href: URL.createObjectURL(await response.blob()), download: name ? name[1] : "game.jsonl" });
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(link.href);
}

// -- new game ---------------------------------------------------------------------------------
async function setupPage() {
  const { games } = await (await fetch("/api/games")).json();
  const select = $("#game");
  select.replaceChildren(...games.map((g) => el("option", { value: g.game, text: g.title })));
  const players = $("#players");
  const addPlayer = (name = "") => players.append(el("label", {}, `Seat ${players.children.length + 1} `,
    el("input", { class: "player", value: name, placeholder: `Player ${players.children.length + 1}` })));
  ["", "", ""].forEach(() => addPlayer());
  $("#add-player").addEventListener("click", () => addPlayer());
  $("#remove-player").addEventListener("click", () => players.lastElementChild && players.lastElementChild.remove());
  const showOptions = () => {
    const game = games.find((g) => g.game === select.value);
    $("#options").replaceChildren(...(game ? game.options : []).map((o) => {
      let input;
      if (o.choices) input = el("select", { name: o.name }, ...o.choices.map((c) => el("option", { value: JSON.stringify(c), text: String(c), selected: c === o.default ? "" : null })));
      else if (typeof o.default === "boolean") input = el("input", { type: "checkbox", name: o.name, checked: o.default ? "" : null });
      else input = el("input", { type: "number", name: o.name, value: o.default });
      return el("label", {}, input, " ", o.name.replaceAll("_", " "), el("span", { class: "help", text: o.help }));
    }));
  };
  select.addEventListener("change", showOptions);
  showOptions();
  $("#setup-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const options = {};
    for (const input of $("#options").querySelectorAll("[name]")) {
      options[input.name] = input.type === "checkbox" ? input.checked : input.tagName === "SELECT" ? JSON.parse(input.value) : Number(input.value);
    }
    const names = [...players.querySelectorAll("input")].map((i, n) => i.value.trim() || `Player ${n + 1}`);
    const reply = await post("/api/games", { game: select.value, players: names, options });
    if (reply.ok) { notice("Game started", "ok"); setTimeout(() => { location.href = "/"; }, 400); }
  });
}

// -- devices ----------------------------------------------------------------------------------
function dl(obj) {
  const plain = (v) => v === null || typeof v !== "object" || (Array.isArray(v) && v.every((x) => typeof x !== "object"));
  return Object.entries(obj || {}).filter(([, v]) => plain(v)).flatMap(([k, v]) => [
    el("dt", { text: k.replaceAll("_", " ") }),
    el("dd", { class: `state-${v}`, text: Array.isArray(v) ? v.join(", ") || "none" : typeof v === "number" && !Number.isInteger(v) ? v.toFixed(1) : String(v) })]);
}

function cardsInView(cards) {
  if (!cards || !cards.length) return [];
  return [el("dt", { text: "cards in view" }), el("dd", {}, el("table", { class: "in-view" },
    ...cards.map((c) => el("tr", {}, el("td", { text: c.card }), el("td", { text: c.zone || "no zone" }),
      el("td", { class: "meta", text: `${Math.round(c.x_mm)}, ${Math.round(c.y_mm)} mm` })))))];
}

function renderDevices(d) {
  const camera = d.camera;
  $("#camera").replaceChildren(...(camera ? [
    ...dl(camera),
    ...(camera.calibration ? dl({ calibration: `${camera.calibration.status}: ${camera.calibration.detail}` }) : []),
    ...(camera.recent_ignored && camera.recent_ignored.length ? dl({ last_ignored: camera.recent_ignored.map((r) => `${r.text} (${r.why})`) }) : []),
    ...cardsInView(camera.cards),
  ] : [el("dd", { text: "no camera in use" })]));
  const readers = d.readers && (d.readers.readers || d.readers);
  $("#readers").replaceChildren(...(Array.isArray(readers) && readers.length ? readers.map((r) => el("dl", {}, ...dl(r))) : [el("p", { class: "meta", text: "no RFID readers configured" })]));
  $("#unpaired").replaceChildren(...(d.unpaired_uids || []).map((u) => el("li", { text: `${u.uid} on seat ${u.seat}'s reader — pair it on the Tags page` })));
  $("#database").replaceChildren(...dl({ file: d.database }));
  // The Pi's health in words (companion doctor's checks): a warning first, big, when it throttles.
  $("#health").replaceChildren(...(d.health || []).map((c) =>
    el("div", { class: `check ${c.status}`, "data-check": c.name }, el("b", { text: `${c.name}: ` }), c.says)));
}

function devicesPage() {
  fetch("/api/devices").then((r) => r.json()).then(renderDevices);
  stream({ devices: renderDevices });
}

// -- a seat's private view --------------------------------------------------------------------
function renderSeatView(view) {
  const me = (view.seats || view.standings || []).find((s) => s.seat === view.seat);
  const name = view.name || (me && me.name);
  $("#seat-title").textContent = `Seat ${view.seat}${name ? `: ${name}` : ""}`;
  const box = $("#seat-view");
  const parts = [];
  if (view.secret) parts.push(el("div", { class: "big-name", text: view.secret }));
  if (me) parts.push(seatBox(me, view));
  if (view.private) parts.push(el("div", { class: "panel" }, el("dl", {}, ...dl(view.private))));
  for (const [title, items] of Object.entries(view.known || {})) {
    const list = (items || []).length ? el("ul", {}, ...items.map((i) => el("li", { text: typeof i === "string" ? i : JSON.stringify(i) })))
      : el("p", { class: "meta", text: "none" });
    parts.push(el("section", { class: "panel" }, el("h2", { text: title.replaceAll("_", " ") }), list));
  }
  box.replaceChildren(...parts);
  for (const render of companion.seatRenderers) render(view);
}

function seatPage() {
  const token = document.querySelector(".private").dataset.token;
  const refresh = async () => {
    const response = await fetch(`/api/seat/${encodeURIComponent(token)}`);
    const reply = await response.json();
    if (!reply.ok) { $("#seat-view").replaceChildren(el("p", { class: "problem", text: reply.error })); return; }
    renderSeatView(reply.view);
  };
  refresh();
  stream({ view: refresh }, refresh);
}

// Game-specific scripts (web/static/games/<game>.js) add renderers here: each is called with the
// view after the common table (or seat page) is drawn, and draws only its own game's views.
const companion = { el, command, notice, post, renderers: [], seatRenderers: [] };
window.companion = companion;

const pages = { table: tablePage, history: historyPage, setup: setupPage, devices: devicesPage, seat: seatPage };
// Run the page once every script of the page (game renderers included) has loaded.
window.addEventListener("DOMContentLoaded", () => (pages[document.body.dataset.page] || (() => {}))());
