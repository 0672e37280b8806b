"""The reference deck, custom decks, and the deal table (gather-together-battle.txt, "Setup and Deal")."""
from __future__ import annotations

import copy
import json

import pytest

from card_tags.catalog import CatalogError, load_game, reference_deck_path
from card_tags.games.gt_battle import deal_plan
from companion import rules
from companion.rules import Seat, SetupError
from companion.gamelog.session import LogError, Session, open_store

REFERENCE = json.loads(reference_deck_path("gt-battle").read_text())


def deck_with(**copies: int) -> dict:
    """The reference deck with some cards' copy counts changed (card id -> copies)."""
    deck = copy.deepcopy(REFERENCE)
    for card in deck["cards"]:
        if card["id"] in copies:
            card["copies"] = copies[card["id"]]
    return deck


def test_reference_deck_follows_every_number_the_rulebook_gives():
    """"(5) SUPERHERO cards and (5) VILLAIN cards", "(10) EXPOSE cards", one BATTLE card, fight
    cards "numbered 1-12", and SKIP, REVERSE, ELIMINATE, SAVE and NEW BATTLE cards."""
    catalog = load_game("gt-battle")
    by_id = catalog.cards
    assert by_id["HERO"].copies == 5 and by_id["HERO"]["team"] == "superhero"
    assert by_id["VILLAIN"].copies == 5 and by_id["VILLAIN"]["team"] == "villain"
    assert by_id["EXPOSE"].copies == 10
    assert by_id["BATTLE"].copies == 1
    assert sorted(c["rank"] for c in catalog.cards.values() if c.kind == "fight") == list(range(1, 13))
    assert {c["action"] for c in catalog.cards.values() if c.kind == "action"} == \
        {"skip", "reverse", "expose", "eliminate", "save", "new_battle"}
    assert catalog.total_copies() == 108  # documented in docs/decks/gt-battle.md


@pytest.mark.parametrize("players, per_player, deck, left", [
    (4, 12, 89, 41), (5, 12, 90, 30), (6, 11, 93, 27), (7, 10, 94, 24), (8, 9, 95, 23), (9, 8, 96, 24), (10, 7, 97, 27),
])
def test_deal_table_rows(players, per_player, deck, left):
    """"Players Cards / 4* 12 / 5* 12 / 6 11 / 7 10 / 8 9 / 9 8 / 10 7" and "*remove 1 SAVE card
    and 1 ELIMINATE card when playing with 4 or 5 players". The deck to deal is the 72 fight cards,
    the 15 other action cards (13 at 4-5 players) and "as many EXPOSE cards as players"."""
    plan = deal_plan(load_game("gt-battle"), players)
    assert plan.per_player == per_player
    assert plan.deck == deck
    assert plan.expose == players
    assert plan.removed == (("save", "eliminate") if players <= 5 else ())
    assert plan.remaining == left


def test_a_game_starts_with_the_deal_table_hands_and_the_battle_card_in_the_deck():
    """"Step 5: Shuffle the BATTLE card into the remaining deck." 8 players get 9 cards each; the
    deck then holds the 23 undealt cards plus the BATTLE card, less the one flipped in step 6."""
    state = rules.make("gt-battle").setup([Seat(n, f"P{n}") for n in range(1, 9)], {})
    assert state.hands == {n: 9 for n in range(1, 9)}
    assert state.deck == 23 + 1


@pytest.mark.parametrize("players", [3, 11])
def test_player_count_outside_4_to_10_is_refused_at_setup(tmp_path, players):
    store = open_store(tmp_path)
    seats = [{"seat": n, "name": f"P{n}"} for n in range(1, players + 1)]
    with pytest.raises(LogError, match=f"is for 4 to 10 players, not {players}"):
        Session.start(store, "gt-battle", seats)
    assert store.games() == []  # nothing was written


def test_a_deck_too_small_for_the_deal_table_is_refused_for_that_table_only(tmp_path):
    """A deck of 4 copies of each fight card and one of each other action card deals 4 players
    (48 + 3 + 4 = 55 cards for 4 x 12 = 48) but not 8 (48 + 5 + 8 = 61 for 8 x 9 = 72)."""
    small = deck_with(**{f"F{r}": 4 for r in range(1, 13)}, SKIP=1, REVERSE=1, ELIM=1, SAVE=1, NEWBTL=1)
    store = open_store(tmp_path)
    eight = [{"seat": n, "name": f"P{n}"} for n in range(1, 9)]
    with pytest.raises(LogError, match=r"cannot serve the deal table for 8 players: they need 8 x 9 = 72 cards, "
                                       r"but the deck to deal holds 61"):
        Session.start(store, "gt-battle", eight, deck=small)
    four = Session.start(store, "gt-battle", eight[:4], deck=small)
    assert four.public_view()["deal"]["deck"] == 55


def test_the_small_table_removal_needs_a_save_and_an_eliminate_to_remove():
    catalog = rules.load_catalog("gt-battle", deck_with())
    assert deal_plan(catalog, 4).removed == ("save", "eliminate")
    bad = copy.deepcopy(REFERENCE)
    bad["cards"] = [c for c in bad["cards"] if c["id"] != "SAVE"]
    with pytest.raises(SetupError, match="the rulebook has SAVE cards; this deck has none"):
        rules.make("gt-battle", bad)


@pytest.mark.parametrize("change, message", [
    ({"HERO": 4}, "the rulebook has 5 SUPERHERO identity cards; this deck has 4"),
    ({"EXPOSE": 9}, "the rulebook has 10 EXPOSE cards; this deck has 9"),
    ({"BATTLE": 2}, "the rulebook has 1 BATTLE card; this deck has 2"),
])
def test_decks_that_break_the_rulebooks_counts_are_refused(change, message):
    with pytest.raises(SetupError, match=message):
        rules.make("gt-battle", deck_with(**change))


def test_a_fight_card_outside_1_to_12_and_a_missing_rank_are_named():
    bad = copy.deepcopy(REFERENCE)
    for card in bad["cards"]:
        if card["id"] == "F12":
            card["rank"] = 13
    with pytest.raises(CatalogError) as error:
        load_game("gt-battle", bad)
    assert "card 'F12': field 'rank' 13 is not a fight card number 1-12" in error.value.problems
    assert "the rulebook's fight cards are numbered 1-12; this deck has no [12]" in error.value.problems
