// The New game page: the game, its players by name (as many seat rows as the game takes), and its
// options in the game's own words; an option that names a seat is chosen by the player's name.
"use strict";

(() => {
  const { el, post, notice } = window.companion;
  const $ = (sel) => document.querySelector(sel);

  function playerNames() {
    return [...$("#players").querySelectorAll("input")].map((input, i) => input.value.trim() || `Player ${i + 1}`);
  }

  function playerRow(n, name = "") {
    return el("label", { class: "player-row" }, el("span", { class: "seat-no", text: `Seat ${n}` }),
      el("input", { class: "player", value: name, placeholder: `Player ${n}`, autocomplete: "off", "aria-label": `Seat ${n}'s name` }));
  }

  // As many rows as the game takes: the rows typed so far, cut or filled to its smallest table.
  function fitSeats(game) {
    const players = $("#players");
    const want = Math.min(Math.max(players.children.length, game.min_seats), game.max_seats);
    while (players.children.length > want) players.lastElementChild.remove();
    while (players.children.length < want) players.append(playerRow(players.children.length + 1));
    $("#add-player").disabled = players.children.length >= game.max_seats;
    $("#remove-player").disabled = players.children.length <= game.min_seats;
    $("#game-seats").textContent = game.min_seats === game.max_seats ? `${game.title} is for ${game.min_seats} players.`
      : `${game.title} is for ${game.min_seats} to ${game.max_seats} players.`;
  }

  // A seat-naming option lists the players by name; redrawn as names are typed, keeping the choice.
  function seatChoices(select, option) {
    const chosen = select.value || String(option.default);
    const seats = option.choices ? option.choices.map(Number) : playerNames().map((_, i) => i + 1);
    const names = playerNames();
    select.replaceChildren(...seats.filter((n) => n <= names.length).map((n) =>
      el("option", { value: n, text: `${names[n - 1]} (seat ${n})`, selected: String(n) === chosen ? "" : null })));
  }

  function optionField(option) {
    let input;
    if (namesASeat(option)) {
      input = el("select", { name: option.name, "data-kind": "seat" });
      seatChoices(input, option);
    } else if (option.choices) {
      input = el("select", { name: option.name, "data-kind": "choice" }, ...option.choices.map((c, i) =>
        el("option", { value: i, text: capitalized(choiceLabel(option, c)), selected: c === option.default ? "" : null })));
    } else if (typeof option.default === "boolean") {
      input = el("input", { type: "checkbox", name: option.name, "data-kind": "bool", checked: option.default ? "" : null });
    } else {
      input = el("input", { type: "number", name: option.name, "data-kind": "number", value: option.default, min: 0, inputmode: "numeric" });
    }
    const inline = input.type === "checkbox";
    return el("label", { class: inline ? "option check" : "option" },
      inline ? input : null, el("span", { class: "option-label", text: option.label }), inline ? null : input,
      el("span", { class: "help", text: option.help }));
  }

  function readOptions(game) {
    const options = {};
    for (const option of game.options) {
      const input = $("#options").querySelector(`[name="${CSS.escape(option.name)}"]`);
      if (!input) continue;
      const kind = input.dataset.kind;
      options[option.name] = kind === "bool" ? input.checked : kind === "choice" ? option.choices[Number(input.value)] : Number(input.value);
    }
    return options;
  }

  async function setupPage() {
    const all = await games();
    const select = $("#game");
    select.replaceChildren(...all.map((g) => el("option", { value: g.game, text: g.title })));
    const current = () => all.find((g) => g.game === select.value);
    const redraw = () => {
      const game = current();
      fitSeats(game);
      $("#options").replaceChildren(...game.options.map(optionField));
    };
    const renameSeats = () => {
      for (const input of $("#options").querySelectorAll("select[data-kind=seat]")) {
        seatChoices(input, current().options.find((o) => o.name === input.name));
      }
    };
    // A rematch is one tap: the game in play and its players are offered first.
    const playing = (await (await fetch("/api/state")).json()).view;
    if (playing && all.some((g) => g.game === playing.game)) {
      select.value = playing.game;
      for (const seat of playing.seats || playing.standings || []) $("#players").append(playerRow(seat.seat, seat.name));
    }
    select.addEventListener("change", redraw);
    $("#players").addEventListener("input", renameSeats);
    $("#add-player").addEventListener("click", () => { $("#players").append(playerRow($("#players").children.length + 1)); fitSeats(current()); renameSeats(); });
    $("#remove-player").addEventListener("click", () => { $("#players").lastElementChild?.remove(); fitSeats(current()); renameSeats(); });
    redraw();
    // Chosen only now: a game picked while the page still loaded would be redrawn over (or lost).
    select.disabled = false;
    $("#setup-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const game = current();
      const reply = await post("/api/games", { game: game.game, players: playerNames(), options: readOptions(game) });
      if (reply.ok) { notice("Game started", "ok"); setTimeout(() => { location.href = "/"; }, 400); }
    });
  }

  companion.pages.setup = setupPage;
})();
