// Cards drawn as small faces from their catalog data (colour, shape, value, rank, side, unit and
// its numbers): a result shows the cards it was fought with as pictures beside its words, on the
// table page, on a seat's phone and in History. The server sends a face only for a card the view
// already names (companion/web/faces.py), so a picture never shows a card the viewer may not see.
"use strict";

(() => {
  const SVG = "http://www.w3.org/2000/svg";
  // Card colours as printed (a side's colour where the card has a side), with ink chosen for at
  // least 4.5:1 contrast on each.
  const FILLS = { gold: ["#e8b93a", "#111111"], black: ["#111111", "#f3f1ea"], red: ["#b3261e", "#ffffff"],
    blue: ["#1f4fa3", "#ffffff"], green: ["#1e6b34", "#ffffff"], white: ["#f3f1ea", "#111111"],
    us: ["#1f4fa3", "#ffffff"], japan: ["#f3f1ea", "#111111"], righteous: ["#f3f1ea", "#111111"], wicked: ["#111111", "#f3f1ea"],
    superhero: ["#1f4fa3", "#ffffff"], villain: ["#111111", "#f3f1ea"] };
  const KIND_FILLS = { action: FILLS.green, battle: FILLS.red, power: ["#4b2a7b", "#ffffff"] };
  const PLAIN = ["#343a46", "#f3f1ea"];
  const UNIT_TYPES = ["ground", "air", "sea"];

  function node(name, attrs = {}, text = null) {
    const n = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    if (text !== null) n.textContent = text;
    return n;
  }

  function shape(kind, ink) {
    if (kind === "oval") return node("ellipse", { cx: 24, cy: 22, rx: 12, ry: 8, fill: "none", stroke: ink, "stroke-width": 2 });
    if (kind === "diamond") return node("polygon", { points: "24,12 36,22 24,32 12,22", fill: "none", stroke: ink, "stroke-width": 2 });
    return null;
  }

  const isUnit = (face) => face.unit_type !== undefined;
  const numbers = (face, what) => UNIT_TYPES.map((t) => face[`${what}_${t}`] ?? "–").join("/");
  // The big figure of a card: its rank or value, its points, or its action number.
  const figure = (face) => face.rank === "unit" ? null : face.rank ?? face.value ?? face.points ?? face.action ?? null;
  const fillOf = (face) => FILLS[String(face.color || face.colour || face.side || face.team || "").toLowerCase()] || KIND_FILLS[face.kind] || PLAIN;

  // The words a face stands for: "Noah, black diamond 1000"; "IJN Yamato, japan sea unit, attack 2/4/8, defense 3/5/9".
  function faceWords(face) {
    if (isUnit(face)) {
      return `${face.name}, ${[face.side, face.unit_type, "unit"].filter(Boolean).join(" ")}, attack ${numbers(face, "attack")}, ` +
        `defense ${numbers(face, "defense")}`;
    }
    const said = String(face.name).toLowerCase();  // a word the name already says is not said twice ("VILLAIN")
    const look = [face.color || face.colour || face.side || face.team, face.shape, figure(face)]
      .filter((x) => x !== undefined && x !== null && !said.includes(String(x).toLowerCase()));
    return look.length ? `${face.name}, ${look.join(" ")}` : face.name;
  }

  function label(text, y, ink, size = 8.5, weight = 400) {
    return node("text", { x: 24, y, "text-anchor": "middle", fill: ink, "font-size": size, "font-weight": weight }, text);
  }

  function cardFace(face) {
    const [fill, ink] = fillOf(face);
    const words = faceWords(face);
    const svg = node("svg", { viewBox: "0 0 48 66", role: "img", "aria-label": words, class: "card-face", "data-card": face.key || "" });
    svg.append(node("title", {}, words));
    svg.append(node("rect", { x: 1, y: 1, width: 46, height: 64, rx: 5, fill, stroke: "#a8adb8", "stroke-width": 1.5 }));
    if (isUnit(face)) {  // a unit: its type, and its attack and defense against ground/air/sea
      svg.append(label(face.unit_type.toUpperCase(), 14, ink, 8.5, 700));
      svg.append(label(`A ${numbers(face, "attack")}`, 28, ink, 8, 700));
      svg.append(label(`D ${numbers(face, "defense")}`, 39, ink, 8, 700));
    } else {
      const mark = shape(face.shape, ink);
      if (mark) svg.append(mark);
      const number = figure(face) ?? (face.kind === "power" ? "★" : "");
      svg.append(label(String(number), mark ? 47 : 36, ink, String(number).length > 3 ? 11 : 13, 700));
    }
    svg.append(label(face.name.length > 9 ? `${face.name.slice(0, 8)}…` : face.name, 58, ink));
    return svg;
  }

  // A row of faces, in the order given; null for none.
  function faceRow(faces, label) {
    const shown = (faces || []).filter(Boolean);
    if (!shown.length) return null;
    return window.companion.el("div", { class: "card-faces", role: "group", "aria-label": label || "the cards" }, ...shown.map(cardFace));
  }

  window.companion.cardFace = cardFace;
  window.companion.faceRow = faceRow;
})();
