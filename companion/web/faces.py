"""Which cards a result names, and each one's small face from the catalog (web/static/faces.js).

A face is drawn from the catalog's printed attributes (colour, shape, value, rank, side, unit and
its numbers), never from the state: it is given only for a card a view already names (a public
result, or the seat's own view on its phone), so a face tells nothing the words did not.

A result names its cards the way its game's outcome data does: a list of cards (Book of Mormon's
``cards``), card keys anywhere in its data (BATTLECARDS' unit, target and card, Warriors'
captured cards), or a rank played by a seat (Stratego's attacker and defender, Gather
Together's "a pair of 5s"), whose face is the catalog's card of that rank (of the seat's colour).
"""
from __future__ import annotations

from typing import Any, Iterator

# What a face is drawn from: the catalog's printed attributes (no text, no description).
FACE_ATTRS = ("value", "color", "colour", "shape", "rank", "side", "team", "points", "icons", "unit_type", "action", "vp",
              "attack_ground", "attack_air", "attack_sea", "defense_ground", "defense_air", "defense_sea")
MOST_FACES = 12   # a result's row of faces: beyond this the words say it (a surrender of a whole hand)


def face(card: Any) -> dict[str, Any]:
    """The face of a catalog card: its name and kind and its printed attributes."""
    return {"name": card.name, "kind": card.kind, **{k: card.attrs[k] for k in FACE_ATTRS if k in card.attrs}}


def _card(catalog: Any, key: Any) -> Any:
    """The catalog card of a card key ("BD5000#1"), or None for anything else."""
    if not isinstance(key, str) or "#" not in key:
        return None
    return catalog.cards.get(key.split("#")[0])


def _walk(data: Any) -> Iterator[Any]:
    """Every value in nested outcome data, depth first, a "cards" list before anything else."""
    if isinstance(data, dict):
        for key in sorted(data, key=lambda k: k != "cards"):
            yield data[key]
            yield from _walk(data[key])
    elif isinstance(data, list):
        for item in data:
            yield item
            yield from _walk(item)


def _of_rank(catalog: Any, named: dict[str, Any], colours: dict[int, str]) -> list[Any]:
    """A seat's play told by rank ({"seat": 2, "rank": "7"}, with a "count"): its catalog card."""
    colour = colours.get(named.get("seat")) if isinstance(named.get("seat"), int) else None
    for card in catalog.cards.values():
        if str(card.attrs.get("rank")) != str(named["rank"]):
            continue
        if colour is not None and card.attrs.get("colour") not in (None, colour):
            continue
        count = named.get("count")
        return [card] * (count if isinstance(count, int) and 0 < count <= MOST_FACES else 1)
    return []


def _rank_play(value: Any) -> bool:
    """A seat's play told by its rank alone ({"seat": 2, "rank": "7"}): a rank kept hidden is None
    (Stratego's defender that need not reveal), and has no face."""
    return (isinstance(value, dict) and isinstance(value.get("seat"), int) and value.get("rank") is not None
            and "key" not in value and not any(isinstance(v, str) and "#" in v for v in value.values()))


def named_cards(data: Any, catalog: Any, colours: dict[int, str] | None = None) -> list[tuple[str, Any]]:
    """The cards an outcome's data names, in order, each once: (key, catalog card)."""
    found: list[tuple[str, Any]] = []
    seen: set[str] = set()
    values = [data, *_walk(data)]
    if isinstance(data, dict) and isinstance(data.get("cards"), list):
        values = list(data["cards"])  # a result that lists its cards names them all, in its order
    for value in values:
        if _rank_play(value):
            cards = [(f"{value['rank']}@{value.get('seat')}#{n}", c) for n, c in enumerate(_of_rank(catalog, value, colours or {}))]
        else:
            card = _card(catalog, value)
            cards = [(value, card)] if card is not None else []
        for key, card in cards:
            if key not in seen:
                seen.add(key)
                found.append((key, card))
    return found[:MOST_FACES]


def seat_colours(view: dict[str, Any] | None) -> dict[int, str]:
    """Each seat's colour where a game gives one (Stratego's red and blue): a piece's face by rank."""
    seats = (view or {}).get("standings") or (view or {}).get("seats") or []
    return {s["seat"]: s["colour"] for s in seats if isinstance(s, dict) and isinstance(s.get("colour"), str)}


def entry_faces(entry: dict[str, Any], catalog: Any, colours: dict[int, str]) -> list[dict[str, Any]]:
    """The faces of the cards a public log entry's results name (none for one refused or undone)."""
    if catalog is None or entry.get("status") != "applied":
        return []
    faces: list[dict[str, Any]] = []
    for outcome in entry.get("outcomes") or []:
        if outcome.get("kind") == "undo":
            continue
        faces += [{"key": key, **face(card)} for key, card in named_cards(outcome.get("data"), catalog, colours)]
    keys = set()
    unique = []
    for f in faces:
        if f["key"] not in keys:
            keys.add(f["key"])
            unique.append(f)
    return unique[:MOST_FACES]


def told(entry: dict[str, Any], say: str) -> bool:
    """Whether an applied entry's results said (a part of) the result sentence ``say``: a view may
    join an entry's sentences into one ("Ben plays a single 5. Cal to play.")."""
    return entry.get("status") == "applied" and any(
        o.get("say") and o.get("kind") != "undo" and o["say"] in say for o in entry.get("outcomes") or [])


def saying(entry: dict[str, Any], say: str) -> dict[str, Any]:
    """The entry with only the outcomes the shown sentence tells: a tap's entry may hold a result
    and the next turn ("Bill does not fight Bismarck Sea." then "Turn 11: ..."), and a box that
    says only the turn shows no card of the battle declined."""
    return {**entry, "outcomes": [o for o in entry.get("outcomes") or [] if o.get("say") and o["say"] in say]}


class ResultFaces:
    """The faces of the result the table shows now (the view's ``last_outcome``): those of the
    latest log entry whose results said it. Kept from one change to the next, so that a change
    which says nothing new (a card laid for the next battle) costs nothing and keeps the faces of
    the result still shown. Used by one thread at a time (a stream's, or under its lock)."""

    LOOK_BACK = 200   # entries searched for the one that said the result (a page opened mid-game)

    def __init__(self) -> None:
        self._session: Any = None
        self._say: str | None = None
        self._faces: list[dict[str, Any]] = []

    def of(self, session: Any, view: dict[str, Any] | None, entry: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """The faces of ``view``'s result; ``entry`` is the change that brought the view, if known."""
        say = ((view or {}).get("last_outcome") or {}).get("say")
        if session is None or not say:
            return []
        if session is not self._session or say != self._say:
            found = entry if entry is not None and told(entry, say) else self._find(session, say)
            self._session, self._say = session, say
            catalog = getattr(session.ruleset, "catalog", None)
            self._faces = entry_faces(saying(found, say), catalog, seat_colours(view)) if found is not None else []
        return self._faces

    def _find(self, session: Any, say: str) -> dict[str, Any] | None:
        # Results are outcomes, which the log keeps as every watcher may see them (only an
        # input's own data is redacted), so the entries' outcomes are read as they are.
        for e in reversed(session.derived.entries[-self.LOOK_BACK:]):
            entry = {"status": e.status, "outcomes": e.outcomes}
            if told(entry, say):
                return entry
        return None


def seat_faces(seat_view: dict[str, Any], public: dict[str, Any], catalog: Any) -> list[dict[str, Any]]:
    """The faces of the cards a seat's own view names and the table's does not (its hand, its
    kept cards, its identity): for its phone alone, drawn only while its player reveals them."""
    if catalog is None:
        return []
    shown = {v for v in _walk(public) if isinstance(v, str)}
    faces, seen = [], set()
    for value in _walk(seat_view):
        card = _card(catalog, value)
        if card is not None and value not in shown and value not in seen:
            seen.add(value)
            faces.append({"key": value, **face(card)})
    return faces
