// The History page: the game as a list of its battles, combats or turns with their results, each
// with the camera sightings that led to it folded under it; and every earlier game of the table,
// viewable (its public view) and exportable with the PIN.
"use strict";

(() => {
  const { el, command, notice } = window.companion;
  const $ = (sel) => document.querySelector(sel);
  const SIGHTINGS = new Set(["card_seen", "card_gone"]);
  const NUMBERED = ["battle", "combat", "round", "turn", "fight"];

  function describeEntry(e) {
    const d = e.data || {};
    if (e.kind === "start") return `New game: ${(d.seats || []).map((s) => s.name).join(", ")}`;
    const card = d.card ? (e.card_name ? `${e.card_name} (${d.card})` : d.card) : "a hidden card";
    const zone = worded((d.zone || "").replace(":", " "));
    if (e.kind === "card_seen") return `${card} seen in ${zone}`;
    if (e.kind === "card_gone") return `${card} gone from ${zone}`;
    const rest = Object.entries(d).map(([k, v]) => `${worded(k)} ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
    return `${capitalized(worded(e.kind))}${rest ? ` (${rest})` : ""}`;
  }

  // "Battle 3", "Combat 12", "Game over": the outcome's own number where it carries one, else a count.
  function outcomeTitle(outcome, counters) {
    const kind = outcome.kind || "result";
    const data = outcome.data || {};
    if (!NUMBERED.includes(kind)) return capitalized(worded(kind));
    counters[kind] = (counters[kind] || 0) + 1;
    return `${capitalized(kind)} ${data[kind] ?? data.n ?? data.number ?? counters[kind]}`;
  }

  // The log in chapters: every command or result is a chapter; sightings wait for the next one.
  function chapters(entries) {
    const out = [];
    const counters = {};
    let waiting = [];
    for (const e of entries) {
      const results = e.outcomes || [];
      if (SIGHTINGS.has(e.kind) && !results.length && e.status !== "refused") { waiting.push(e); continue; }
      const titled = results.filter((o) => o.kind !== "undo");
      out.push({
        entry: e, sightings: waiting,
        title: titled.length ? titled.map((o) => outcomeTitle(o, counters)).join(", ") : describeEntry(e),
        faces: e.faces || [],  // the cards its results name, as the server drew them from the catalog
        say: e.status === "refused" ? `Not accepted: ${e.reason}` : e.status === "undone" ? "undone" :
          results.map((o) => o.say).filter(Boolean).join(" "),
      });
      waiting = [];
    }
    if (waiting.length) out.push({ entry: null, faces: [], sightings: waiting, title: "On the table now", say: "not resolved yet" });
    return out;
  }

  function sightingList(sightings) {
    if (!sightings.length) return null;
    const refused = sightings.filter((s) => s.status === "refused").length;
    return el("details", { class: "sightings" },
      el("summary", { text: `${sightings.length} camera or reader sighting${sightings.length === 1 ? "" : "s"}` +
        (refused ? `, ${refused} not accepted` : "") }),
      el("ul", {}, ...sightings.map((s) => el("li", { class: s.status },
        el("span", { class: "seq", text: `#${s.seq}` }), " ", describeEntry(s), ` (${s.source})`,
        s.status === "refused" ? el("span", { class: "refused-why", text: `: ${s.reason}` }) : null))));
  }

  function chapterItem(chapter) {
    const e = chapter.entry;
    return el("li", { class: `chapter ${e ? e.status : "open"}`, "data-kind": e ? e.kind : "" },
      el("div", { class: "chapter-head" }, el("b", { class: "chapter-title", text: chapter.title }),
        e ? el("span", { class: "seq", text: `#${e.seq} · ${e.source}` }) : null),
      chapter.say ? el("p", { class: "chapter-say", text: chapter.say }) : null,
      companion.faceRow(chapter.faces, `the cards of ${chapter.title}`),
      sightingList(chapter.sightings));
  }

  function summary(view) {
    if (!view) return "";
    const seats = view.seats || view.standings || [];
    const parts = [seats.map((s) => s.name).join(", ")];
    if (view.over) {
      const winners = view.winners || [];  // every game's, from the contract (TableView)
      const names = winners.map((n) => (seats.find((s) => s.seat === n) || {}).name || `seat ${n}`);
      parts.push(names.length ? `won by ${names.join(" and ")}` : "over");
    } else parts.push("not finished");
    return parts.join(" · ");
  }

  async function exportLog(gameId) {
    const response = await pinnedFetch(`/api/history/${gameId}/export.jsonl`);
    if (!response.ok) {
      const reply = await response.json().catch(() => ({}));
      notice(reply.error || `the export was refused (HTTP ${response.status})`);
      return;
    }
    const link = el("a", { href: URL.createObjectURL(await response.blob()), download: `game-${gameId}.jsonl` });
    document.body.append(link);
    link.click();
    link.remove();
  }

  function pastItem(game, shown) {
    const when = new Date(game.started * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
    return el("li", { class: game.id === shown ? "on" : "" },
      el("a", { href: game.in_play ? "/history" : `/history?game=${game.id}`, text: `${game.title} #${game.id}` }),
      el("span", { class: "meta", text: ` ${when} · ${game.players.join(", ")}${game.in_play ? " · in play" : ""}` }));
  }

  async function historyPage() {
    const asked = Number(new URLSearchParams(location.search).get("game")) || null;
    let shown = asked;
    let inPlay = null;
    // The list of games changes only when a game starts; the shown game's log on every event.
    const refreshList = async () => {
      const list = await (await fetch("/api/history/games")).json();
      inPlay = list.games.find((g) => g.in_play) || null;
      shown = asked || (inPlay && inPlay.id) || null;
      $("#past-games").replaceChildren(...list.games.map((g) => pastItem(g, shown)));
      $("#undo").hidden = !inPlay || shown !== inPlay.id;  // only the game in play takes an undo
      $("#export").hidden = !shown;
    };
    const refreshLog = async () => {
      if (!shown) {
        $("#history-title").textContent = "Game history";
        $("#history-summary").textContent = "No game has been played at this table yet.";
        $("#history-list").replaceChildren();
        return;
      }
      const response = await fetch(`/api/history/${shown}`);
      const reply = await response.json();
      if (!reply.ok) { $("#history-list").replaceChildren(el("li", { class: "problem", text: reply.error })); return; }
      $("#history-title").textContent = `${reply.view.title} #${shown}${reply.in_play ? "" : " (earlier game)"}`;
      $("#history-summary").textContent = summary(reply.view);
      // An earlier game ends with its standings, as its table showed them (its public view).
      $("#history-seats").hidden = reply.in_play;
      $("#history-seats").replaceChildren(...(reply.in_play ? [] : (reply.view.seats || reply.view.standings || [])
        .map((s) => seatBox(s, reply.view))));
      $("#history-chart").hidden = !reply.chart;  // a finished game: how it went, as a picture
      $("#history-chart").replaceChildren(...(reply.chart ? [companion.gameChart(reply.chart)] : []));
      $("#history-list").replaceChildren(...chapters(reply.entries).reverse().map(chapterItem));
    };
    const refreshAll = async () => { await refreshList(); await refreshLog(); };
    // The buttons listen before the page fetches anything: a tap while the log loads is not lost.
    $("#undo").addEventListener("click", async () => { const r = await command("undo"); if (r.ok) notice("Undone", "ok"); });
    $("#export").addEventListener("click", () => shown && exportLog(shown));
    await refreshAll();
    if (!asked) stream({ view: (msg) => (msg.new_game ? refreshAll() : refreshLog()) }, refreshAll);
  }

  companion.pages.history = historyPage;
})();
