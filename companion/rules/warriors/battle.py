"""Phase Two: Call to Battle. Challenges, reveals with the points running, the Armory cards used
at the table (Conversion, Dissenter, Deception, Escape, Prophecy), the decision, the captures and
the Coriantumr-and-Shiz special battle.

"The player who made the Call to Battle chooses another player ... and challenges him/her." "The
player who made the Challenge then reveals the first facedown card on the right of his/her
Warrior. His/her opponent does the same." "The player with the most points wins the Challenge and
takes his/her opponent's cards in play." "If the battle between two players ends in a tie, the
player who made the Challenge has the advantage and wins the battle." "The winner then challenges
another player ... This continues until all players have battled."
"""
from __future__ import annotations

import dataclasses
from typing import Any

from card_tags.catalog import Catalog
from companion.rules.base import Outcome
from companion.rules.contract import Refused

from .cards import ABILITIES, info, usable
from .points import Side, score
from .prepare import DEAL_EACH, begin_refill, dealing
from .state import Challenge, Laid, Result, Step, WarriorsState
from .table import active, draw, to_discard

ONCE_PER_ROUND = ("conversion", "dissenter", "deception")   # "once per Battle round"


def opponent(state: WarriorsState, seat: int) -> int:
    ch = state.fight
    return ch.defender if seat == ch.challenger else ch.challenger


def face_down(state: WarriorsState, seat: int) -> list[Laid]:
    return [c for c in state.players[seat].play if c.face_down]


def to_battle(state: WarriorsState) -> list[int]:
    return [n for n in active(state) if n not in state.battled and n != state.challenger]


def challenge(catalog: Catalog, state: WarriorsState, target: int) -> tuple[Outcome, ...]:
    if state.challenger is None:
        raise Refused("nobody_called")
    if target == state.challenger:
        raise Refused("challenger_is_target", target=target)
    if target not in to_battle(state):
        raise Refused("already_battled", target=target)
    a = state.challenger
    for seat in (a, target):
        for c in state.players[seat].play:
            c.used_challenge, c.revealed_at = False, 0
    state.battled += [s for s in (a, target) if s not in state.battled]
    state.challenge = Challenge(challenger=a, defender=target, next=a if face_down(state, a) else target)
    opening = next((c for c in state.players[a].play if c.card == state.opened), None)
    if opening is not None:   # the challenger turned a card before naming: the opponent turns next
        state.challenge.reveals = opening.revealed_at = 1
        state.challenge.next = target if face_down(state, target) else a
    state.opened = None
    state.step = Step.REVEAL
    outcomes = [Outcome("challenge", data={"challenger": a, "defender": target})]
    return (*outcomes, *_maybe_duel(catalog, state))


def only_one_left(catalog: Catalog, state: WarriorsState) -> tuple[Outcome, ...]:
    """With one player left to challenge there is nobody to choose: the Challenge starts by itself."""
    left = to_battle(state)
    if state.step != Step.CHALLENGE or state.challenge is not None or len(left) != 1 or state.challenger is None:
        return ()
    return challenge(catalog, state, left[0])


def opening_reveal(catalog: Catalog, state: WarriorsState, owner: int, key: str) -> tuple[Outcome, ...]:
    """A card turned before anyone was challenged by a tap. "The player who made the Challenge then
    reveals the first facedown card ... His/her opponent does the same": the challenger's first
    card opens the Challenge, and the first card another player who may be challenged turns over
    next names that player as the opponent (docs/referee/warriors.md, Taps)."""
    a = state.challenger
    if a is None:
        raise Refused("nobody_called")
    if owner == a:
        if state.opened is not None:
            raise Refused("opponent_turns_next", challenger=a)
        if face_down(state, a)[0].card != key:
            raise Refused("reveal_in_order", a)
        card = face_down(state, a)[0]
        card.face_down, card.revealed_at = False, 0
        state.opened = key
        return (Outcome("opening", data={"seat": a, "card": key}, reveals=True),)
    if owner not in to_battle(state):
        raise Refused("cannot_be_challenged", owner=owner, challenger=a)
    if state.opened is None and face_down(state, a):
        raise Refused("challenger_reveals_first", challenger=a)
    opening = state.opened
    outcomes = challenge(catalog, state, owner)
    if state.step != Step.REVEAL:   # the special battle began already: nothing is turned in it
        return outcomes
    turned = reveal(catalog, state, owner, key)
    for c in state.players[a].play:   # the challenger could not use the opening card before anyone was named
        if c.card == opening:
            c.revealed_at = state.fight.reveals
    return (*outcomes, *turned)


def _maybe_duel(catalog: Catalog, state: WarriorsState) -> tuple[Outcome, ...]:
    ch = state.fight
    if ch.duel or not all_revealed(state) or not duel_faces(catalog, state):
        return ()
    ch.duel = True
    state.step = Step.DUEL
    return (Outcome("duel", data={"seats": [ch.challenger, ch.defender]}),)


def prophecy(catalog: Catalog, state: WarriorsState, seat: int, targets: list[int]) -> tuple[Outcome, ...]:
    """"if you are the challenger, you may privately look at two players' facedown cards before
    deciding which player to challenge." The cards go to the challenger's seat view only."""
    if seat != state.challenger:
        raise Refused("prophecy_not_challenger", seat)
    if state.prophecy_used:
        raise Refused("prophecy_used", seat)
    if state.opened is not None:   # the first card turned shows the choice is made (docs/referee/warriors.md)
        raise Refused("prophecy_after_choice", seat)
    if not any(info(catalog, c.card).armory == "prophecy" and not c.disabled for c in state.players[seat].play):
        raise Refused("no_prophecy", seat)
    others = [t for t in dict.fromkeys(targets) if t != seat]
    if not 1 <= len(others) <= 2 or len(others) != len(targets):
        raise Refused("prophecy_targets", seat)
    if any(not face_down(state, t) for t in others):
        raise Refused("prophecy_no_face_down", seat)
    state.prophecy_used = True
    state.peeks.setdefault(seat, [])
    state.peeks[seat] += [c.card for t in others for c in face_down(state, t) if c.card not in state.peeks[seat]]
    return (Outcome("prophecy", data={"seat": seat, "targets": others}, reveals=True),)


def reveal(catalog: Catalog, state: WarriorsState, seat: int, key: str | None) -> tuple[Outcome, ...]:
    """Turn over the seat's next face-down card (the camera saw ``key`` face up, or the tablet said so)."""
    ch = state.fight
    if seat not in (ch.challenger, ch.defender):
        raise Refused("not_in_challenge", seat, challenger=ch.challenger, defender=ch.defender)
    waiting = face_down(state, seat)
    if not waiting:
        raise Refused("no_face_down_left", seat)
    if ch.next != seat:
        raise Refused("not_your_reveal", seat, next=ch.next)
    if key is not None and waiting[0].card != key:
        raise Refused("reveal_in_order", seat)
    card = waiting[0]
    card.face_down = False
    ch.reveals += 1
    card.revealed_at = ch.reveals
    other = opponent(state, seat)
    ch.next = other if face_down(state, other) else seat
    outcome = Outcome("reveal", data={"seat": seat, "card": card.card, **running(catalog, state)}, reveals=True)
    return (outcome, *_maybe_duel(catalog, state))


def all_revealed(state: WarriorsState) -> bool:
    ch = state.fight
    return not face_down(state, ch.challenger) and not face_down(state, ch.defender)


def duel_faces(catalog: Catalog, state: WarriorsState) -> bool:
    """"If a battle finds Coriantumr and Shiz facing off against each other (whether as primary or
    secondary cards), a special battle ensues." (The catalog names them in each other's ``duel``.)"""
    ch = state.fight
    mine = {info(catalog, c.card).id: info(catalog, c.card) for c in state.players[ch.challenger].play if not c.face_down}
    theirs = {info(catalog, c.card).id for c in state.players[ch.defender].play if not c.face_down}
    return any(card.duel and card.duel in theirs for card in mine.values())


def running(catalog: Catalog, state: WarriorsState) -> dict[str, Any]:
    ch = state.fight
    a, b = state.players[ch.challenger].play, state.players[ch.defender].play
    return {"points": {ch.challenger: score(catalog, a, b).as_dict(), ch.defender: score(catalog, b, a).as_dict()}}


def protected(state: WarriorsState, catalog: Catalog, card: Laid) -> bool:
    """An ability card just turned, not yet used: its owner may use it before the next reveal."""
    ch = state.fight
    return info(catalog, card.card).armory in ABILITIES and card.revealed_at == ch.reveals and \
        not card.used_round and not card.used_challenge


def use(catalog: Catalog, state: WarriorsState, seat: int, key: str, target: str | None) -> tuple[Outcome, ...]:
    ch = state.challenge
    if ch is None or seat not in (ch.challenger, ch.defender):
        raise Refused("use_not_in_challenge", seat)
    mine = state.players[seat].play
    card = next((c for c in mine if c.card == key), None)
    if card is None or card.face_down:
        raise Refused("no_such_card_face_up", seat)   # a face-down card is answered as one not there
    kind = info(catalog, key).armory
    if kind not in ABILITIES:
        raise Refused("not_used_by_choice", seat, card=key)
    if card.disabled:
        raise Refused("disabled", seat, card=key)
    if card.how != "laid" and not usable(info(catalog, key), [info(catalog, c.card) for c in mine if c.how == "laid"]):
        raise Refused("not_usable_here", seat, card=key)
    if kind in ONCE_PER_ROUND and card.used_round:
        raise Refused("once_per_round", seat, kind=kind)
    if kind == "escape" and card.used_challenge:
        raise Refused("escape_once_per_challenge", seat)
    if kind == "deception":
        return _deception(state, seat, card)
    taken = _target(catalog, state, seat, target, kind)
    if kind == "escape":
        card.used_challenge = True
        taken.disabled = True
        return (Outcome("escape", data={"seat": seat, "card": key, "target": taken.card, **running(catalog, state)}),)
    card.used_round = True
    state.players[opponent(state, seat)].play.remove(taken)
    # A taken card keeps its uses: a Conversion already used this round is not used again.
    mine.append(Laid(card=taken.card, owner=taken.owner, how="taken", used_round=taken.used_round,
                     used_challenge=taken.used_challenge))
    return (Outcome("take", data={"seat": seat, "card": key, "target": taken.card,
                                  "usable": usable(info(catalog, taken.card), [info(catalog, c.card) for c in mine if c.how == "laid"]),
                                  **running(catalog, state)}),)


def _target(catalog: Catalog, state: WarriorsState, seat: int, target: str | None, kind: str) -> Laid:
    theirs = state.players[opponent(state, seat)].play
    # A face-down card is answered like a card that is not there: the refusal must not tell anyone
    # which cards lie face down.
    found = next((c for c in theirs[1:] if c.card == target and not c.face_down), None) if target else None
    if found is None:
        raise Refused("choose_revealed_secondary", seat, opponent=opponent(state, seat), kind=kind)
    if found.disabled:
        raise Refused("already_disabled", seat, card=found.card)
    if protected(state, catalog, found):
        raise Refused("just_revealed", seat, card=found.card)
    return found


def _deception(state: WarriorsState, seat: int, card: Laid) -> tuple[Outcome, ...]:
    """"Take a card from the six cards in your hand to add it to the cards in play." The player
    lays it face up; the camera sees it come from the hand."""
    if not state.players[seat].hand:
        raise Refused("no_hand_to_add", seat)
    if state.fight.duel:
        raise Refused("deception_in_duel", seat)
    card.used_round = True
    state.fight.deception = seat
    return (Outcome("deception", data={"seat": seat, "card": card.card}),)


def deception_card(catalog: Catalog, state: WarriorsState, seat: int, key: str) -> tuple[Outcome, ...]:
    state.players[seat].hand.remove(key)
    state.players[seat].play.append(Laid(card=key, owner=seat, how="deception"))
    state.fight.deception = None
    return (Outcome("deception_card", data={"seat": seat, "card": key, **running(catalog, state)}),)


def duel_card(catalog: Catalog, state: WarriorsState, seat: int, key: str) -> tuple[Outcome, ...]:
    """"each opponent must lay down all six cards in his/her hand to help in the battle.\""""
    state.players[seat].hand.remove(key)
    state.players[seat].play.append(Laid(card=key, owner=seat, how="duel"))
    return (Outcome("duel_card", data={"seat": seat, "card": key, "left": len(state.players[seat].hand),
                                       **running(catalog, state)}),)


def why_not_decide(state: WarriorsState) -> Refused | None:
    """Why the Challenge cannot be decided yet (None: it can)."""
    ch = state.challenge
    if ch is None:
        return Refused("no_challenge")
    if not all_revealed(state):
        return Refused("still_face_down", next=ch.next)
    if ch.deception is not None:
        return Refused("deception_first", deception=ch.deception)
    holding = [s for s in (ch.challenger, ch.defender) if state.players[s].hand]
    if ch.duel and holding:
        return Refused("duel_hands_held", holding=holding)
    return None


def decide(catalog: Catalog, state: WarriorsState) -> tuple[Outcome, ...]:
    refused = why_not_decide(state)
    if refused:
        raise refused
    ch = state.fight
    a, b = ch.challenger, ch.defender
    sides: dict[int, Side] = {a: score(catalog, state.players[a].play, state.players[b].play),
                              b: score(catalog, state.players[b].play, state.players[a].play)}
    rows = {s: [dataclasses.replace(c) for c in state.players[s].play] for s in (a, b)}
    winner = a if sides[a].total >= sides[b].total else b   # "the player who made the Challenge ... wins"
    loser = b if winner == a else a
    won, lost = state.players[winner], state.players[loser]
    for c in won.play:
        c.disabled = False   # "If the opponent wins the Challenge, he may return the disabled card to the upright position"
    captured = to_discard(state, winner, lost.play)
    lost.play = []
    extra = _captures_ability(catalog, state, winner, loser)
    if ch.duel:   # "including the six from the winner's own hand"
        captured += to_discard(state, winner, [c for c in won.play if c.how == "duel"])
        won.play = [c for c in won.play if c.how != "duel"]
    state.results.append(Result(challenger=a, defender=b, winner=winner, points={s: v.total for s, v in sides.items()},
                                captured=len(captured) + len(extra), rows=rows))
    state.last_winner = state.challenger = winner
    state.challenge = None
    state.prophecy_used = False
    outcomes = [Outcome("decided", data={"challenger": a, "defender": b, "winner": winner, "loser": loser,
                              "tie": sides[a].total == sides[b].total, "duel": ch.duel,
                              "points": {s: v.as_dict() for s, v in sides.items()},
                              "captured": captured, "from_discard": extra})]
    if ch.duel:
        for seat in (a, b):
            state.players[seat].deal_warriors = state.players[seat].deal_armory = 0
        state.step = Step.REDRAW
        return (*outcomes, *after_redraw(catalog, state))
    return (*outcomes, *next_challenge(catalog, state))


def _captures_ability(catalog: Catalog, state: WarriorsState, winner: int, loser: int) -> list[str]:
    """"exceptions may be found in the 'Special Abilities' on certain cards": a Warrior with
    ``captures`` also takes that many cards from the top of the loser's Discard pile."""
    count = sum(info(catalog, c.card).captures for c in state.players[winner].play if not c.disabled)
    pile = state.players[loser].discard
    taken = pile[len(pile) - min(count, len(pile)):] if count else []
    del pile[len(pile) - len(taken):]
    state.players[winner].discard += taken
    return taken


def redraw(catalog: Catalog, state: WarriorsState, seat: int, key: str) -> tuple[Outcome, ...]:
    """"Both players ... must choose six new cards from their decks (3 Warrior and 3 Armory).\""""
    player = state.players[seat]
    if seat not in dealing(state):
        raise Refused("redraw_complete", seat)
    card = info(catalog, key)
    if (player.deal_warriors if card.warrior else player.deal_armory) >= DEAL_EACH:
        raise Refused("redraw_pile_full", seat, pile="Warrior" if card.warrior else "Armory")
    outcome = draw(catalog, state, seat, key, need_warrior=False)
    if card.warrior:
        player.deal_warriors += 1
    else:
        player.deal_armory += 1
    return (outcome, *after_redraw(catalog, state))


def after_redraw(catalog: Catalog, state: WarriorsState) -> tuple[Outcome, ...]:
    if dealing(state):
        return ()
    return next_challenge(catalog, state)


def next_challenge(catalog: Catalog, state: WarriorsState) -> tuple[Outcome, ...]:
    if to_battle(state):
        state.step = Step.CHALLENGE
        return only_one_left(catalog, state)
    return end_round(catalog, state)


def end_round(catalog: Catalog, state: WarriorsState) -> tuple[Outcome, ...]:
    """"When all players have battled, they put their remaining cards (not including the cards in
    their Warrior and Armory decks) in their Discard piles": the cards still in play."""
    for seat in active(state):
        to_discard(state, seat, state.players[seat].play)
        state.players[seat].play = []
    state.peeks = {}
    outcome = Outcome("round_over", data={"winner": state.last_winner, "battle_round": state.battle_round})
    return (outcome, *begin_refill(catalog, state))


def refill_draw(catalog: Catalog, state: WarriorsState, seat: int, key: str) -> tuple[Outcome, ...]:
    from .prepare import finish_refill, refilling

    if seat not in refilling(state):
        raise Refused("hand_full", seat)
    return (draw(catalog, state, seat, key), *finish_refill(catalog, state))
