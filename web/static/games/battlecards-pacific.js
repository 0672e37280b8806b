// BATTLECARDS WWII Pacific on the table page and the phones (issue 15). app.js draws the prompt, the
// last outcome, the buttons and the seats; this draws the rest: the turn and the CONFLICT pile, the
// BATTLECARD in play with its phases and who fires, every shot with its Action Number and why it hit
// or missed, casualties and withdrawals, the VP race and the odds. A phone adds its Reserve Hand,
// stacks and Kept Cards. Every word comes from the view; this only lays it out.
"use strict";

(() => {
  const { el } = window.companion;
  const GAME = "battlecards-pacific";
  const TYPES = ["ground", "air", "sea"];
  const byId = (id) => document.getElementById(id);
  const pct = (p) => `${Math.round(p * 100)}%`;
  const seatName = (view, n) => ((view.seats || []).find((s) => s.seat === n) || { name: `Seat ${n}` }).name;
  const names = (view, seats) => (seats || []).map((n) => seatName(view, n)).join(" and ");
  const units = (n) => `${n} unit${n === 1 ? "" : "s"}`;
  const na = (v) => (v === null || v === undefined ? "N/A" : v);

  const STYLE = `
  .bp { display: grid; gap: 1rem; margin: 1rem 0; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); }
  .bp h2 { margin: 0 0 .5rem; font-size: 1.25rem; }
  .bp .race-row { display: grid; grid-template-columns: 8rem 1fr 4.5rem; align-items: center; gap: .5rem; margin: .3rem 0; }
  .bp .bar { height: 1.1rem; background: #2b303b; border-radius: 6px; overflow: hidden; position: relative; }
  .bp .bar span { display: block; height: 100%; background: var(--accent); }
  .bp .bar.japan span { background: #d9534f; } .bp .bar.us span { background: #4a90d9; }
  .bp .phases { display: flex; gap: .3rem; margin: .4rem 0; }
  .bp .phases span { padding: .2rem .55rem; border-radius: 6px; background: #2b303b; color: var(--muted); font-weight: 700; }
  .bp .phases span.now { background: var(--accent); color: #111; }
  .bp .armies { display: grid; grid-template-columns: 1fr 1fr; gap: .6rem; }
  .bp .unit { border-left: 6px solid #666; background: #2b303b; border-radius: 8px; padding: .3rem .5rem; margin: .25rem 0; }
  .bp .unit.fires { border-left-color: var(--accent); outline: 2px solid var(--accent); }
  .bp .unit.aimed { outline: 2px dashed #ffb4ae; }
  .bp .unit.destroyed { color: var(--muted); border-left-style: dashed; text-decoration: line-through; }
  .bp .unit.withdrawn { color: var(--muted); font-style: italic; }
  .bp .unit .vals { color: var(--muted); font-size: .85rem; }
  .bp .shot { padding: .25rem 0; border-bottom: 1px solid #333; }
  .bp .shot b.hit { color: #7ddc7d; } .bp .shot b.miss { color: #ffb4ae; }
  .bp .big-odds { font-size: 1.6rem; font-weight: 800; }
  .bp .meta, .bp .small { color: var(--muted); font-size: .9rem; }
  .bp ol, .bp ul { margin: .2rem 0; padding-left: 1.2rem; }
  .bp-hand .unit { display: inline-block; min-width: 9rem; margin: .25rem; }
  `;

  function ensureStyle() {
    if (byId("bp-style")) return;
    document.head.append(el("style", { id: "bp-style", text: STYLE }));
  }

  function race(view) {
    const target = view.vp_target;
    return el("section", { class: "panel bp-race" }, el("h2", { text: `Victory points (${target} to win)` }),
      ...view.seats.map((s) => el("div", { class: "race-row" },
        el("span", { text: `${s.name} (${s.side_name})` }),
        el("div", { class: `bar ${s.side}` }, el("span", { style: `width:${Math.min(100, (100 * s.vp) / target)}%` })),
        el("b", { text: `${s.vp} VP` }))),
      ...view.seats.filter((s) => s.won.length).map((s) => el("div", { class: "small",
        text: `${s.name} holds ${s.won.map((c) => `${c.name} (${c.vp})`).join(", ")}` })));
  }

  // With the Western European set combined each theatre has its own deck and pile: both are named, the
  // drawing player's first, the other one smaller.
  function pileLine(c, named, other) {
    const top = c.top ? `${c.top.name}, Action Number ${c.top.action}` : "empty";
    return el("div", { class: other ? "small bp-pile" : "bp-pile", "data-theatre": c.theatre,
      text: `${named ? `${c.theatre_name} ` : ""}CONFLICT deck: ${c.left} cards · discard pile: ${c.discard} (top: ${top})` });
  }

  function turnPanel(view) {
    const c = view.conflict;
    return el("section", { class: "panel bp-turn" },
      el("h2", { text: view.over ? "The war is over" : view.stage === "setup" ? "Setup" : `Turn ${view.turn_number}: ${seatName(view, view.turn)} draws` }),
      pileLine(c, (view.other_piles || []).length > 0),
      ...(view.other_piles || []).map((p) => pileLine(p, true, true)),
      view.pending ? el("div", { class: "big-odds", text: `${view.pending.name} · ${view.pending.vp} VP` }) : null,
      el("ol", { class: "bp-recent" }, ...(view.recent || []).slice(-6).map((r) => el("li", { text: r.say }))));
  }

  function unitBox(u, battle) {
    const classes = ["unit", u.status];
    if (battle.shooter === u.key) classes.push("fires");
    if (battle.aim === u.key) classes.push("aimed");
    const att = TYPES.map((t) => `${t[0].toUpperCase()}${na(u.attack[t])}`).join(" ");
    const def = TYPES.map((t) => `${t[0].toUpperCase()}${na(u.defense[t])}`).join(" ");
    return el("div", { class: classes.join(" "), "data-unit": u.key },
      el("div", {}, el("b", { text: u.name }), ` · ${u.type}${u.status !== "fighting" ? ` · ${u.status}` : ""}`),
      el("div", { class: "vals", text: `attack ${att} · defense ${def} · phases ${u.phases.join(", ") || "none"}` +
        (u.support ? ` · supports ${u.support.types.join("/")} +${u.support.attack || 0}/+${u.support.defense || 0}` : "") }));
  }

  function battlePanel(view) {
    const b = view.fight;
    if (!b) return null;
    const card = b.card;
    const phases = el("div", { class: "phases" }, ...[1, 2, 3, 4].map((p) => el("span", {
      class: view.stage === "combat" && b.phase === p ? "now" : "", text: `${p}` })),
    el("span", { class: view.stage === "withdrawal" ? "now" : "", text: "withdraw" }));
    const who = view.stage === "combat" ? `${names(view, b[b.firing === "aggressor" ? "aggressors" : "defenders"])} fire${b[b.firing === "aggressor" ? "aggressors" : "defenders"].length > 1 ? "" : "s"} (${b.firing})`
      : view.stage === "withdrawal" ? `${names(view, b[b.deciding === "aggressor" ? "aggressors" : "defenders"])} may withdraw` : "";
    const side = (s) => el("div", {}, el("h2", { text: `${s === "aggressor" ? "Aggressor" : "Defender"}: ${names(view, b[`${s}s`])}` }),
      ...b.units.filter((u) => u.side === s).map((u) => unitBox(u, b)));
    return el("section", { class: "panel bp-battle" },
      // A raid (combined sets, rule 6) fights with the forces the raider chose and wins no VP.
      // A liberation (rule 7) fights the card that eliminated the ally again.
      el("h2", { text: b.raid && b.raid.length ? `Raid after ${card.name} (no VP) · ${b.raid.join(", ")}`
        : `${card.name}${b.liberates ? ` fought again to liberate ${seatName(view, b.liberates)}` : ""} · ${card.vp} VP · ${(card.units || []).join(", ")}` }),
      el("div", { class: "small", text: `Round ${b.round || 1}. ${who}` }), phases,
      b.bonuses && b.bonuses.length ? el("div", { class: "small", text: `Kept Cards played this round: ${b.bonuses.map((c) => c.name).join(", ")}` }) : null,
      el("div", { class: "armies" }, side("aggressor"), side("defender")),
      ...["destroyed", "withdrawn"].map((status) => {
        const gone = b.units.filter((u) => u.status === status);
        return gone.length ? el("div", { class: "small", text: `${status === "destroyed" ? "Casualties" : "Withdrawn"}: ${gone.map((u) => `${u.name} (${seatName(view, u.seat)})`).join(", ")}` }) : null;
      }));
  }

  function oddsPanel(view, mine) {
    const o = view.odds;
    if (!o) return null;
    const b = view.fight;
    const aName = names(view, b.aggressors), dName = names(view, b.defenders);
    const how = o.method === "exact" ? "exact" : `simulated, ±${pct(o.error)}`;
    return el("section", { class: "panel bp-odds" }, el("h2", { text: mine ? "Odds (with what you know)" : "Odds" }),
      el("div", { class: "big-odds", text: `Fight on: ${aName} ${pct(o.aggressor)} · ${dName} ${pct(o.defender)}` }),
      el("div", { class: "small", text: `From the ${o.cards_left} CONFLICT cards no one has seen (${how}).` }),
      el("div", { class: "small", text: `Withdraw everything now: ${dName} wins ${o.withdraw.aggressor.vp} VP if ${aName} withdraws ` +
        `(keeping ${units(o.withdraw.aggressor.keeps)}); ${aName} wins if ${dName} withdraws (keeping ${units(o.withdraw.defender.keeps)}).` }),
      o.shots.length ? el("ul", {}, ...o.shots.map((s) => el("li", { class: s.aimed ? "aimed" : "",
        text: `at ${(b.units.find((u) => u.key === s.target) || {}).name}: hits on ${s.defense + 1}-${s.attack}` +
          ` (attack ${s.attack}${s.attack_bonus ? ` incl. +${s.attack_bonus}` : ""}, defense ${s.defense}${s.defense_bonus ? ` incl. +${s.defense_bonus}` : ""}):` +
          ` ${s.hits} of ${s.cards} cards, ${pct(s.chance)}` }))) : null);
  }

  function shotsPanel(view) {
    const b = view.fight;
    if (!b || !b.shots || !b.shots.length) return null;
    return el("section", { class: "panel bp-shots" }, el("h2", { text: "Shots" }),
      ...b.shots.slice().reverse().slice(0, 8).map((s) => el("div", { class: "shot" },
        el("b", { class: s.hit ? "hit" : "miss", text: s.hit ? "HIT " : "miss " }),
        `#${s.number} (round ${s.round}, phase ${s.phase}): ${s.unit_name} → ${s.target_name}, Action Number ${s.action}; ` +
        `attack ${s.attack}${s.attack_bonus ? ` (+${s.attack_bonus})` : ""}, defense ${s.defense}${s.defense_bonus ? ` (+${s.defense_bonus})` : ""}: ${s.why}`)));
  }

  function board(view, mine) {
    return el("div", { id: "bp-board", class: "bp" }, race(view), turnPanel(view), battlePanel(view), oddsPanel(view, mine), shotsPanel(view));
  }

  function render(view) {
    byId("bp-board")?.remove();
    if (!view || view.game !== GAME) return;
    ensureStyle();
    byId("seats").before(board(view, false));
  }

  function cards(title, list, empty) {
    return el("section", { class: "panel bp-hand" }, el("h2", { text: title }),
      list.length ? el("div", {}, ...list.map((c) => el("div", { class: "unit", "data-card": c.key },
        el("b", { text: c.name }),
        el("div", { class: "vals", text: c.kind === "unit"
          ? `${c.type} · attack ${TYPES.map((t) => na(c.attack[t])).join("/")} · defense ${TYPES.map((t) => na(c.defense[t])).join("/")} · phases ${c.phases.join(",") || "none"}`
          : `Action Number ${c.action}${c.text ? ` · ${c.text}` : ""}` })))) : el("p", { class: "meta", text: empty }));
  }

  function renderSeat(view) {
    byId("bp-seat")?.remove();
    if (!view || view.game !== GAME) return;
    ensureStyle();
    const stacks = TYPES.flatMap((t) => view.stacks[t]);
    const box = el("div", { id: "bp-seat", class: "bp" },
      cards("Your Reserve Hand", view.hand, view.seats.find((s) => s.seat === view.seat)?.handless ? "No hand: emergency-deployed until you replenish it." : "Empty."),
      cards("Your Kept Cards", view.kept, "None."),
      cards("Your deployed stacks (Ground, Air, Sea)", stacks, "Nothing deployed."),
      view.seen.length ? cards("What your intel showed you", view.seen, "") : null,
      oddsPanel(view, true), race(view));
    byId("seat-view").append(box);
  }

  window.companion.renderers.push(render);
  window.companion.seatRenderers.push(renderSeat);
})();
