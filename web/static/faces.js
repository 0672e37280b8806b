// Cards drawn as small faces from their catalog data (colour, shape, value, rank, unit...): a
// result shows the cards it was fought with as pictures beside its words. Only cards a public
// result already names are given a face (the server sends them with the result).
"use strict";

(() => {
  const SVG = "http://www.w3.org/2000/svg";
  // Card colours as printed, with ink chosen for at least 4.5:1 contrast on each.
  const FILLS = { gold: ["#e8b93a", "#111111"], black: ["#111111", "#f3f1ea"], red: ["#b3261e", "#ffffff"],
    blue: ["#1f4fa3", "#ffffff"], green: ["#1e6b34", "#ffffff"], white: ["#f3f1ea", "#111111"] };
  const PLAIN = ["#343a46", "#f3f1ea"];

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

  // The words a face stands for: "Noah, black diamond 1000".
  function faceWords(face) {
    const look = [face.color, face.shape, face.rank ?? face.value, face.unit].filter((x) => x !== undefined && x !== null);
    return look.length ? `${face.name}, ${look.join(" ")}` : face.name;
  }

  function cardFace(face) {
    const [fill, ink] = FILLS[String(face.color || "").toLowerCase()] || PLAIN;
    const words = faceWords(face);
    const svg = node("svg", { viewBox: "0 0 48 66", role: "img", "aria-label": words, class: "card-face" });
    svg.append(node("title", {}, words));
    svg.append(node("rect", { x: 1, y: 1, width: 46, height: 64, rx: 5, fill, stroke: "#a8adb8", "stroke-width": 1.5 }));
    const mark = shape(face.shape, ink);
    if (mark) svg.append(mark);
    const number = face.rank ?? face.value ?? (face.kind === "power" ? "★" : "");
    svg.append(node("text", { x: 24, y: mark ? 47 : 36, "text-anchor": "middle", fill: ink, "font-size": String(number).length > 3 ? 11 : 13,
      "font-weight": 700 }, String(number)));
    svg.append(node("text", { x: 24, y: 58, "text-anchor": "middle", fill: ink, "font-size": 8.5 },
      face.name.length > 9 ? `${face.name.slice(0, 8)}…` : face.name));
    return svg;
  }

  // A row of faces for the cards of a result, in the order the result lists them.
  function cardFaces(cardIds, faces) {
    const shown = (cardIds || []).filter((id) => faces && faces[id]);
    if (!shown.length) return null;
    return window.companion.el("div", { class: "card-faces" }, ...shown.map((id) => cardFace(faces[id])));
  }

  window.companion.cardFace = cardFace;
  window.companion.cardFaces = cardFaces;
})();
