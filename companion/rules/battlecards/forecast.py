"""The odds the table sees, from the state: the pool of CONFLICT cards nobody has seen face up (the
public odds), or that pool less a seat's own Kept Cards (that seat's phone). Never a face-down stack,
a Reserve Hand or another seat's Kept Card."""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from dataclasses import fields
from typing import Any, TypedDict

from ..base import Outcome
from . import battle as battle_rules, combat, odds
from .cards import Deck
from .state import Battle, PacificState, Stage

TYPES = ("ground", "air", "sea")


class ShotOdds(TypedDict):
    """The firing unit's chance against one legal target: the Attack and Defense (bonuses included, and
    the bonuses apart), the cards that would hit (``hits``) of those the table cannot rule out
    (``cards``), the chance as a number and exactly (``exact``: "7/20"), and whether it is the unit aimed at."""

    unit: str
    target: str
    attack: int
    defense: int
    attack_bonus: int
    defense_bonus: int
    hits: int
    cards: int
    chance: float
    exact: str
    aimed: bool


class WithdrawOdds(TypedDict):
    """What one side's withdrawing everything now would give: the other side wins (``winner``) the
    BATTLECARD's ``vp``, and the withdrawing side keeps ``keeps`` units."""

    winner: str
    vp: int
    keeps: int


class OddsSummary(TypedDict):
    """A battle's odds: the chance each side wins if both fight on, counted exactly or simulated
    (``method``, with its ``error``), over the CONFLICT cards left (``cards_left``), the cards no one has
    seen face up (``unseen``) and how many of those are Kept Cards held face down (``held``)."""

    aggressor: float
    defender: float
    method: str
    error: float
    cards_left: int
    unseen: int
    held: int


class OddsJSON(OddsSummary):
    """The odds the tablet shows (``odds`` of the views): the battle's, each legal target's, and what
    withdrawing would give each side (by side: ``aggressor``, ``defender``)."""

    shots: list[ShotOdds]
    withdraw: dict[str, WithdrawOdds]


class BeforeShot(TypedDict):
    """The public odds just before a card is turned for a shot: the battle's, and each target's by its key."""

    battle: OddsSummary
    targets: dict[str, ShotOdds]
FORECASTS_KEPT = 32     # the forecasts memoised: the public one and each seat's, for the last few states of a battle


def cards(deck: Deck, state: PacificState, theatre: str, seat: int | None = None) -> odds.Cards:
    """What the table can know of the CONFLICT deck: the cards no one has seen face up since its last shuffle
    (less the seat's own Kept Cards, which it knows are not there), how many of them are Kept Cards held face
    down (each a "Keep this card" card), and the discard pile the next deck is reshuffled from."""
    unseen = list(state.conflict_pool[theatre])
    if seat is not None:
        unseen = [k for k in unseen if k not in state.armies[seat].kept]
    hidden = max(0, len(unseen) - state.conflict_left[theatre])
    keepable = [k for k in unseen if deck.card(k).kind == "keep"]
    return odds.Cards(odds.counts(deck.action(k) for k in unseen), hidden,
                      odds.counts(deck.action(k) for k in keepable),
                      odds.counts(deck.action(k) for k in state.conflict_discard[theatre]))


def fighter(deck: Deck, battle: Battle, key: str) -> odds.Fighter:
    c = deck.card(key)
    return odds.Fighter(key, battle.side_of(battle.owner[key]), c["unit_type"],
                        tuple((t, c.get(f"attack_{t}")) for t in TYPES), tuple((t, c.get(f"defense_{t}")) for t in TYPES),
                        tuple(c["phases"]), deck.support_attack(key), deck.support_defense(key),
                        tuple(c.get("supports", [])), combat.kept_bonus(deck, battle, key, "attack"),
                        combat.kept_bonus(deck, battle, key, "defense"))


def battle_forecast(deck: Deck, state: PacificState, seat: int | None = None) -> OddsJSON | None:
    """The battle's odds and each legal target's chance, as the public (or one seat) can know them. Memoised on
    what it reads (``asked``): the tablet, every phone, every aim button and the outcomes ask it of one state
    many times (a demo game: over a thousand questions for a few hundred states), and a seat holding no Kept
    Card of this deck asks the public's question."""
    battle = state.battle
    if battle is None or state.stage not in (Stage.COMBAT, Stage.WITHDRAWAL):
        return None
    key = asked(deck, state, battle, seat)
    with _FORECASTS_LOCK:       # the server's threads share the memo
        found = _FORECASTS.get(key)
        if found is not None:
            _FORECASTS.move_to_end(key)
    if found is None:
        found = _forecast(deck, state, battle, seat)
        with _FORECASTS_LOCK:
            _FORECASTS[key] = found
            while len(_FORECASTS) > FORECASTS_KEPT:
                _FORECASTS.popitem(last=False)
    # A copy each time: a caller may add to what it is given, and the memo must stay as it was worked out.
    return {**found, "shots": [s.copy() for s in found["shots"]],
            "withdraw": {side: w.copy() for side, w in found["withdraw"].items()}}


_FORECASTS: OrderedDict[tuple[Hashable, ...], OddsJSON] = OrderedDict()
_FORECASTS_LOCK = threading.Lock()


def asked(deck: Deck, state: PacificState, battle: Battle, seat: int | None) -> tuple[Hashable, ...]:
    """Everything a forecast reads, as a key: the deck (itself, so a game's custom deck is never mistaken for
    another), the stage, the theatre's CONFLICT cards unseen, left and on the pile, the Kept Cards of the seat
    asking that are among the unseen (the only secret it reads), and every field of the battle but the record
    of its shots (fields added later are in the key without anyone listing them)."""
    theatre = deck.theatre(battle.card)
    pool = state.conflict_pool[theatre]
    own = () if seat is None else tuple(sorted(k for k in state.armies[seat].kept if k in pool))
    fought = tuple(_frozen(getattr(battle, f.name)) for f in fields(battle) if f.name != "shots")
    return (deck, state.stage, theatre, tuple(pool), state.conflict_left[theatre],
            tuple(state.conflict_discard[theatre]), own, fought)


def _frozen(value: object) -> Hashable:
    """A field of the battle as a key: its lists as tuples, its dicts as their sorted items."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    assert isinstance(value, Hashable), "a battle's fields are strings, numbers, lists and dicts of them"
    return value


def forget() -> None:
    """Forget the memoised forecasts (the benchmark times them asked afresh)."""
    with _FORECASTS_LOCK:
        _FORECASTS.clear()


def _forecast(deck: Deck, state: PacificState, battle: Battle, seat: int | None) -> OddsJSON:
    theatre = deck.theatre(battle.card)
    known = cards(deck, state, theatre, seat)
    # Every unit of the battle, the destroyed and withdrawn ones out of the alive set: one question per battle,
    # so the states counted for one shot serve the next.
    fighters = [fighter(deck, battle, k) for k in battle.units]
    gone = set(battle.destroyed) | set(battle.withdrawn) | set(battle.casualties)
    alive = [k for k in battle.units if k not in gone]
    step = _next_step(deck, battle) if state.stage == Stage.COMBAT else 10 ** 6
    # The policy the odds play picks each unit's likeliest target as the referee does (combat.likeliest_target:
    # by the whole deck as printed), so every question of a battle, the public's and each seat's, plays one
    # policy and shares the states already worked out.
    printed = deck.action_counts()
    result = odds.battle_odds(fighters, known, battle_rules.must_destroy(deck, battle), step, alive,
                              tuple(deck.action_numbers()), tuple(printed.get(n, 0) for n in range(max(printed, default=0) + 1)))
    return {"aggressor": round(result.aggressor, 4), "defender": round(result.defender, 4), "method": result.method,
            "error": round(result.error, 4), "cards_left": known.left, "unseen": sum(known.unseen),
            "held": known.hidden, "shots": shots(deck, state, known),
            "withdraw": {side: {"winner": "defender" if side == "aggressor" else "aggressor",
                                "vp": deck.card(battle.card)["vp"], "keeps": len(battle.fighting(side))}
                         for side in ("aggressor", "defender")}}


def shots(deck: Deck, state: PacificState, known: odds.Cards) -> list[ShotOdds]:
    """The firing unit's chance against each legal target: exact over the decks the table cannot rule out."""
    battle = state.battle
    if battle is None or state.stage != Stage.COMBAT or not battle.queue:
        return []
    shooter, found = battle.queue[0], list[ShotOdds]()
    support = battle.support if battle.aim else combat.best_support(deck, battle, shooter)
    for target in combat.legal_targets(deck, battle, shooter):
        shot = combat.values(deck, battle, shooter, target, support)
        if shot is None:
            continue    # legal with the best support, out of reach with the (weaker) one aimed with
        attack, defense, a_bonus, d_bonus = shot
        chance = odds.shot_chance(known, attack, defense)
        found.append({"unit": shooter, "target": target, "attack": attack, "defense": defense,
                      "attack_bonus": a_bonus, "defense_bonus": d_bonus,
                      "hits": sum(n for a, n in enumerate(known.unseen) if defense < a <= attack),
                      "cards": sum(known.unseen), "chance": float(chance), "exact": f"{chance.numerator}/{chance.denominator}",
                      "aimed": battle.aim == target})
    return found


def _next_step(deck: Deck, battle: Battle) -> int:
    """The index, in the round's firing order the odds use (every unit of the battle), of the unit that fires next."""
    order = [(p, side, k) for p in (1, 2, 3, 4) for side in ("aggressor", "defender")
             for k in battle.units if battle.side_of(battle.owner[k]) == side and p in deck.phases(k)]
    if battle.queue:
        target = (battle.phase, battle.firing, battle.queue[0])
        return order.index(target) if target in order else len(order)
    after = [i for i, (p, side, _) in enumerate(order) if (p, side) > (battle.phase, battle.firing)]
    return after[0] if after else len(order)


# -- the odds as outcome data: what the table could know just before a card was turned ---------------------
def summary(found: OddsJSON) -> OddsSummary:
    """The battle's odds, as an outcome records them (public: never a hidden card)."""
    return {"aggressor": found["aggressor"], "defender": found["defender"], "method": found["method"],
            "error": found["error"], "cards_left": found["cards_left"], "unseen": found["unseen"], "held": found["held"]}


def odds_before_shot(deck: Deck, state: PacificState) -> BeforeShot | None:
    """The public odds of the battle and of each legal target, before the card for the shot is turned."""
    found = battle_forecast(deck, state)
    if found is None:
        return None
    return {"battle": summary(found), "targets": {s["target"]: s for s in found["shots"]}}


def note_battle_odds(deck: Deck, state: PacificState, outcomes: tuple[Outcome, ...]) -> None:
    """A battle that begins carries its odds as the flip leaves it (after the action that began it), or None
    when it was settled at once."""
    for outcome in outcomes:
        if outcome.kind == "battle_begins":
            fought = state.battle is not None and state.battle.card == outcome.data["card"]
            found = battle_forecast(deck, state) if fought else None
            outcome.data["odds"] = summary(found) if found is not None else None


def note_shot_odds(outcomes: list[Outcome], before: BeforeShot | None) -> None:
    """The shot's outcome carries the chance it had (exact, over the cards the table could know were left) and
    the battle's odds before it; the battle's odds after it go with the next shot, or the end."""
    if before is None:
        return
    for outcome in outcomes:
        if outcome.kind == "shot":
            target: Mapping[str, Any] = before["targets"].get(outcome.data["target"], {})
            outcome.data["odds"] = {"chance": target.get("chance"), "exact": target.get("exact"),
                                    "hits": target.get("hits"), "unseen": target.get("cards"), **before["battle"]}
