// Book of Mormon "Battle" on the table page (issue 8): the Shorter Game's countdown, the Spy's
// Trivia clue view, and the "Helpful notes" (names large with their pronunciation, superscript
// numbers, plays read aloud). app.js draws the common table, then calls render(view) below.
//
// The timer and the two clocks. The referee has no clock: the view gives `started` (the start
// event's Unix time, from the companion's clock) and `timer.seconds`. The tablet's clock may be
// off from the companion's (a Raspberry Pi without network time can be hours off), so the page
// measures the difference once, from the HTTP `Date` header of one request to the companion
// (whole seconds, so within a second), and counts down on the companion's time:
//     remaining = started + seconds - (browser now + offset)
// Without a Date header it trusts the browser's clock. When the countdown reaches zero the page
// sends `time_up` once per game (needing the PIN); a game where time_up was undone is left alone.
"use strict";

(() => {
  const { el, command, notice } = window.companion;
  const GAME = "bom-battle";
  const SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹";
  const SETTLE_MS = 1000;  // a play must stay unchanged this long before it is read aloud

  const byId = (id) => document.getElementById(id);
  const seatName = (view, n) => ((view.seats || []).find((s) => s.seat === n) || { name: `Seat ${n}` }).name;
  const joinNames = (names) => (names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names.join(""));

  // -- names with superscript numbers (Coriantumr³) ----------------------------------------------
  // Shown as ASCII digits in <sup>, so they read the same in any font.
  function cardName(card) {
    const base = card.name_base || card.name || card.key || "?";
    return el("span", { class: "bom-name", title: card.name || "" }, base, card.name_index ? el("sup", { text: card.name_index }) : null);
  }

  function withSuperscripts(text) {
    return String(text).split(/([⁰¹²³⁴⁵⁶⁷⁸⁹]+)/).filter(Boolean).map((part) => (SUPERSCRIPTS.includes(part[0])
      ? el("sup", { text: [...part].map((c) => SUPERSCRIPTS.indexOf(c)).join("") }) : part));
  }

  function superscriptText(root) {
    if (!root) return;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const found = [];
    while (walker.nextNode()) if (/[⁰¹²³⁴⁵⁶⁷⁸⁹]/.test(walker.currentNode.nodeValue)) found.push(walker.currentNode);
    for (const node of found) node.replaceWith(...withSuperscripts(node.nodeValue));
  }

  // -- the companion's clock ---------------------------------------------------------------------
  const serverClock = {
    offset: 0,      // companion time - browser time, in ms
    ready: false,   // measured (or given up): until then the countdown shows nothing and sends nothing
    measuring: null,
    measure() {
      this.measuring ??= (async () => {
        try {
          const sent = Date.now();
          const response = await fetch("/api/state", { method: "HEAD", cache: "no-store" });
          const received = Date.now();
          const date = Date.parse(response.headers.get("Date") || "");
          // The header drops the milliseconds: add half a second, compare with the request's middle.
          if (!Number.isNaN(date)) this.offset = date + 500 - (sent + received) / 2;
        } catch (_) { /* offline: keep the browser's clock */ }
        this.ready = true;
      })();
      return this.measuring;
    },
    now() { return Date.now() + this.offset; },
  };

  // -- Rules for a Shorter Game: the countdown ---------------------------------------------------
  const timer = { view: null, box: null, sentFor: null, sending: false, triedPin: null, refusedPin: null, lastPin: null };
  let latestView = null;

  // A PIN typed, or this tablet's hold on the PIN (a session: the digits are not kept).
  function pinValue() { return (byId("pin")?.value || "").trim() || (document.body.dataset.pin === "held" ? "(held)" : ""); }

  function clockText(ms) {
    const seconds = Math.max(0, Math.ceil(ms / 1000));
    const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    return h ? `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}` : `${m}:${String(s).padStart(2, "0")}`;
  }

  function afterTheTimer(view) {
    if (view.over) {
      const winners = view.winners || [];  // every game's, from the contract (TableView)
      if (winners.length === 1) return `${seatName(view, winners[0])} wins!`;
      if (winners.length > 1) return `${joinNames(winners.map((n) => seatName(view, n)))} share the win.`;
      return "The game is over.";
    }
    if (view.phase === "tiebreak") {
      return `Tie! Last battle: ${joinNames(view.tiebreak.seats.map((n) => seatName(view, n)))}, one random CHARACTER card each.`;
    }
    if (view.phase === "mounting") return "Finish this mounting battle; then the most cards wins.";
    return "The most cards wins.";
  }

  function drawTimer() {
    const view = timer.view;
    if (!view || !timer.box || !serverClock.ready) return;
    const end = (view.started + view.timer.seconds) * 1000;
    const left = end - serverClock.now();
    let state, label, note;
    if (view.timer.time_up) {
      state = "up"; label = "Time is up"; note = afterTheTimer(view);
    } else if (view.over) {
      state = "over"; label = "Game over"; note = afterTheTimer(view);
    } else if (left <= 0) {
      state = "up"; label = "Time is up";
      const pin = pinValue();
      note = !pin ? "Type the PIN to end the game." : pin === timer.refusedPin ? "That PIN was refused: type the table PIN." : "Ending the game…";
    } else {
      state = left <= 60000 ? "low" : "running"; label = clockText(left); note = `Shorter Game: ${view.timer.minutes} min`;
    }
    timer.box.dataset.state = state;
    timer.box.querySelector(".bom-clock").textContent = label;
    timer.box.querySelector(".bom-timer-note").textContent = note;
    if (state === "up" && !view.timer.time_up && !view.over) timeIsUp(view);
  }

  // Sends time_up once per game. Without the PIN (or with a wrong one) it waits for a PIN that
  // has stayed the same for one tick, so a PIN being typed is not sent digit by digit.
  async function timeIsUp(view) {
    const pin = pinValue();
    const steady = pin === timer.lastPin;
    timer.lastPin = pin;
    if (timer.sentFor === view.game_id || timer.sending) return;
    if (!pin) {
      if (timer.triedPin !== "") notice("Time is up: type the PIN to end the game");
      timer.triedPin = "";
      return;
    }
    if (pin === timer.triedPin || !steady) return;
    timer.sending = true;
    timer.triedPin = pin;
    try {
      const reply = await command("time_up");
      // Applied, or refused by the referee (another tablet was first): either way, done.
      if (reply.ok) notice("Time is up!", "ok");
      if (reply.ok || reply.entry) timer.sentFor = view.game_id;
      else timer.refusedPin = pin;
    } catch (_) {
      timer.triedPin = null;  // the companion did not answer: try again on a later tick
    } finally {
      timer.sending = false;
    }
  }

  function renderTimer(view) {
    const head = byId("game-head");
    if (!view.timer) { timer.box?.remove(); timer.box = null; timer.view = null; return; }
    if (!timer.box || !timer.box.isConnected) {
      timer.box = el("div", { id: "bom-timer", class: "bom-timer", role: "timer" },
        el("div", { class: "bom-clock", text: "–:––" }), el("div", { class: "bom-timer-note", text: "Shorter Game" }));
      head.insertBefore(timer.box, head.querySelector(".actions"));
    }
    timer.view = view;
    serverClock.measure().then(drawTimer);
    drawTimer();
  }

  setInterval(drawTimer, 250);

  // -- Spy's Trivia: the clue view ---------------------------------------------------------------
  function lastCard(view) {
    const last = view.trivia.last;
    if (!last) return null;
    const how = last.kept_by_reader ? `Nobody knew: ${seatName(view, last.winner)}, the reader, keeps it.`
      : `${seatName(view, last.winner)} won it.`;
    return el("div", { class: "bom-last" },
      el("span", { class: "bom-label", text: "Last card" }),
      el("span", { class: "bom-last-name", "data-color": last.color || "" }, cardName(last)),
      last.pronunciation ? el("span", { class: "bom-pron", text: last.pronunciation }) : null,
      last.reference ? el("span", { class: "bom-ref", text: last.reference }) : null,
      el("span", { class: "bom-how", text: how }));
  }

  function cluePanel(view) {
    const trivia = view.trivia;
    const current = trivia.current;
    const reader = seatName(view, trivia.reader);
    const parts = [];
    if (current) {
      const shown = current.clues.length;
      parts.push(el("div", { class: "bom-clue-head" },
        el("span", { class: "bom-clue-count", text: `Clue ${shown} of ${current.clue_count}` }),
        el("span", { class: "meta", text: `${reader} reads · ${trivia.remaining} cards left to read` })));
      parts.push(el("p", { class: "bom-clue", "aria-live": "polite", text: current.clues[shown - 1] }));
      if (shown > 1) {
        parts.push(el("ol", { class: "bom-earlier" }, ...current.clues.slice(0, -1).map((c) => el("li", { text: c }))));
      }
      if (current.question) {  // after a tie, or asked of everyone "just to make the game more challenging"
        const who = current.tie?.length ? joinNames(current.tie.map((n) => seatName(view, n))) : "Everyone";
        parts.push(el("p", { class: "bom-question" }, el("b", { text: who }), ": ", current.question));
      }
    } else if (!view.over) {
      parts.push(el("p", { class: "bom-clue bom-waiting", text: `${reader} reads next: put the top card of your pile in the scan tray.` }));
    }
    const last = lastCard(view);
    if (last) parts.push(last);
    return el("section", { id: "bom-trivia", class: "bom-trivia" }, ...parts);
  }

  function renderTrivia(view) {
    byId("bom-trivia")?.remove();
    const clueView = view.trivia && (view.phase === "trivia" || (view.over && view.trivia.last));
    document.body.classList.toggle("bom-trivia-mode", Boolean(view.trivia) && view.phase === "trivia");
    if (!clueView) return;
    byId("game-actions").before(cluePanel(view));
    if (view.phase === "trivia") byId("prompt").hidden = true;  // the panel shows the clue itself
    if (view.last_outcome?.kind === "trivia") byId("result").hidden = true;  // the panel shows the last card
  }

  // The ruleset's buttons, drawn by app.js in the order of view.actions: tagged with their command
  // so the trivia buttons can be styled (a chooser has no data-kind of its own).
  function tagActions(view) {
    const children = byId("game-actions").children;
    (view.actions || []).forEach((action, i) => { if (children[i]) children[i].dataset.kind = action.kind; });
  }

  // In Spy's Trivia a seat holds no ARMY or BATTALION: it shows the cards it won and has left to
  // read, and who reads now.
  function triviaSeats(view) {
    if (!view.trivia || view.phase !== "trivia") return;
    for (const seat of view.seats || []) {
      const box = document.querySelector(`#seats .seat[data-seat="${seat.seat}"]`);
      if (!box) continue;
      box.querySelector(".counts")?.replaceChildren(el("span", {}, "won ", el("b", { text: seat.cards })),
        el("span", {}, "to read ", el("b", { text: seat.unread })));
      box.querySelector(".cards")?.remove();
      if (seat.seat === view.trivia.reader && !view.over) {
        box.classList.add("turn");
        box.querySelector("h2 span")?.append(" ", el("span", { class: "badge bom-reader", text: "reads" }));
      }
    }
  }

  // -- Helpful notes: names large, read aloud -----------------------------------------------------
  const speech = {
    available: "speechSynthesis" in window && typeof window.SpeechSynthesisUtterance === "function",
    on: localStorage.getItem("bomReadAloud") === "1",
    heard: new Set(),     // plays already read (or on the table before the page opened)
    pending: new Map(),   // seat -> {key, timeout, stage}: a play waiting to settle
    gameId: null,
    say(text, interrupt = false) {
      if (!this.available || !text) return;
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.lang = "en-US";
      utterance.rate = 0.95;
      utterance.onerror = (e) => {
        if (e.error === "not-allowed") notice("The browser blocked reading aloud: tap the page once and it will read.");
      };
      if (interrupt) window.speechSynthesis.cancel();
      window.speechSynthesis.speak(utterance);
    },
  };

  // A battle, a mounting round or the last battle after the timer: each has its own plays.
  const stageOf = (view) => [view.game_id, view.battle, view.phase, view.mount?.round ?? ""].join("|");
  const playKey = (view, seat) => `${stageOf(view)}|${seat.seat}|${seat.announce.speak}`;

  // Each play is read once, when it has stayed the same for SETTLE_MS (a Battle card's
  // CHARACTER cards arrive one by one); a play taken back is not read, one resolved meanwhile is.
  function readNewPlays(view) {
    if (speech.gameId !== view.game_id) {
      for (const pending of speech.pending.values()) clearTimeout(pending.timeout);
      speech.pending.clear();
      speech.gameId = view.game_id;
      primeHeard(view);
      return;
    }
    for (const seat of view.seats || []) {
      const waiting = speech.pending.get(seat.seat);
      if (!seat.announce) {
        if (waiting && waiting.stage === stageOf(view)) { clearTimeout(waiting.timeout); speech.pending.delete(seat.seat); }
        continue;
      }
      const key = playKey(view, seat);
      if (speech.heard.has(key) || waiting?.key === key) continue;
      if (waiting) clearTimeout(waiting.timeout);
      const text = seat.announce.speak;
      const timeout = setTimeout(() => {
        speech.pending.delete(seat.seat);
        speech.heard.add(key);
        if (speech.on) speech.say(text);
      }, SETTLE_MS);
      speech.pending.set(seat.seat, { key, timeout, stage: stageOf(view) });
    }
  }

  function primeHeard(view) {
    for (const seat of view.seats || []) if (seat.announce) speech.heard.add(playKey(view, seat));
  }

  function speakerIcon() {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    const path = document.createElementNS(ns, "path");
    path.setAttribute("d", "M4 9h4l5-4v14l-5-4H4z M16 8.5a5 5 0 0 1 0 7 M18.5 6a8.5 8.5 0 0 1 0 12");
    svg.append(path);
    return svg;
  }

  function readAloudToggle() {
    let button = byId("bom-read-aloud");
    if (!speech.available) { button?.remove(); return; }
    if (!button) {
      button = el("button", { id: "bom-read-aloud", class: "bom-toggle", type: "button" }, speakerIcon(), el("span"));
      button.addEventListener("click", () => {
        speech.on = !speech.on;
        localStorage.setItem("bomReadAloud", speech.on ? "1" : "0");
        if (speech.on) primeHeard(latestView);  // read from the next play on, not the ones already down
        else window.speechSynthesis.cancel();
        showToggle(button);
      });
      byId("game-head").querySelector(".actions").prepend(button);
    }
    showToggle(button);
  }

  function showToggle(button) {
    button.setAttribute("aria-pressed", speech.on ? "true" : "false");
    button.querySelector("span").textContent = speech.on ? "Read aloud: on" : "Read aloud: off";
  }

  // app.js draws each card as name, pronunciation, suit; here the name keeps its superscript as
  // <sup> and the pronunciation gets its own line, large enough to read out.
  function decorateSeats(view) {
    for (const seat of view.seats || []) {
      const box = document.querySelector(`#seats .seat[data-seat="${seat.seat}"]`);
      if (!box) continue;
      for (const card of seat.play || []) {
        const cardBox = box.querySelector(`.card[data-card="${CSS.escape(card.key)}"]`);
        if (!cardBox) continue;
        cardBox.querySelector(".name")?.replaceChildren(cardName(card));
        if (card.pronunciation) cardBox.querySelector(".sub")?.classList.add("bom-pron");
      }
      const line = box.querySelector(".say-line");
      if (line && seat.announce) {
        const speak = el("button", { class: "bom-speak", type: "button", title: "Read aloud", "aria-label": `Read ${seat.name}'s play aloud` }, speakerIcon());
        speak.addEventListener("click", () => speech.say(seat.announce.speak, true));
        line.replaceChildren(el("span", {}, "“", ...withSuperscripts(seat.announce.text), "”"), speech.available ? speak : null);
      }
    }
  }

  // -- the table page ----------------------------------------------------------------------------
  function render(view) {
    const ours = view && view.game === GAME;
    document.body.classList.toggle("bom-game", Boolean(ours));
    if (!ours) {
      for (const id of ["bom-timer", "bom-trivia", "bom-read-aloud"]) byId(id)?.remove();
      timer.box = null; timer.view = null;
      document.body.classList.remove("bom-trivia-mode");
      return;
    }
    latestView = view;
    renderTimer(view);
    renderTrivia(view);
    tagActions(view);
    decorateSeats(view);
    triviaSeats(view);
    readAloudToggle();
    readNewPlays(view);
    superscriptText(byId("result"));
    superscriptText(byId("prompt"));
  }

  window.companion.renderers.push(render);
})();
