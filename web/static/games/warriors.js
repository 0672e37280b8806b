// Warriors of the Promised Land on the tablet and the phones (docs/referee/warriors.md). app.js draws
// the common table (prompt, last outcome, buttons, seats with their cards); this adds what it does
// not show: each Challenge's running points side by side, term by term; the Battle round's order
// (who challenges, who has battled, who is still to battle) and its results; each seat's decks and
// Discard pile; face-down and disabled cards drawn as such. On a phone: the hand as scanned (each
// card marked whether it can be laid now, and why not), the seat's face-down cards, and what its
// Prophecy showed. Everything here comes from the view; nothing is decided in the page.
"use strict";

(() => {
  const { el } = window.companion;
  const GAME = "warriors";
  const STYLE = `
    .wr-board { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 1rem; margin: 0 0 1rem; }
    .wr-board h2 { margin: 0 0 .5rem; font-size: 1.2rem; }
    .wr-side { background: var(--panel); border-radius: var(--radius); padding: .8rem 1rem; border: 3px solid transparent; }
    .wr-side.next { border-color: var(--accent); }
    .wr-side .wr-total { font-size: 2.6rem; font-weight: 800; float: right; line-height: 1; }
    .wr-side ol { margin: .3rem 0 0; padding-left: 1.2rem; }
    .wr-side li.zero { color: var(--muted); }
    .wr-side .val { font-weight: 700; color: var(--accent); }
    .wr-order { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; }
    .wr-chip { padding: .3rem .7rem; border-radius: 99px; background: #343a46; }
    .wr-chip.challenger { background: var(--accent); color: #111; font-weight: 700; }
    .wr-chip.defender { border: 2px solid var(--accent); }
    .wr-chip.battled { text-decoration: line-through; color: var(--muted); }
    .wr-results { margin: .5rem 0 0; padding-left: 1.2rem; color: var(--muted); }
    .wr-decks { color: var(--muted); font-size: .95rem; margin: .3rem 0; }
    .wr-decks b { color: var(--ink); }
    .card.wr-down { background: repeating-linear-gradient(45deg, #2b3a5a, #2b3a5a 8px, #24304a 8px, #24304a 16px); border-left-color: #5b7bd5; }
    .card.wr-disabled { transform: rotate(8deg); border-style: dashed; }  /* turned, as on the table; no fading (contrast) */
    .card.wr-righteous { border-left-color: var(--gold); }
    .card.wr-wicked { border-left-color: var(--bad); }
    .card.wr-illegal { outline: 2px dashed var(--bad); }
    .wr-hand .cards { margin-bottom: .5rem; }
    @media (max-width: 520px) { .wr-side .wr-total { font-size: 2rem; } .card { min-width: 7rem; } }
  `;

  const nameOf = (view, n) => ((view.seats || []).find((s) => s.seat === n) || { name: `Seat ${n}` }).name;

  function ensureStyle() {
    if (document.getElementById("wr-style")) return;
    document.head.append(el("style", { id: "wr-style", text: STYLE }));
  }

  function sideBox(view, seat, points, next) {
    const terms = (points.terms || []).map((t) => el("li", { class: t.value === 0 ? "zero" : "" },
      `${t.label}: `, el("span", { class: "val", text: t.value > 0 ? `+${t.value}` : String(t.value) }),
      t.detail ? el("span", { class: "meta", text: ` (${t.detail})` }) : null));
    return el("section", { class: `wr-side${next ? " next" : ""}`, "data-wr-side": seat },
      el("span", { class: "wr-total", text: points.total }),
      el("h2", { text: seat === view.challenge.challenger ? `${nameOf(view, seat)} (challenger)` : nameOf(view, seat) }),
      next ? el("div", { class: "meta", text: "turns a card next" }) : null,
      terms.length ? el("ol", {}, ...terms) : el("p", { class: "meta", text: "no card face up yet" }));
  }

  function orderBox(view) {
    const order = view.order || {};
    if (order.challenger == null && !(view.results || []).length) return null;
    const chips = [];
    if (order.challenger != null) chips.push(el("span", { class: "wr-chip challenger", text: `${nameOf(view, order.challenger)} challenges` }));
    const defender = view.challenge ? view.challenge.defender : null;
    if (defender != null && defender !== order.challenger) chips.push(el("span", { class: "wr-chip defender", text: `${nameOf(view, defender)} defends` }));
    for (const n of order.battled || []) {
      if (n !== order.challenger && n !== defender) chips.push(el("span", { class: "wr-chip battled", text: nameOf(view, n) }));
    }
    for (const n of order.to_battle || []) chips.push(el("span", { class: "wr-chip", text: `${nameOf(view, n)} to battle` }));
    const results = (view.results || []).map((r) => {
      const loser = r.winner === r.challenger ? r.defender : r.challenger;
      return el("li", { text: `${nameOf(view, r.winner)} beat ${nameOf(view, loser)} ${r.points[r.winner]}–${r.points[loser]}, captured ${r.captured}` });
    });
    return el("section", { class: "wr-side", id: "wr-order" },
      el("h2", { text: `Battle round ${view.battle_round || ""}`.trim() }),
      el("div", { class: "wr-order" }, ...chips),
      results.length ? el("ol", { class: "wr-results" }, ...results) : null);
  }

  function board(view) {
    const parts = [];
    const ch = view.challenge;
    if (ch) {
      for (const seat of [ch.challenger, ch.defender]) parts.push(sideBox(view, seat, ch.points[String(seat)], ch.turns_next === seat && !view.over));
    }
    const order = orderBox(view);
    if (order) parts.push(order);
    return el("section", { class: "wr-board", id: "wr-board" }, ...parts);
  }

  function markCards(root, cards) {
    const boxes = root.querySelectorAll(".card");
    cards.forEach((card, i) => {
      const box = boxes[i];
      if (!box) return;
      if (card.face_down) box.classList.add("wr-down");
      if (card.disabled) box.classList.add("wr-disabled");
      if (card.side) box.classList.add(`wr-${card.side}`);
      const sub = [card.place, card.how && card.how !== "laid" ? card.how : "", card.disabled ? "disabled" : ""].filter(Boolean).join(" · ");
      if (sub) box.append(el("div", { class: "sub", text: sub }));
    });
  }

  function decorateSeats(view, root) {
    for (const seat of view.seats || []) {
      const box = root.querySelector(`article.seat[data-seat="${seat.seat}"]`);
      if (!box) continue;
      markCards(box, seat.play || []);
      const discard = seat.discard_top ? [" · discard pile: ", el("b", { text: seat.discard_top.name }), " on top"] : [];
      box.querySelector(".counts")?.after(el("div", { class: "wr-decks" },
        "Warrior deck ", el("b", { text: seat.warrior_deck }), " · Armory deck ", el("b", { text: seat.armory_deck }),
        " · face down ", el("b", { text: seat.face_down }), ...discard));
      if (view.tray_for === seat.seat) box.querySelector("h2 span")?.append(" ", el("span", { class: "badge", text: "scans now" }));
    }
  }

  function render(view) {
    if (!view || view.game !== GAME) { document.getElementById("wr-board")?.remove(); return; }
    ensureStyle();
    document.getElementById("wr-board")?.remove();
    document.getElementById("game-actions").after(board(view));
    decorateSeats(view, document.getElementById("seats"));
  }

  function handCard(card) {
    return el("div", { class: `card wr-${card.side || "none"}${card.legal ? "" : " wr-illegal"}`, "data-card": card.key },
      el("div", { class: "name", text: card.name }),
      el("div", { class: "sub", text: card.kind === "warrior" ? `Warrior · ${card.points} pt · ${card.icons.join(", ") || "no icons"}`
        : `${card.icons.join(", ") || `${card.side} dot`}` }),
      el("div", { class: "sub", text: card.legal ? "can be laid now" : card.why }));
  }

  function renderSeat(view) {
    if (!view || view.game !== GAME || !view.you) return;
    ensureStyle();
    decorateSeats(view, document.getElementById("seat-view"));
    const you = view.you;
    const section = (title, cards, make) => el("section", { class: "panel wr-hand" }, el("h2", { text: title }),
      cards.length ? el("div", { class: "cards" }, ...cards.map(make)) : el("p", { class: "meta", text: "none" }));
    const simple = (c) => el("div", { class: "card wr-down", "data-card": c.key }, el("div", { class: "name", text: c.name }),
      c.position !== undefined ? el("div", { class: "sub", text: `secondary card ${c.position}` }) : null);
    document.getElementById("seat-view").append(
      section(`Your hand as scanned (${you.hand.length})`, you.hand, handCard),
      section("Your face-down cards", you.face_down, simple),
      you.prophecy.length ? section("Seen with Prophecy", you.prophecy, simple) : "");
  }

  window.companion.renderers.push(render);
  window.companion.seatRenderers.push(renderSeat);
})();
