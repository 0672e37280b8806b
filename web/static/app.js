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
// The PIN is typed once, masked, and exchanged at once for a session this browser holds in an
// HttpOnly cookie (no script reads it; it expires, and the Devices page can revoke it). The digits
// are kept nowhere: the bar then shows a lock, never the PIN. Changes and PIN-only reads go with the
// cookie. The private seat page has no PIN box (a player's phone changes nothing).
const pinInput = $("#pin");
const pin = () => (pinInput ? pinInput.value.trim() : "");
let unlocking = null;

function showHold(held, expires) {
  const lock = $("#pin-held");
  if (!pinInput || !lock) return;
  document.body.dataset.pin = held ? "held" : "none";
  lock.hidden = !held;
  $("#pin-entry").hidden = held;
  if (held && expires) {
    const until = new Date(expires * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    lock.title = `This tablet holds the table PIN until ${until}. Tap to lock it.`;
  }
}

// A PIN typed (and not yet exchanged) becomes this browser's session; "" when none was typed.
// Resolves to an error message, or "" when all is well.
function unlock() {
  const typed = pin();
  if (!typed) return Promise.resolve("");
  unlocking ??= (async () => {
    pinInput.value = "";
    const response = await fetch("/api/unlock", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ pin: typed }),
    });
    const reply = await response.json().catch(() => ({ ok: false, error: `HTTP ${response.status}` }));
    if (reply.ok) { showHold(true, reply.expires); return ""; }
    return reply.error || "the PIN was refused";
  })().finally(() => { unlocking = null; });
  return unlocking;
}

async function refreshHold() {
  if (!pinInput) return;
  const reply = await fetch("/api/unlock", { cache: "no-store" }).then((r) => r.json()).catch(() => null);
  if (reply) showHold(reply.held, reply.expires);
}

// A fetch of something that needs the PIN: with this browser's session (after turning a typed PIN
// into one). A refusal saying the hold ended shows the PIN box again. A background poll passes
// { typed: false }: a PIN half typed is not sent as a guess.
async function pinnedFetch(path, options = {}, { typed = true } = {}) {
  const refused = typed ? await unlock() : "";
  if (refused) {
    return new Response(JSON.stringify({ ok: false, error: refused }), { status: 403, headers: { "Content-Type": "application/json" } });
  }
  const response = await fetch(path, { credentials: "same-origin", ...options });
  if (response.status === 403 && document.body.dataset.pin === "held") refreshHold();
  return response;
}

if (pinInput) {
  $("#pin-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const refused = await unlock();
    if (refused) notice(refused);
    else notice("This tablet holds the PIN now; the digits are not kept.", "ok");
  });
  $("#pin-held").addEventListener("click", async () => {
    await fetch("/api/lock", { method: "POST" });
    showHold(false);
    notice("Locked: changes need the PIN again.", "ok");
  });
  localStorage.removeItem("tablePin");  // where older versions kept the digits in clear
  refreshHold();
}

function notice(message, kind = "error") {
  const box = $("#notice");
  box.textContent = message;
  box.className = `notice ${kind}`;
  box.hidden = false;
  clearTimeout(notice.timer);
  notice.timer = setTimeout(() => { box.hidden = true; }, kind === "error" ? 9000 : 4000);
}

async function post(path, body) {
  const response = await pinnedFetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body || {}),
  });
  let reply = {};
  try { reply = await response.json(); } catch (_) { reply = { ok: false, error: `HTTP ${response.status}` }; }
  if (!reply.ok) notice(reply.error || "refused");
  return reply;
}

const command = (kind, data = {}) => post("/api/command", { kind, data });

// The event stream, kept open through Wi-Fi drops: the browser's EventSource retries a dropped
// connection by itself; one the server refused (an error page, a restart in progress, too many
// views from this device) is opened again here with a growing delay. A stream that goes silent
// (a Wi-Fi that stopped passing anything, or a server that closed a stalled stream without the
// page hearing of it) counts as dropped too: the devices panel comes every second, so nothing for
// STREAM_SILENT_MS means the page is no longer live, and it reconnects. While it is down the page
// says so; once it is back the view is read afresh, so no result is missed.
const STREAM_SILENT_MS = 5000;

function stream(handlers, onReconnect) {
  let source = null;
  let delay = 1000;
  let wasDown = false;
  let heard = Date.now();
  const connection = $("#connection");
  const down = () => {
    wasDown = true;
    connection.hidden = false;
    document.body.classList.add("offline");
  };
  const open = () => {
    heard = Date.now();
    source = new EventSource("/api/stream");
    for (const [name, fn] of Object.entries(handlers)) {
      source.addEventListener(name, (e) => fn(JSON.parse(e.data)));
    }
    for (const name of ["view", "devices"]) source.addEventListener(name, () => { heard = Date.now(); });
    source.onopen = () => {
      delay = 1000;
      heard = Date.now();
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
  setInterval(() => {  // silent for too long: the stream is gone, whatever the connection says
    if (source && source.readyState === EventSource.OPEN && Date.now() - heard > STREAM_SILENT_MS) {
      down();
      source.close();
      open();
    }
  }, 1000);
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
  // "points" is a play's value in a game that counts cards (shown on the cards), and the big
  // number itself in a game that counts points: either way not repeated here.
  const pointsElsewhere = typeof c.army === "number" || seatTotal(seat)?.label === "points";
  return shown.filter(([k]) => typeof c[k] === "number" && !(k === "points" && pointsElsewhere)).map(([k, label]) => el("span", {}, `${label} `, el("b", { text: c[k] })));
}

// The seat box's big number, with the word for it under it (cards held, points...).
function seatTotal(seat) {
  const found = [["total", "cards"], ["points", "points"], ["score", "score"]].find(([k]) => typeof seat[k] === "number");
  if (found) return { value: seat[found[0]], label: seat.total_label || found[1] };  // a game may name it
  if (typeof seat.counts?.total === "number") return { value: seat.counts.total, label: "cards" };
  return null;
}

// Where one seat plays at a time (a turn), only that seat is waited for.
function waitingFor(seat, view) {
  if (seat.eliminated || view.over || (view.turn && view.turn !== seat.seat)) return "";
  return "waiting for a play";
}

function seatBox(seat, view) {
  const total = seatTotal(seat);
  const classes = ["seat"];
  if ((view.winners || []).includes(seat.seat)) classes.push("winner");
  if (seat.eliminated) classes.push("out");
  if (view.turn === seat.seat) classes.push("turn");
  if (seat.colour) classes.push(`colour-${seat.colour}`);
  const play = seat.play;  // absent where a game has no plays on the table (Stratego)
  return el("article", { class: classes.join(" "), "data-seat": seat.seat },
    el("h2", {}, el("span", { class: "who" }, seat.name,
      el("small", { text: ` seat ${seat.seat}` }),
      seat.colour ? el("span", { class: `badge colour ${seat.colour}`, text: capitalized(seat.colour) }) : null,
      view.turn === seat.seat && !view.over ? el("span", { class: "badge turn", text: "to play" }) : null),
      total ? el("span", { class: "total-box" }, el("span", { class: "total", text: total.value }),
        el("span", { class: "total-label", text: total.label })) : null),
    el("div", { class: "counts" }, countsOf(seat)),
    seat.eliminated ? el("span", { class: "badge", text: seat.out_words || "out of the game" }) : null,
    seat.withdrawn ? el("span", { class: "badge", text: "sits out this battle" }) : null,
    play === undefined ? null :
      el("div", { class: "cards" }, play.length ? play.map(cardBox) : el("span", { class: "waiting", text: waitingFor(seat, view) })),
    seat.say ? el("div", { class: "say-line", text: `“${seat.say}”` }) : null,
    seat.problem ? el("div", { class: "problem", text: seat.problem }) : null);
}

// -- words for the chosen options ---------------------------------------------------------------
const capitalized = (text) => String(text).charAt(0).toUpperCase() + String(text).slice(1);
// A game that gives no words for a choice sends its code value ("both_removed"): say it as words.
const worded = (text) => String(text).replaceAll("_", " ");
// Options that name a seat (who deals or plays first, the red seat: the game's Option(seat=True)) are chosen
// and shown by the player's name.
const namesASeat = (option) => option.seat === true;

let gamesList = null;
async function games() {
  gamesList ??= fetch("/api/games").then((r) => r.json()).then((reply) => reply.games);
  return gamesList;
}

function choiceLabel(option, value) {
  const i = (option.choices || []).findIndex((c) => c === value);
  return worded(i >= 0 && option.choice_labels ? option.choice_labels[i] : value);
}

// The chosen options of a game, in words: "Ties: both removed", "Spy's Trivia", "First dealer: Ann".
function optionWords(game, options, seats) {
  const nameOf = (n) => (seats.find((s) => s.seat === n) || {}).name || `seat ${n}`;
  const said = [];
  for (const option of (game && game.options) || []) {
    const value = (options || {})[option.name];
    if (value === undefined || value === null || value === false) continue;
    if (value === true) said.push(option.label);
    else if (namesASeat(option)) said.push(`${option.label}: ${nameOf(Number(value))}`);
    else if (option.choices) said.push(`${option.label}: ${choiceLabel(option, value)}`);
    else if (value !== 0) said.push(`${option.label}: ${value}`);
  }
  return said;
}

// -- devices ----------------------------------------------------------------------------------
function dl(obj) {
  const plain = (v) => v === null || typeof v !== "object" || (Array.isArray(v) && v.every((x) => typeof x !== "object"));
  // A value not there (null or "": no error yet) is left out rather than shown as "null"; a time
  // ("..._at", Unix seconds) is shown as the time of day.
  const said = (k, v) => (Array.isArray(v) ? v.join(", ") || "none"
    : typeof v === "number" && k.endsWith("_at") ? new Date(v * 1000).toLocaleTimeString()
      : typeof v === "number" && !Number.isInteger(v) ? v.toFixed(1) : String(v));
  return Object.entries(obj || {}).filter(([, v]) => v !== null && v !== undefined && v !== "" && plain(v)).flatMap(([k, v]) => [
    el("dt", { text: k.replaceAll("_", " ") }),
    el("dd", { class: `state-${v}`, text: said(k, v) })]);
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
  ] : dl({ camera: "none in use" })));
  const readers = d.readers && (d.readers.readers || d.readers);
  $("#readers").replaceChildren(...(Array.isArray(readers) && readers.length ? readers.map((r) => el("dl", {}, ...dl(r))) : [el("p", { class: "meta", text: "no RFID readers configured" })]));
  $("#unpaired").replaceChildren(...(d.unpaired_uids || []).map((u) => el("li", { text: `${u.uid} on seat ${u.seat}'s reader — pair it on the Tags page` })));
  $("#database").replaceChildren(...dl({ file: d.database }));
  // The Pi's health in words (companion doctor's checks): a warning first, big, when it throttles.
  const worst = { fail: 0, warn: 1, ok: 2 };
  $("#health").replaceChildren(...(d.health || []).slice().sort((a, b) => worst[a.status] - worst[b.status]).map((c) =>
    el("div", { class: `check ${c.status}`, "data-check": c.name }, el("b", { text: `${c.name}: ` }), c.says)));
}

// Hidden cards read from old, readable tags: any phone's camera app reads what they are.
function renderOldSheets(camera) {
  const count = camera && camera.old_sheet_cards;
  const box = $("#old-sheets");
  box.hidden = !count;
  if (count) {
    box.textContent = `${count} hidden card${count === 1 ? "" : "s"} in play carr${count === 1 ? "ies an old tag" : "y old tags"} ` +
      "whose code names the card: any phone's camera reads what it is. Print new sheets (Tags page, with the PIN, " +
      "or `companion tags print`): their private tags name nothing.";
  }
}

// With the PIN: the tablets holding it (each can be revoked) and the seats held by phones (released).
async function renderRoom() {
  const response = await pinnedFetch("/api/room", { cache: "no-store" }, { typed: false }).catch(() => null);
  if (!response || !response.ok) { $("#room-locked").hidden = false; $("#tablets").replaceChildren(); $("#seat-phones").replaceChildren(); return; }
  const room = await response.json();
  $("#room-locked").hidden = true;
  const when = (t) => new Date(t * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  $("#tablets").replaceChildren(...room.tablets.map((t) => {
    const revoke = el("button", { class: "small", text: t.this ? "Lock this tablet" : "Revoke" });
    revoke.addEventListener("click", async () => {
      const reply = await post("/api/room/revoke", { tablet: t.id });
      if (reply.ok) { notice(`${t.label} no longer holds the PIN.`, "ok"); if (t.this) refreshHold(); renderRoom(); }
    });
    return el("li", { "data-tablet": t.id }, `${t.label}${t.this ? " (this tablet)" : ""}, since ${when(t.opened)}, until ${when(t.expires)} `, revoke);
  }));
  $("#seat-phones").replaceChildren(...room.seats.map((s) => {
    if (!s.claimed_at) return el("li", { text: `${s.name || `Seat ${s.seat}`}: no phone yet` });
    const release = el("button", { class: "small", text: "Release" });
    release.addEventListener("click", async () => {
      const reply = await post("/api/seat-release", { seat: s.seat });
      if (reply.ok) { notice(`${s.name}'s seat is free for another phone.`, "ok"); renderRoom(); }
    });
    return el("li", { "data-seat": s.seat }, `${s.name || `Seat ${s.seat}`}: on a phone since ${when(s.claimed_at)} `, release);
  }));
}

function devicesPage() {
  const show = (d) => { renderDevices(d); renderOldSheets(d.camera); };
  fetch("/api/devices").then((r) => r.json()).then(show);
  stream({ devices: show });
  renderRoom();
  setInterval(renderRoom, 5000);
}

// Game-specific scripts (web/static/games/<game>.js) add renderers here: each is called with the
// view after the common table (or seat page) is drawn, and draws only its own game's views.
// Page scripts (table.js, setup.js, history.js) add their page to `pages`.
const companion = { el, command, notice, post, pinnedFetch, renderers: [], seatRenderers: [], pages: { devices: devicesPage } };
window.companion = companion;

// Run the page once every script of the page (game renderers included) has loaded.
window.addEventListener("DOMContentLoaded", () => (companion.pages[document.body.dataset.page] || (() => {}))());
