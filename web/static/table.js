// The table page (the tablet in the middle of the table) and a seat's private page (a player's
// phone). app.js holds the pieces both draw with (seat boxes, cards, terms, option words).
"use strict";

(() => {
  const { el, command, notice } = window.companion;
  const $ = (sel) => document.querySelector(sel);

  // -- the result box: which battle or combat it tells of ----------------------------------------
  // The biggest text on the page must never name the winner of a battle that is no longer the one
  // being played: the box names its battle (or combat, or round), and greys out, marked
  // "previous", as soon as cards of the next one are on the table.
  // What the table is doing about the card drawn, before and during its combat (BATTLECARDS' stages).
  const PENDING_WORDS = { decision: "fight or not?", homeland: "the homeland's defence", combat: "firing",
    withdrawal: "withdraw or not?", regroup: "regrouping" };

  function resultHeading(view) {
    const outcome = view.last_outcome;
    const data = outcome.data || {};
    if (view.over) return { label: "Game over", stale: false };
    if (typeof data.battle === "number") {
      const begun = view.battle !== data.battle && (view.seats || []).some((s) => (s.play || []).length > 0);
      return { label: `Battle ${data.battle}`, stale: begun };
    }
    const combats = view.combats || [];
    if (view.pending) return { label: `Combat ${combats.length + 1}: ${PENDING_WORDS[view.stage] || "in progress"}`, stale: false };
    if (combats.length) return { label: `Combat ${combats.at(-1).n ?? combats.length}`, stale: false };
    if (typeof view.round === "number") return { label: `Round ${view.round}`, stale: false };
    return { label: "", stale: false };
  }

  function renderResult(view) {
    const outcome = view.last_outcome;
    $("#result").hidden = !outcome;
    if (!outcome) return;
    const heading = resultHeading(view);
    $("#result").classList.toggle("stale", heading.stale);
    $("#result-label").textContent = heading.stale ? `${heading.label} (previous)` : heading.label;
    $("#result-label").hidden = !heading.label;
    $("#result-say").textContent = outcome.say;
    $("#result-terms").replaceChildren(...termsList(outcome.terms));
    $("#result-details").hidden = !outcome.details;  // the whole story, behind a tap
    $("#result-details p").textContent = outcome.details || "";
  }

  // -- the game's line: battle, phase, variants and settings in words -----------------------------
  const seatName = (view, n) => ((view.seats || view.standings || []).find((s) => s.seat === n) || {}).name;

  async function renderMeta(view) {
    const game = (await games()).find((g) => g.game === view.game);
    const meta = [];
    if (view.battle) meta.push(`Battle ${view.battle}`);
    if (view.turn_number) meta.push(`Turn ${view.turn_number}`);
    if (view.phase) meta.push(capitalized(view.phase_name || worded(view.phase)));  // a game may name its phase
    const chosen = optionWords(game, view.options, view.seats || view.standings || []);
    if (chosen.length) meta.push(chosen.join(" · "));
    if (view.over) {
      const winners = view.winners?.length ? view.winners : view.winner ? [view.winner] : [];
      meta.push(winners.length ? `Game over: ${winners.map((n) => `seat ${n} wins (${seatName(view, n) || "?"})`).join(", ")}`
        : "Game over");
    }
    $("#game-meta").textContent = meta.join(" · ");
    const resolve = $("#resolve");
    const phases = game?.resolve_phases;
    resolve.hidden = view.uses_resolve === false || phases === null ||
      (Array.isArray(phases) && phases.length > 0 && !phases.includes(view.phase));
  }

  function renderTable(view) {
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
    renderResult(view);
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

  // -- seat codes: each player's phone link, captioned by name, scrolled into view ----------------
  async function showSeatCodes() {
    const box = $("#seat-codes");
    if (!box.hidden) { box.hidden = true; return; }
    const response = await fetch("/api/seat-links", { headers: { "X-Table-PIN": pin() } });
    const reply = await response.json();
    if (!response.ok) { notice(reply.error); return; }
    box.replaceChildren(
      el("p", { class: "codes-help", text: "Each player scans their own code with their phone: it opens a page only that seat may see." }),
      ...reply.links.map((l) => el("figure", { "data-seat": l.seat },
        el("img", { src: `/api/qr.svg?text=${encodeURIComponent(l.url)}`, alt: `${l.name || `seat ${l.seat}`}'s code` }),
        el("figcaption", {}, el("b", { text: l.name || `Seat ${l.seat}` }), ` seat ${l.seat}`,
          el("a", { class: "seat-url", href: l.url, text: l.url.replace(/\/seat\/.*/, "/seat/…") })))));
    box.hidden = false;
    box.scrollIntoView({ behavior: "smooth", block: "start" });
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

  function renderSeatView(view) {
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
    if (me) parts.push(seatBox(me, view));
    for (const [title, items] of Object.entries(view.known || {})) {
      const list = (items || []).length ? el("ul", {}, ...items.map((i) => el("li", { text: typeof i === "string" ? i : JSON.stringify(i) })))
        : el("p", { class: "meta", text: "none" });
      parts.push(el("section", { class: "panel" }, el("h2", { text: title.replaceAll("_", " ") }), list));
    }
    $("#seat-view").replaceChildren(...parts);
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

  companion.pages.table = tablePage;
  companion.pages.seat = seatPage;
})();
