// The table page (the tablet in the middle of the table) and a seat's private page (a player's
// phone). app.js holds the pieces both draw with (seat boxes, cards, terms, option words).
"use strict";

(() => {
  const { el, command, notice, post } = window.companion;
  const $ = (sel) => document.querySelector(sel);

  // -- the result box: which battle or combat it tells of ----------------------------------------
  // The biggest text on the page must never name the winner of a battle that is no longer the one
  // being played: the contract heads the box (last_outcome.label: its battle, combat or round, in the
  // game's words) and marks it ``previous`` as soon as cards of the next one are on the table.
  function renderResult(view, faces) {
    const outcome = view.last_outcome;
    $("#result").hidden = !outcome;
    if (!outcome) return;
    $("#result").classList.toggle("stale", outcome.previous === true);
    $("#result-label").textContent = outcome.label;
    $("#result-label").hidden = !outcome.label;
    $("#result-say").textContent = outcome.say;
    $("#result-terms").replaceChildren(...termsList(outcome.terms));
    // The cards it was fought with, drawn from the catalog (faces.js): only those the result names.
    $("#result-faces").replaceChildren(...[companion.faceRow(faces, `the cards of ${outcome.label || "the result"}`)].filter(Boolean));
    $("#result-details").hidden = !outcome.details;  // the whole story, behind a tap
    $("#result-details p").textContent = outcome.details || "";
  }

  // -- the game's line: where it stands (the contract's progress), variants and settings in words ---
  const seatName = (view, n) => ((view.seats || view.standings || []).find((s) => s.seat === n) || {}).name;

  async function renderMeta(view) {
    const game = (await games()).find((g) => g.game === view.game);
    const meta = [...(view.progress || [])];  // "Battle 12", "Turn 4", the phase: the game's words
    const chosen = optionWords(game, view.options, view.seats || view.standings || []);
    if (chosen.length) meta.push(chosen.join(" · "));
    if (view.over) {
      const winners = view.winners || [];  // every game's, from the contract (TableView)
      meta.push(winners.length ? `Game over: ${winners.map((n) => `seat ${n} wins (${seatName(view, n) || "?"})`).join(", ")}`
        : "Game over");
    }
    $("#game-meta").textContent = meta.join(" · ");
    const resolve = $("#resolve");
    const phases = game?.resolve_phases;
    resolve.hidden = view.uses_resolve === false || phases === null ||
      (Array.isArray(phases) && phases.length > 0 && !phases.includes(view.phase));
  }

  function renderTable(view, faces) {
    document.body.classList.toggle("no-game", !view);
    $("#game-title").textContent = view ? `${view.title}` : "No game in progress";
    $("#resolve").disabled = !view || view.over;
    if (!view) {
      $("#game-meta").textContent = "";
      for (const id of ["#prompt", "#result", "#problems", "#seat-codes"]) $(id).hidden = true;
      $("#game-actions").replaceChildren();
      $("#seats").replaceChildren(el("p", {}, "Start a game on the ", el("a", { href: "/setup", text: "New game" }), " page."));
      for (const render of companion.renderers) render(view);
      return;
    }
    renderMeta(view);
    $("#prompt").hidden = !view.prompt;
    $("#prompt").textContent = view.prompt || "";
    renderResult(view, faces);
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

  // -- seat codes: one seat at a time ------------------------------------------------------------
  // The tablet is seen by everyone at the table: it lists the seats by name, and shows one seat's
  // code only when that player taps their name; the code hides again as soon as a phone has opened
  // it (the seat is then that phone's alone), or after SEAT_CODE_SECONDS.
  const SEAT_CODE_SECONDS = 20;
  let codeShown = null;  // {seat, timer, poll}

  function hideSeatCode() {
    if (!codeShown) return;
    clearTimeout(codeShown.timer);
    clearInterval(codeShown.poll);
    codeShown = null;
    const code = $("#seat-code");
    if (code) code.replaceChildren();
  }

  async function seatList(typed = true) {
    const response = await pinnedFetch("/api/seats", { cache: "no-store" }, { typed });
    const reply = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    if (!response.ok) { notice(reply.error); return null; }
    return reply.seats;
  }

  async function showSeatCode(seat) {
    hideSeatCode();
    const response = await pinnedFetch(`/api/seat-links?seat=${seat.seat}`, { cache: "no-store" });
    const reply = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    if (!response.ok) { notice(reply.error); return; }
    const link = reply.links[0];
    if (link.claimed) {
      notice(`${link.name || `Seat ${link.seat}`} is already open on a phone. Release the seat first to open it on another.`);
      return;
    }
    $("#seat-code").replaceChildren(el("figure", { "data-seat": link.seat },
      el("img", { src: `/api/qr.svg?text=${encodeURIComponent(link.url)}`, alt: `${link.name || `seat ${link.seat}`}'s code` }),
      el("figcaption", {}, el("b", { text: link.name || `Seat ${link.seat}` }), ` seat ${link.seat}: scan with your phone`)));
    codeShown = { seat: link.seat };
    codeShown.timer = setTimeout(hideSeatCode, (companion.seatCodeSeconds || SEAT_CODE_SECONDS) * 1000);
    codeShown.poll = setInterval(async () => {  // the phone opened it: hide the code, mark the seat
      const seats = await seatList(false).catch(() => null);
      const now = seats && seats.find((s) => s.seat === link.seat);
      if (now && now.claimed && codeShown && codeShown.seat === link.seat) { hideSeatCode(); drawSeatList(seats); }
    }, 1000);
  }

  async function release(seat, newLink) {
    const reply = await post("/api/seat-release", { seat: seat.seat, new_link: newLink });
    if (!reply.ok) return;
    notice(newLink ? `${seat.name}'s old code opens nothing now; show the new one to their phone.`
      : `${seat.name}'s seat is free: the next phone to open its code holds it.`, "ok");
    drawSeatList(await seatList());
  }

  function drawSeatList(seats) {
    if (!seats) return;
    $("#seat-names").replaceChildren(...seats.map((s) => el("li", { "data-seat": s.seat, class: s.claimed ? "claimed" : "" },
      seatButton(s),
      s.claimed ? el("span", { class: "meta", text: " on a phone " }) : null,
      s.claimed ? actionLink("Release", () => release(s, false)) : null,
      actionLink("New code", () => release(s, true)))));
  }

  function seatButton(seat) {
    const button = el("button", { class: "seat-name", text: seat.name || `Seat ${seat.seat}` });
    button.addEventListener("click", () => showSeatCode(seat));
    return button;
  }

  function actionLink(label, act) {
    const button = el("button", { class: "small", text: label });
    button.addEventListener("click", act);
    return button;
  }

  async function showSeatCodes() {
    const box = $("#seat-codes");
    if (!box.hidden) { hideSeatCode(); box.hidden = true; return; }
    const seats = await seatList();
    if (!seats) return;
    box.replaceChildren(
      el("p", { class: "codes-help", text: "Tap your name: your code shows for a moment. Scan it with your phone; it opens a page only that phone may see." }),
      el("ul", { id: "seat-names", class: "seat-names" }),
      el("div", { id: "seat-code", class: "seat-code" }));
    drawSeatList(seats);
    box.hidden = false;
    box.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  // -- the camera's banner: no frames, or tags too small to read well (words from the server) ----
  function renderCameraAlerts(devices) {
    const alerts = (devices && devices.camera_alerts) || [];
    $("#camera-alerts").hidden = alerts.length === 0;
    $("#camera-alerts").replaceChildren(...alerts.map((a) => el("div", { text: a })));
  }

  function tablePage() {
    const show = (view, faces) => {
      renderTable(view, faces);
      keepAwake.want(Boolean(view && !view.over));  // the screen stays on while a game runs
    };
    stream({
      devices: renderCameraAlerts,
      view: (msg) => {
        show(msg.view, msg.faces);
        const entry = msg.entry;
        if (entry && entry.status === "refused" && entry.source !== "dashboard") notice(`Not accepted: ${entry.reason}`);
      },
    }, async () => {  // back after a drop: read the view afresh, whatever was missed meanwhile
      const reply = await (await fetch("/api/state")).json();
      show(reply.view !== undefined ? reply.view : reply, reply.faces);
      renderCameraAlerts(reply.devices);
    });
    $("#resolve").addEventListener("click", async () => {
      const reply = await command("resolve");
      if (reply.ok) notice("Resolved", "ok");
    });
    $("#undo").addEventListener("click", async () => { const r = await command("undo"); if (r.ok) notice("Undone", "ok"); });
    $("#seat-links").addEventListener("click", showSeatCodes);
  }

  // -- a seat's private view ----------------------------------------------------------------------
  // The phone shows this seat's own facts first (its colour, identity, hand, army), then the table.
  function ownFacts(view, me) {
    const facts = {};
    const you = view.you || {};
    const colour = you.colour || me?.colour;
    if (colour) facts.colour = capitalized(colour);
    if (you.identity) facts.identity = you.identity;
    if (typeof you.hand === "number") facts["cards in hand"] = you.hand;
    if (you.your_turn !== undefined) facts["your turn"] = you.your_turn ? "yes" : "no";
    const total = me && seatTotal(me);
    if (total) facts[total.label] = total.value;
    return facts;
  }

  // The table's latest result on the phone too: its sentence and the faces of its cards.
  function seatResult(view, faces) {
    const outcome = view.last_outcome;
    if (!outcome || !outcome.say) return null;
    return el("section", { class: "result seat-result", "aria-label": "the latest result" },
      el("p", { class: "say", text: outcome.say }), companion.faceRow(faces, "the cards of the latest result"));
  }

  function renderSeatView(view, reply = {}) {
    const me = (view.seats || view.standings || []).find((s) => s.seat === view.seat);
    const name = view.name || (me && me.name) || view.you?.name;
    $("#seat-title").textContent = name ? `${name} (seat ${view.seat})` : `Seat ${view.seat}`;
    const parts = [];
    if (view.prompt) parts.push(el("p", { class: "prompt", text: view.prompt }));
    if (view.secret) parts.push(el("div", { class: "big-name", text: view.secret }));
    const refused = (view.refused || []).at(-1);  // this seat's last refusal, in full (a secret one too)
    if (refused) parts.push(el("p", { class: "problem", text: `Not accepted (#${refused.seq}): ${refused.reason}` }));
    const facts = { ...ownFacts(view, me), ...(view.private || {}) };
    if (Object.keys(facts).length) parts.push(el("div", { class: "panel own" }, el("h2", { text: "Yours" }), el("dl", {}, ...dl(facts))));
    const own = companion.faceRow(reply.own_faces, "your cards");  // the cards only this seat sees, as pictures
    if (own) parts.push(el("section", { class: "panel own-cards" }, el("h2", { text: "Your cards" }), own));
    parts.push(seatResult(view, reply.faces));
    if (me) parts.push(seatBox(me, view));
    for (const [title, items] of Object.entries(view.known || {})) {
      const list = (items || []).length ? el("ul", {}, ...items.map((i) => el("li", { text: typeof i === "string" ? i : JSON.stringify(i) })))
        : el("p", { class: "meta", text: "none" });
      parts.push(el("section", { class: "panel" }, el("h2", { text: title.replaceAll("_", " ") }), list));
    }
    $("#seat-view").replaceChildren(...parts.filter(Boolean));
    for (const render of companion.seatRenderers) render(view);
  }

  // What the phone shows unasked: the table's own (public) view of its seat. What only this seat
  // may know is drawn only while the player holds the button (or for REVEAL_SECONDS after a tap), and
  // removed from the page again after: a glance across the table, or a screenshot, finds nothing.
  const REVEAL_SECONDS = 5;
  const HOLD_MS = 400;

  function renderVeiled(reply) {
    const view = reply.public || {};
    const me = (view.seats || view.standings || []).find((s) => s.seat === reply.view.seat);
    const name = (me && me.name) || reply.view.name;
    $("#seat-title").textContent = name ? `${name} (seat ${reply.view.seat})` : `Seat ${reply.view.seat}`;
    const parts = [];
    if (view.prompt) parts.push(el("p", { class: "prompt", text: view.prompt }));
    parts.push(el("p", { class: "veil", text: "What only you may see is hidden. Press and hold the button to see it; let go and it hides again." }));
    parts.push(seatResult(view, reply.faces));
    if (me) parts.push(seatBox(me, view));
    $("#seat-view").replaceChildren(...parts.filter(Boolean));
  }

  function seatPage() {
    const token = document.querySelector(".private").dataset.token;
    const button = $("#reveal");
    let latest = null;
    let shown = false;
    let pressedAt = 0;
    let hideTimer = null;
    const draw = () => {
      if (!latest) return;
      button.hidden = !latest.veiled;
      document.body.dataset.revealed = shown || !latest.veiled ? "yes" : "no";
      if (shown || !latest.veiled) renderSeatView(latest.view, latest); else renderVeiled(latest);
    };
    const show = () => { clearTimeout(hideTimer); shown = true; draw(); };
    const hide = () => { clearTimeout(hideTimer); shown = false; pressedAt = 0; draw(); };
    button.addEventListener("pointerdown", (e) => { e.preventDefault(); pressedAt = Date.now(); show(); });
    button.addEventListener("pointerup", () => {
      if (!pressedAt) return;
      if (Date.now() - pressedAt < HOLD_MS) hideTimer = setTimeout(hide, REVEAL_SECONDS * 1000);  // a tap
      else hide();  // held, then let go
      pressedAt = 0;
    });
    for (const kind of ["pointerleave", "pointercancel"]) button.addEventListener(kind, () => { if (pressedAt) hide(); });
    button.addEventListener("click", (e) => { if (e.detail === 0) { show(); hideTimer = setTimeout(hide, REVEAL_SECONDS * 1000); } });  // keyboard
    button.addEventListener("contextmenu", (e) => e.preventDefault());  // a long press is not a menu
    document.addEventListener("visibilitychange", () => { if (document.hidden) hide(); });
    // One request at a time: the first one claims the seat for this phone (its cookie), and a second
    // sent before that answer came would be taken for another phone.
    let inFlight = null;
    let again = false;
    const refresh = () => {
      if (inFlight) { again = true; return inFlight; }
      inFlight = fetchSeat().finally(() => {
        inFlight = null;
        if (again) { again = false; refresh(); }
      });
      return inFlight;
    };
    const fetchSeat = async () => {
      const response = await fetch(`/api/seat/${encodeURIComponent(token)}`, { cache: "no-store" });
      const reply = await response.json();
      if (!reply.ok) {
        latest = null;
        button.hidden = true;
        $("#seat-view").replaceChildren(el("p", { class: "problem", text: reply.error }));
        return;
      }
      latest = reply;
      draw();
    };
    refresh();
    stream({ view: refresh }, refresh);
  }

  companion.pages.table = tablePage;
  companion.pages.seat = seatPage;
})();
