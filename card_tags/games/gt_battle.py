"""\"Battle\" by Gather Together Games: what its cards carry, the counts the rulebook gives, and
the deal table.

"Identity Cards: SUPERHERO and VILLAIN cards / Fight Cards: Cards numbered 1-12 / Action Cards:
SKIP, REVERSE, EXPOSE, ELIMINATE, SAVE, NEW BATTLE cards / Battle Card: BATTLE card"
(gather-together-battle.txt). The rulebook gives "(5) SUPERHERO cards and (5) VILLAIN cards",
"(10) EXPOSE cards" and one BATTLE card; it does not say how many copies of each fight card or of
the other action cards there are. The reference deck (card_tags/decks/gt-battle.json, explained
in docs/decks/gt-battle.md) chooses them so that the deal table below works for 4 to 10 players.

``check`` enforces the rulebook's own numbers. Whether a deck holds enough cards for a given
number of players is ``deal_plan``'s question, asked when a game starts.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from card_tags.catalog import Catalog

TEAMS = ("superhero", "villain")
ACTIONS = ("skip", "reverse", "expose", "eliminate", "save", "new_battle")
RANKS = range(1, 13)

# "Step 4: Shuffle the deck and deal according to the number of players in the game."
DEAL_TABLE = {4: 12, 5: 12, 6: 11, 7: 10, 8: 9, 9: 8, 10: 7}
# "*remove 1 SAVE card and 1 ELIMINATE card when playing with 4 or 5 players"
SMALL_TABLE = (4, 5)
REMOVED_AT_SMALL_TABLE = ("save", "eliminate")

SCHEMA = {
    "identity": {"team": list(TEAMS)},
    "fight": {"rank": "int"},
    "action": {"action": list(ACTIONS), "text?": "str"},
    "battle": {"text?": "str"},
}


def count_by(catalog: Catalog) -> dict[str, Counter[Any]]:
    """Physical copies per team, per fight rank, per action, and of BATTLE cards."""
    counts: dict[str, Counter[Any]] = {"team": Counter(), "rank": Counter(), "action": Counter(), "battle": Counter()}
    for card in catalog.cards.values():
        if card.kind == "identity":
            counts["team"][card["team"]] += card.copies
        elif card.kind == "fight":
            counts["rank"][card["rank"]] += card.copies
        elif card.kind == "action":
            counts["action"][card["action"]] += card.copies
        else:
            counts["battle"]["battle"] += card.copies
    return counts


def check(catalog: Catalog) -> list[str]:
    """The rulebook's counts; every problem, each saying what is off."""
    counts = count_by(catalog)
    problems = []
    for card in catalog.cards.values():
        if card.kind == "fight" and card["rank"] not in RANKS:
            problems.append(f"card {card.id!r}: field 'rank' {card['rank']} is not a fight card number 1-12")
    for team in TEAMS:
        if counts["team"][team] != 5:
            problems.append(f"the rulebook has 5 {team.upper()} identity cards; this deck has {counts['team'][team]}")
    if counts["action"]["expose"] != 10:
        problems.append(f"the rulebook has 10 EXPOSE cards; this deck has {counts['action']['expose']}")
    if counts["battle"]["battle"] != 1:
        problems.append(f"the rulebook has 1 BATTLE card; this deck has {counts['battle']['battle']}")
    missing_ranks = [rank for rank in RANKS if counts["rank"][rank] == 0]
    if missing_ranks:
        problems.append(f"the rulebook's fight cards are numbered 1-12; this deck has no {missing_ranks}")
    for action in ACTIONS:
        if counts["action"][action] == 0:
            problems.append(f"the rulebook has {action.replace('_', ' ').upper()} cards; this deck has none")
    return problems


@dataclass(frozen=True)
class DealPlan:
    """What the setup steps do with this deck for this many players."""

    players: int
    per_player: int      # the deal table's row
    fight: int           # fight cards in the deck
    actions: int         # SKIP, REVERSE, NEW BATTLE, ELIMINATE, SAVE after the small-table removal
    expose: int          # "as many EXPOSE cards as players" (step 3)
    removed: tuple[str, ...]

    @property
    def deck(self) -> int:
        """Cards shuffled and dealt from in step 4 (identity cards and BATTLE are not in it)."""
        return self.fight + self.actions + self.expose

    @property
    def dealt(self) -> int:
        return self.players * self.per_player

    @property
    def remaining(self) -> int:
        """Cards left after the deal, before the BATTLE card is shuffled into them (step 5)."""
        return self.deck - self.dealt

    def as_dict(self) -> dict[str, Any]:
        return {"players": self.players, "per_player": self.per_player, "deck": self.deck,
                "dealt": self.dealt, "remaining": self.remaining, "removed": list(self.removed)}


def deal_plan(catalog: Catalog, players: int) -> DealPlan:
    """The deal for ``players``, or ValueError saying why this deck or table cannot be dealt."""
    if players not in DEAL_TABLE:
        raise ValueError(f"Battle is for 4 to 10 players (the deal table has no row for {players})")
    counts = count_by(catalog)
    removed = REMOVED_AT_SMALL_TABLE if players in SMALL_TABLE else ()
    for action in removed:
        if counts["action"][action] < 1:
            raise ValueError(f"with {players} players the rulebook removes 1 {action.upper()} card, "
                             f"but this deck has none")
    if counts["action"]["expose"] < players:
        raise ValueError(f"step 3 adds one EXPOSE card per player ({players}), "
                         f"but this deck has {counts['action']['expose']}")
    other_actions = sum(n for action, n in counts["action"].items() if action != "expose") - len(removed)
    plan = DealPlan(players, DEAL_TABLE[players], sum(counts["rank"].values()), other_actions, players, removed)
    if plan.remaining < 0:
        raise ValueError(f"this deck cannot serve the deal table for {players} players: they need "
                         f"{players} x {plan.per_player} = {plan.dealt} cards, but the deck to deal holds "
                         f"{plan.deck} ({plan.fight} fight + {plan.actions} SKIP/REVERSE/NEW BATTLE/ELIMINATE/SAVE "
                         f"+ {plan.expose} EXPOSE)")
    return plan
