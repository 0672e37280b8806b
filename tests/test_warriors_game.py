"""Warriors of the Promised Land at the table: the deal, Phase One, Phase Two, the Armory cards used
at the table, the special battle, surrender and the end, each rule quoted from the rulebook."""
from __future__ import annotations

import pytest

from companion.rules import SetupError
from companion.rules.warriors.state import Step
from tests.test_warriors_support import ANN, BEN, CATALOG, WarriorsTable, _filler, challenge, dealt, key_of, prepare_battle


def names(table, seat, place="play"):
    p = table.state.players[seat]
    keys = [c.card for c in p.play] if place == "play" else getattr(p, place)
    return [CATALOG.cards[k.partition("#")[0]].name for k in keys]


# -- Getting Ready to Play -----------------------------------------------------------------------------
def test_both_decks_are_dealt_out_among_the_players():
    """"Deal out both decks facedown so that each player has a deck of Warrior cards and a deck of Armory cards.\""""
    table = WarriorsTable(3)
    decks = [(p.warrior_deck, p.armory_deck) for p in table.state.players.values()]
    assert decks == [(23, 28), (23, 28), (22, 28)]   # 68 Warriors and 84 Armory cards, one at a time from seat 1


def test_each_player_draws_3_warriors_and_3_armory_cards():
    """"Each player now draws 3 cards from his/her Warrior pile and 3 from his/her Armory pile for a total of six.\""""
    table = WarriorsTable()
    table.deal(1, "Moroni", "Abinadi", "Lehi")
    assert "3 Warrior cards" in table.refused("card_seen", zone="reader:1", card=key_of("Nephi"))
    table.deal(1, "Sword", "Arrow", "Plates")
    assert table.state.step == Step.DEAL and table.state.players[1].warrior_deck == 34 - 3
    table.deal(2, *BEN)
    assert table.state.step == Step.PRIMARY
    assert table.outcomes[-1].say == "Phase One: Prepare for Battle. Ann goes first and lays a primary Warrior face up."


def test_the_first_player_is_an_option_and_play_proceeds_clockwise():
    """"Flip a coin, draw straws, or bicker amongst yourselves to see who goes first. Play will then proceed clockwise.\""""
    table = dealt(WarriorsTable(3, first=2), {1: ANN, 2: BEN, 3: ["Nephi", "Sam", "Gid", "Plates", "Prayer", "Sword#2"]})
    assert "It is Ben's turn" in table.refused("card_seen", zone="seat:1", card=key_of("Moroni"))
    table.show(2, "Laman"), table.scan(2, "Amlici")
    assert table.state.turn == 3


# -- Phase One -------------------------------------------------------------------------------------------
def test_the_primary_is_laid_face_up_and_the_hand_drawn_back_to_six():
    """"lays him faceup." "The player chooses another card from either his/her Warrior or Armory deck to
    bring the cards in his/her hand back up to six.\""""
    table = dealt(WarriorsTable(), {1: ANN, 2: BEN})
    table.show(1, "Moroni")
    assert table.say() == ["Ann lays Moroni as the primary Warrior."]
    assert "Ann draws a card first" in table.refused("card_seen", zone="seat:2", card=key_of("Laman"))
    table.scan(1, "Liahona")
    assert table.say() == ["Ann draws from the Armory deck (6 in hand)."]
    assert len(table.state.players[1].hand) == 6 and table.state.turn == 2


def test_a_primary_is_not_laid_face_down():
    table = dealt(WarriorsTable(), {1: ANN, 2: BEN})
    assert "laid face up" in table.refused("card_seen", zone="reader:1", card=key_of("Moroni"))


def test_the_hand_always_keeps_a_warrior():
    """"he/she must keep at least one Warrior in his/her hand at all times\""""
    table2 = dealt(WarriorsTable(), {1: ["Moroni", "Helaman", "Lehi", "Sword", "Arrow", "Plates"], 2: BEN})
    table2.show(1, "Moroni"), table2.scan(1, "Liahona")
    table2.show(2, "Laman"), table2.scan(2, "Amlici")
    table2.scan(1, "Helaman"), table2.scan(1, "Prayer")
    table2.scan(2, "Lib"), table2.scan(2, "Morianton")
    table2.scan(1, "Lehi")
    reason = table2.refused("card_seen", zone="reader:1", card=key_of("Javelin#2"))
    assert "keep at least one Warrior in his/her hand at all times" in reason
    table2.scan(1, "Gid")
    assert "Gid" in table2.hand(1)


def test_secondary_cards_one_a_turn_each_followed_by_a_draw():
    """"The starting player now lays another card (secondary card) facedown to the right of his/her
    Warrior, then draws a new Warrior or Armory card.\""""
    table = dealt(WarriorsTable(), {1: ANN, 2: BEN})
    table.show(1, "Moroni"), table.scan(1, "Helaman")
    table.show(2, "Laman"), table.scan(2, "Amlici")
    table.scan(1, "Sword")
    assert table.state.drawing == 1
    assert "draws a new card now" in table.refused("card_seen", zone="reader:1", card=key_of("Arrow"))
    table.scan(1, "Gid")
    assert table.state.turn == 2
    assert "It is Ben's turn" in table.refused("card_seen", zone="reader:1", card=key_of("Arrow"))


def test_a_secondary_card_is_laid_face_down_not_face_up():
    table = dealt(WarriorsTable(), {1: ANN, 2: BEN})
    table.show(1, "Moroni"), table.scan(1, "Helaman")
    table.show(2, "Laman"), table.scan(2, "Amlici")
    assert "laid facedown" in table.refused("card_seen", zone="seat:1", card=key_of("Sword"))


def test_the_covered_tray_reads_the_card_of_the_player_whose_turn_it_is():
    table = dealt(WarriorsTable(), {1: ANN, 2: BEN})
    table.show(1, "Moroni")
    table.scan(1, "Helaman", zone="tray")
    assert "Helaman" in table.hand(1)
    table.show(2, "Laman")
    table.scan(2, "Amlici", zone="tray")
    table.scan(1, "Sword", zone="tray")
    assert table.state.players[1].play[1].face_down and table.state.players[1].play[1].card == key_of("Sword")


def test_call_to_battle_at_the_end_of_a_turn_and_the_others_lay_their_card():
    """"a player can stop Phase One by saying, "Call to battle!" at the end of his/her turn. Players who
    haven't laid down cards that round will do so, and Phase Two: Call to Battle begins.\""""
    table = dealt(WarriorsTable(3), {1: ANN, 2: BEN, 3: ["Nephi", "Sam", "Gid", "Plates", "Prayer", "Sword#2"]})
    for seat, primary, draw in ((1, "Moroni", "Helaman"), (2, "Laman", "Amlici"), (3, "Nephi", "Jacob")):
        table.show(seat, primary), table.scan(seat, draw)
    table.scan(1, "Sword"), table.scan(1, "Gideon")
    assert "only Ann can call now" in table.refused("call", seat=2)
    table.ok("call", seat=1)
    assert table.say() == ["Ann: \u201cCall to battle!\u201d Still to lay a card this round: Ben and Cy."]
    table.scan(2, "Lib"), table.scan(2, "Morianton")
    assert table.state.step == Step.SECONDARY
    table.scan(3, "Sam"), table.scan(3, "Enos")
    assert table.state.step == Step.CHALLENGE and table.state.challenger == 1
    assert table.say()[-1] == "Phase Two: Call to Battle. Ann is the challenger."


def test_a_player_with_no_card_that_can_be_laid_passes():
    table = dealt(WarriorsTable(), {1: ANN, 2: ["Laman", "Lib", "Shiz", "Faith: Love", "Prayer", "Plates"]})
    table.show(1, "Moroni"), table.scan(1, "Helaman")
    table.show(2, "Laman"), table.scan(2, "Faithful Women")
    table.scan(1, "Sword"), table.scan(1, "Gid")
    assert "holds a card that can be laid" in table.refused("pass", seat=2)
    table.scan(2, "Lib"), table.scan(2, "Faith: Revelation")
    table.scan(1, "Abinadi"), table.scan(1, "Gideon")
    table.scan(2, "Shiz"), table.scan(2, "Sam")   # his last draw must be a Warrior
    table.scan(1, "Lehi"), table.scan(1, "Jacob")
    table.ok("pass", seat=2)   # Faith x2, Prayer, Plates, Faithful Women, Sam: nothing goes with Laman, Lib, Shiz
    assert table.say() == ["Ben holds no card that can be laid and passes."]
    assert table.state.turn == 1


# -- Phase Two ---------------------------------------------------------------------------------------------
def battle_two():
    return prepare_battle({1: ["Moroni", "Sword", "Faith: Steadfast"], 2: ["Zerahemnah", "Javelin", "Lib"]})


def test_the_challenger_reveals_first_then_the_opponent_with_points_running():
    """"The player who made the Challenge then reveals the first facedown card on the right of his/her
    Warrior. His/her opponent does the same. Players continue this sequence with each secondary card,
    adding or subtracting points as they proceed.\""""
    table = battle_two()
    challenge(table, 2)
    assert table.say()[-1] == "Ann challenges Ben: \u201cTake up the sword!\u201d"
    assert "Ann turns a card next" in table.refused("card_seen", zone="seat:2", card=key_of("Javelin"))
    assert "first facedown card" in table.refused("card_seen", zone="seat:1", card=key_of("Faith: Steadfast"))
    table.show(1, "Sword")
    assert table.say() == ["Ann reveals Sword. Points: Ann 5, Ben 3."]
    table.show(2, "Javelin")
    table.show(1, "Faith: Steadfast")
    assert table.say() == ["Ann reveals Faith: Steadfast. Points: Ann 10, Ben 5."]   # Moroni + Faith: Steadfast bonus 2
    table.show(2, "Lib")
    view = table.rules.public_view(table.state)
    assert [t["label"] for t in view["last_outcome"]["terms"]] == [
        "Ann: Moroni", "Ann: Sword", "Ann: Faith: Steadfast", "Ann: Moroni + Faith: Steadfast",
        "Ben: Zerahemnah", "Ben: Javelin", "Ben: Lib"]
    table.ok("resolve")
    assert table.say()[0] == "Ann wins the Challenge 10 to 7 and captures Ben's 3 cards."


def test_the_winner_captures_the_losers_cards_in_play_to_the_discard_pile():
    """"The player with the most points wins the Challenge and takes his/her opponent's cards in
    play—both primary and secondary. He/she places the captured cards faceup in a Discard pile\""""
    table = battle_two()
    challenge(table, 2)
    for seat, name in ((1, "Sword"), (2, "Javelin"), (1, "Faith: Steadfast"), (2, "Lib")):
        table.show(seat, name)
    table.ok("resolve")
    # The round is over with two players: Ann's own cards go to her Discard pile too.
    assert sorted(names(table, 1, "discard")) == sorted(["Zerahemnah", "Javelin", "Lib", "Moroni", "Sword",
                                                         "Faith: Steadfast"])
    assert table.state.players[2].play == [] and table.state.players[2].discard == []


def test_a_tie_goes_to_the_challenger():
    """"If the battle between two players ends in a tie, the player who made the Challenge has the
    advantage and wins the battle.\""""
    table = prepare_battle({1: ["Lehi", "Sword"], 2: ["Laman", "Sword#2"]}, caller=2)
    challenge(table, 1)
    table.show(2, "Sword#2"), table.show(1, "Sword")
    table.ok("resolve")
    decided = table.outcomes[-4] if table.outcomes[-4].kind == "decided" else \
        next(o for o in table.outcomes if o.kind == "decided")
    assert decided.data["tie"] and decided.data["winner"] == 2
    assert "A tie: \u201cthe player who made the Challenge has the advantage" in decided.say


def three_players():
    return prepare_battle({1: ["Moroni", "Sword"], 2: ["Laman", "Lib"], 3: ["Nephi", "Plates"]})


def test_the_winner_challenges_another_until_all_have_battled_and_leads_the_next_phase_one():
    """"The winner then challenges another player ... This continues until all players have battled."
    "The winner of the last Challenge in the Battle round goes first in choosing a new primary card\""""
    table = three_players()
    challenge(table, 3)
    table.show(1, "Sword"), table.show(3, "Plates")
    table.ok("resolve")                                    # Ann 5, Cy 3
    # Ben is the only one left who has not battled: Ann's Challenge against him starts by itself.
    assert table.say()[1:] == ["Ann challenges Ben: \u201cTake up the sword!\u201d"]
    assert table.state.challenge.challenger == 1 and table.state.challenge.defender == 2
    view = table.rules.public_view(table.state)
    assert view["order"] == {"challenger": 1, "battled": [1, 3, 2], "to_battle": []}
    challenge(table, 2)
    assert table.state.step == Step.REVEAL
    table.show(2, "Lib")                                   # Ann's cards are already face up
    table.ok("resolve")                                    # Ann 5, Ben 4
    kinds = [o.kind for o in table.last.outcomes]
    assert kinds == ["decided", "round_over", "phase_one"]
    assert table.state.leader == 1 and table.state.step == Step.PRIMARY
    assert len(table.state.players[1].discard) == 2 + 2 + 2, "the leftovers go to the Discard pile"


# -- Competing cards and the Armory used at the table ---------------------------------------------------------
def test_conversion_takes_a_revealed_card_once_per_battle_round():
    """"Take one secondary card from your opponent and add it to your cards in play." "You can only use
    the Conversion card once per Battle round.\""""
    table = prepare_battle({1: ["Nephi", "Conversion", "Plates"], 2: ["Ammon", "Liahona", "Prayer"]})
    challenge(table, 2)
    table.show(1, "Conversion")
    table.show(2, "Liahona")
    table.ok("use", seat=1, card=key_of("Conversion"), target=key_of("Liahona"))
    assert table.say() == ["Ann's Conversion takes Liahona. Points: Ann 3, Ben 3."]
    assert names(table, 1) == ["Nephi", "Conversion", "Plates", "Liahona"]
    table.show(1, "Plates")
    table.show(2, "Prayer")
    assert "once per Battle round" in table.refused("use", seat=1, card=key_of("Conversion"), target=key_of("Prayer"))


def test_a_taken_card_that_cannot_be_used_is_kept_but_counts_nothing():
    """"If this card cannot be used with your cards in play, you still retain it and will add it to your
    Discard pile if you win the Challenge.\""""
    table = prepare_battle({1: ["Gadianton", "Dissenter", "Amulon"], 2: ["Moroni", "Faith: Love", "Sword"]})
    challenge(table, 2)
    table.show(1, "Dissenter"), table.show(2, "Faith: Love"), table.show(1, "Amulon")
    table.ok("use", seat=1, card=key_of("Dissenter"), target=key_of("Faith: Love"))
    assert "cannot be used with those cards in play, but is kept" in table.say()[0]
    table.show(2, "Sword")
    table.ok("resolve")   # Ann 4 against Ben 5
    decided = next(o for o in table.last.outcomes if o.kind == "decided")
    faith = [t for t in decided.terms if t.label == "Faith: Love"]
    assert faith and faith[0].value == 0 and faith[0].detail == "cannot be used with these cards in play"
    assert decided.data["winner"] == 2 and key_of("Faith: Love") in decided.data["captured"]


def test_a_revealed_ability_is_its_owners_until_the_next_reveal():
    """"As soon as a card is revealed, it may be used. If a player chooses not to use the card's abilities
    before the next card is revealed in the Challenge, it may be taken or disabled by an opponent.\""""
    table = prepare_battle({1: ["Helaman", "Escape", "Plates"], 2: ["Ammon", "Conversion", "Liahona"]})
    challenge(table, 2)
    table.show(1, "Escape")
    table.show(2, "Conversion")
    # Ben's Conversion was just revealed: Ann cannot disable it yet; Ann's Escape, not used, can be taken.
    assert "just revealed" in table.refused("use", seat=1, card=key_of("Escape"), target=key_of("Conversion"))
    offered = [a["data"] for a in table.rules.actions(table.state) if a["kind"] == "use"]
    assert {"seat": 2, "card": key_of("Conversion"), "target": key_of("Escape")} in offered
    table.ok("use", seat=2, card=key_of("Conversion"), target=key_of("Escape"))
    assert names(table, 2)[-1] == "Escape"


def test_escape_disables_once_in_each_challenge_and_the_card_returns_if_its_owner_wins():
    """"you may disable one of your opponent's secondary cards. If you lose the Challenge, your opponent's
    disabled card is returned to play. This card may be used once in each Challenge of a Battle round."
    "If the opponent wins the Challenge, he may return the disabled card to the upright position\""""
    table = prepare_battle({1: ["Helaman", "Escape", "Plates"], 2: ["Ammon", "Prayer", "Faith: Love"],
                            3: ["Nephi", "Liahona", "Sword"]})
    challenge(table, 2)
    table.show(1, "Escape"), table.show(2, "Prayer"), table.show(1, "Plates")
    table.ok("use", seat=1, card=key_of("Escape"), target=key_of("Prayer"))
    assert table.say()[0].startswith("Ann's Escape disables Prayer (turned 90 degrees).")
    assert table.state.players[2].play[1].disabled
    assert "once in each Challenge" in table.refused("use", seat=1, card=key_of("Escape"), target=key_of("Prayer"))
    table.show(2, "Faith: Love")
    table.ok("resolve")   # Ann 3 + 2 = 5 against Ben 3 + 0 + 3 + Ammon's Faith: Love bonus 2 = 8
    decided = table.last.outcomes[0]
    assert decided.data["winner"] == 2
    assert [t.detail for t in decided.terms if t.label == "Prayer"] == ["disabled by Escape"]
    assert not table.state.players[2].play[1].disabled, "Ben won: his Prayer is upright again"


def test_deception_adds_a_card_from_the_hand_and_the_winner_takes_it():
    """"Take a card from the six cards in your hand to add it to the cards in play. ... If you lose the
    Challenge, your opponent takes the extra card with the rest he/she has won.\""""
    table = prepare_battle({1: ["Gadianton", "Deception", "Amulon"], 2: ["Moroni", "Sword", "Prayer"]},
                           hands={1: ["Assassination"]})
    challenge(table, 2)
    table.show(1, "Deception")
    table.ok("use", seat=1, card=key_of("Deception"))
    assert "Decide" not in str(table.rules.actions(table.state))
    assert table.state.challenge.deception == 1
    table.show(1, "Assassination")
    assert table.say() == ["Ann adds Assassination from the hand (Deception). Points: Ann 5, Ben 3."]
    assert "Assassination" not in table.hand(1)
    table.show(2, "Sword"), table.show(1, "Amulon"), table.show(2, "Prayer")
    table.ok("resolve")   # Ann 2 + 3 + 2 + Amulon's King Noah bonus 0 = 7 against Ben 3 + 2 + 3 = 8
    decided = table.last.outcomes[0]
    assert decided.data["winner"] == 2 and key_of("Assassination") in decided.data["captured"]


def test_with_one_player_left_to_challenge_the_challenge_starts_by_itself():
    """"The player who made the Call to Battle chooses another player ... and challenges him/her."
    "The winner then challenges another player ... This continues until all players have battled."
    With one other player there is nobody to choose between: no tap, and the prompt names who turns
    a card first."""
    table = battle_two()                                   # two players: Ann called to battle
    assert table.say()[-2:] == ["Phase Two: Call to Battle. Ann is the challenger.",
                                "Ann challenges Ben: \u201cTake up the sword!\u201d"]
    assert table.state.step == Step.REVEAL and table.state.challenge.defender == 2
    assert not any(a["kind"] == "challenge" for a in table.rules.actions(table.state))
    assert table.rules.public_view(table.state)["prompt"] == "Ann: turn over your next facedown card."
    three = three_players()                                # the last of three, once two have battled
    challenge(three, 3)
    three.show(1, "Sword"), three.show(3, "Plates")
    three.ok("resolve")
    assert three.say()[-1] == "Ann challenges Ben: \u201cTake up the sword!\u201d"
    assert three.rules.public_view(three.state)["prompt"] == "Ben: turn over your next facedown card."


def test_the_first_card_another_player_turns_over_names_whom_the_challenger_challenges():
    """"The player who made the Call to Battle chooses another player ... and challenges him/her by
    saying, 'Take up the sword!'" "The player who made the Challenge then reveals the first facedown
    card on the right of his/her Warrior. His/her opponent does the same." The camera sees in whose
    area the opponent's first card is turned: that names the opponent, no tap."""
    table = prepare_battle({1: ["Nephi", "Prophecy"], 2: ["Laman", "Lib"], 3: ["Moroni", "Sword"],
                            4: ["Lehi", "Sword#2"]})
    view = table.rules.public_view(table.state)
    assert view["prompt"] == ("Ann: turn over your first facedown card; then the player you challenge "
                              "(Ben, Cy or Dee) turns theirs, or tap whom you challenge.")
    assert view["turn"] == 1
    assert "Ann turns a card first" in table.refused("card_seen", zone="seat:3", card=key_of("Sword"))
    table.show(1, "Prophecy")
    assert table.say() == ["Ann reveals Prophecy; the first card another player turns over names whom Ann challenges."]
    assert table.state.step == Step.CHALLENGE and table.state.challenge is None
    assert "the choice is made" in table.refused("prophecy", seat=1, targets=[2, 3])
    view = table.rules.public_view(table.state)
    assert view["prompt"] == (
        "Ben, Cy or Dee: the player Ann challenges turns over their first facedown card, or tap whom Ann challenges.")
    assert view["turn"] is None, "any of three may turn next: the tablet rings nobody"
    table.show(3, "Sword")
    assert table.say() == ["Ann challenges Cy: \u201cTake up the sword!\u201d",
                           "Cy reveals Sword. Points: Ann 3, Cy 5."]
    assert table.state.challenge.defender == 3 and table.state.battled == [1, 3]
    assert "Ann turns a card next" not in table.rules.public_view(table.state)["prompt"]


def test_the_challengers_first_card_is_not_taken_by_the_card_that_names_the_opponent():
    """"As soon as a card is revealed, it may be used. If a player chooses not to use the card's
    abilities before the next card is revealed in the Challenge, it may be taken or disabled by an
    opponent." Turned before anyone was challenged, the challenger's first card could not be used
    against anybody: it counts as just turned until the opponent's first card is up."""
    table = prepare_battle({1: ["Helaman", "Escape"], 2: ["Nephi", "Conversion"], 3: ["Moroni", "Sword"]})
    table.show(1, "Escape"), table.show(2, "Conversion")
    assert table.state.challenge.defender == 2
    assert "was just revealed" in table.refused("use", seat=2, card=key_of("Conversion"), target=key_of("Escape"))


def test_the_tap_still_names_the_opponent_after_the_challengers_first_card():
    """A table that names the opponent aloud taps it; the challenger's card already turned counts, and
    the opponent turns next ("His/her opponent does the same")."""
    table = prepare_battle({1: ["Nephi", "Prophecy"], 2: ["Laman", "Lib"], 3: ["Moroni", "Sword"]})
    table.show(1, "Prophecy")
    table.ok("challenge", target=2)
    assert table.state.challenge.next == 2 and table.state.challenge.reveals == 1
    assert table.rules.public_view(table.state)["prompt"] == "Ben: turn over your next facedown card."
    table.show(2, "Lib")
    assert table.rules.public_view(table.state)["prompt"].startswith("Every card is turned over")


def test_prophecy_shows_two_players_face_down_cards_to_the_challenger_only():
    """"if you are the challenger, you may privately look at two players' facedown cards before deciding
    which player to challenge.\""""
    table = prepare_battle({1: ["Nephi", "Prophecy"], 2: ["Laman", "Lib"], 3: ["Moroni", "Sword"]})
    table.ok("prophecy", seat=1, targets=[2, 3])
    assert table.last.reveals
    assert table.say() == ["Ann uses Prophecy and looks privately at Ben and Cy's facedown cards."]
    seen = table.rules.seat_view(table.state, 1)["you"]["prophecy"]
    assert [s["name"] for s in seen] == ["Lib", "Sword"]
    assert "LIB#1" not in str(table.rules.seat_view(table.state, 3))
    assert "SWORD#1" not in str(table.rules.seat_view(table.state, 2))
    assert "LIB#1" not in str(table.rules.public_view(table.state))
    assert "already looked" in table.refused("prophecy", seat=1, targets=[2, 3])


def test_prophecy_looks_at_two_players_never_three():
    """"you may privately look at two players' facedown cards": at a table of four, the challenger
    may not look at all three others."""
    table = prepare_battle({1: ["Nephi", "Prophecy"], 2: ["Laman", "Lib"], 3: ["Moroni", "Sword"],
                            4: ["Lehi", "Sword#2"]})
    assert "two players' facedown cards" in table.refused("prophecy", seat=1, targets=[2, 3, 4])
    assert table.state.peeks == {} and not table.state.prophecy_used
    table.ok("prophecy", seat=1, targets=[3, 4])


def test_prophecy_is_refused_without_the_card():
    table = prepare_battle({1: ["Nephi", "Plates"], 2: ["Laman", "Lib"], 3: ["Moroni", "Sword"]})
    assert "no Prophecy card in play" in table.refused("prophecy", seat=1, targets=[2])


# -- The special battle ----------------------------------------------------------------------------------------
def test_coriantumr_and_shiz_the_special_battle():
    """"If a battle finds Coriantumr and Shiz facing off against each other ..., a special battle ensues.
    ... each opponent must lay down all six cards in his/her hand to help in the battle. Each opponent
    may then use any cards from his/her six that can be played with the cards currently in play. ... the
    winner takes all of his opponent's played cards, including any of the six that were not able to be
    used ... Both players ... must choose six new cards from their decks (3 Warrior and 3 Armory).\""""
    table = prepare_battle({1: ["Coriantumr", "Sword"], 2: ["Shiz", "Lib"]})
    challenge(table, 2)
    table.show(1, "Sword"), table.show(2, "Lib")
    assert table.state.step == Step.DUEL
    assert table.say()[-1].startswith("Coriantumr and Shiz face each other: the special battle!")
    assert "still hold cards" in table.refused("resolve")
    for seat in (1, 2):
        for key in list(table.state.players[seat].hand):
            table.show(seat, key)
    assert table.state.players[1].hand == [] == table.state.players[2].hand
    table.ok("resolve")
    decided = table.last.outcomes[0]
    winner, loser = decided.data["winner"], decided.data["loser"]
    assert decided.data["duel"] and len(decided.data["captured"]) == 2 + 6 + 6
    assert table.state.step == Step.REDRAW
    for seat in (1, 2):
        used = {k for p in table.state.players.values() for k in p.discard + p.hand + [c.card for c in p.play]}
        for warrior in (True, True, True, False, False, False):
            assert not hasattr(table.scan(seat, _filler(used, warrior)), "reason")
    assert all(len(table.state.players[s].hand) == 6 for s in (1, 2))
    assert table.state.step == Step.PRIMARY and table.state.leader == winner != loser


# -- Winning and losing -----------------------------------------------------------------------------------------
def test_a_player_who_cannot_refill_the_hand_surrenders_to_the_last_winner_and_one_holds_all():
    """"if any player can no longer bring the number of cards in his/her hand up to six ..., he/she
    surrenders the remaining cards to the winner of the last Challenge of that round." "The game may be
    played until one player holds all the cards and is declared the winner.\""""
    table = prepare_battle({1: ["Moroni", "Sword"], 2: ["Laman", "Lib"]})
    challenge(table, 2)
    table.show(1, "Sword"), table.show(2, "Lib")
    table.state.players[2].warrior_deck = table.state.players[2].armory_deck = 0   # Ben's decks ran out
    table.state.players[2].hand.pop()                                               # and his hand is short
    table.ok("resolve")
    kinds = [o.kind for o in table.last.outcomes]
    assert kinds == ["decided", "round_over", "surrender", "game_over"]
    assert table.say()[2] == "Ben cannot bring the hand back up to six and surrenders the remaining cards to Ann."
    assert table.state.over and table.state.winner == 1
    assert table.rules.public_view(table.state)["seats"][1]["total"] == 0


def test_stopping_the_game_the_most_warrior_cards_wins():
    """"If players decide to stop the game before that, players simply count up all their cards. The
    player with the most Warrior cards wins.\""""
    table = battle_two()
    challenge(table, 2)
    for seat, name in ((1, "Sword"), (2, "Javelin"), (1, "Faith: Steadfast"), (2, "Lib")):
        table.show(seat, name)
    table.ok("resolve")
    table.ok("stop")
    stopped = table.last.outcomes[0]
    counts = stopped.data["counts"]
    assert counts[1]["cards"] + counts[2]["cards"] == 68 + 84, "every card is counted once"
    assert counts[1]["warriors"] > counts[2]["warriors"], "Ann captured Zerahemnah and Lib"
    assert stopped.data["winner"] == 1 and table.state.over


def test_when_nobody_can_go_on_the_cards_are_counted():
    """Both players' decks run out together: neither can bring the hand back to six, there is nobody to
    surrender to, and the game ends as if stopped ("The player with the most Warrior cards wins")."""
    table = prepare_battle({1: ["Moroni", "Sword"], 2: ["Laman", "Lib"]})
    challenge(table, 2)
    table.show(1, "Sword"), table.show(2, "Lib")
    for seat in (1, 2):
        p = table.state.players[seat]
        p.warrior_deck = p.armory_deck = 0
        p.hand.pop()
    table.ok("resolve")
    assert [o.kind for o in table.last.outcomes] == ["decided", "round_over", "stopped"]
    assert table.say()[-1].startswith("Nobody can bring the hand back up to six. Warrior cards: Ann ")
    assert table.state.over and table.state.winner == 1


def test_a_whole_round_of_passes_begins_the_battle():
    """The rulebook has no end to a Phase One where nobody can lay a card; the companion begins the
    battle as if the last to pass had called it (docs/referee/warriors.md)."""
    table = dealt(WarriorsTable(), {1: ["Teancum", "Sam", "Zoram", "Murmuring", "Secret Combination", "Wickedness: Greed"],
                                    2: ["Laman", "Abish", "Jared", "Faith: Love", "Prayer", "Plates"]})
    table.show(1, "Teancum"), table.scan(1, "Ether")          # Ann: Righteous, nothing in hand goes with Teancum
    table.show(2, "Laman"), table.scan(2, "Nephi")            # Ben: Wicked, nothing in hand goes with Laman
    table.ok("pass", seat=1)
    table.ok("pass", seat=2)
    assert table.say() == ["Ben holds no card that can be laid and passes.",
                           "Nobody could lay a card this round: the battle begins, as if Ben, the last to pass, had called it.",
                           "Phase Two: Call to Battle. Ben is the challenger.",
                           "Ben challenges Ann: \u201cTake up the sword!\u201d"]
    assert table.state.step.value == "reveal" and table.state.challenge.challenger == 2


def test_a_warrior_who_captures_takes_the_top_of_the_losers_discard_pile():
    """"The winner of each Challenge normally captures only the cards immediately in play, not the cards in
    his/her opponent's Discard pile, but exceptions may be found in the "Special Abilities" on certain
    cards." Giddianhi: "When he wins a Challenge, also capture the top card of the loser's Discard pile.\""""
    table = prepare_battle({1: ["Giddianhi", "Sword"], 2: ["Laman", "Lib"], 3: ["Nephi", "Plates"]}, caller=2)
    challenge(table, 3)
    table.show(2, "Lib"), table.show(3, "Plates")
    table.ok("resolve")                         # Ben 4, Cy 3: Nephi and Plates on Ben's Discard pile
    assert names(table, 2, "discard") == ["Nephi", "Plates"]
    challenge(table, 1)
    table.show(1, "Sword")
    table.ok("resolve")                         # Ann 5, Ben 4
    decided = table.last.outcomes[0]
    assert decided.data["winner"] == 1 and decided.data["from_discard"] == [key_of("Plates")]
    assert decided.say == "Ann wins the Challenge 5 to 4 and captures Ben's 2 cards and 1 from the top of the Discard pile."
    assert names(table, 2, "discard") == ["Nephi"]


def test_the_first_player_must_be_a_seat_of_the_table():
    with pytest.raises(SetupError, match="must be one of the 2 seats"):
        WarriorsTable(2, first=3)


def test_deception_stays_in_play_for_the_round_and_is_used_once():
    """"The card stays in play for the rest of the battle round." "The Deception card may only be used
    once per Battle round.\""""
    table = prepare_battle({1: ["Gadianton", "Deception", "Amulon"], 2: ["Laman", "Lib", "Morianton"],
                            3: ["Nephi", "Plates", "Liahona"]}, hands={1: ["Assassination", "Secret Combination"]})
    challenge(table, 2)
    table.show(1, "Deception")
    table.ok("use", seat=1, card=key_of("Deception"))
    table.show(1, "Assassination")
    table.show(2, "Lib"), table.show(1, "Amulon"), table.show(2, "Morianton")
    table.ok("resolve")                        # Ann 2 + 3 + 2 = 7 against Ben 2 + 2 + 2 = 6
    assert table.last.outcomes[0].data["winner"] == 1
    assert "Assassination" in names(table, 1)
    challenge(table, 3)
    reason = table.refused("use", seat=1, card=key_of("Deception"))
    assert "may only be used once per Battle round" in reason


def test_the_tablet_says_a_privately_scanned_card_shows_its_face_in_the_covered_tray():
    """docs/referee/warriors.md: the covered scan tray is "the card's face shown to the camera under a
    cover"; the tablet must not tell a player to lay it face down there (the camera would see its back)."""
    table = WarriorsTable()
    prompt = table.rules.public_view(table.state)["prompt"]
    assert "face up in the covered scan tray" in prompt
    table.deal(1, *ANN)
    table.deal(2, *BEN)
    table.ok("card_seen", zone="seat:1", card=key_of(ANN[0]))
    prompt = table.rules.public_view(table.state)["prompt"]
    assert "draw a Warrior or Armory card" in prompt and "face up in the covered scan tray" in prompt


def test_the_end_names_the_games_winner_not_the_last_challenges():
    """"If players decide to stop the game before that, players simply count up all their cards. The
    player with the most Warrior cards wins." The last Challenge is not the game: once it is over, the
    line the table shows big says who won the game and how."""
    table = stopped_after_a_challenge()
    view = table.rules.public_view(table.state)
    assert view["over"] and view["winner"] == 1
    assert view["last_outcome"]["say"] == "The game is stopped: Ann has the most Warrior cards and wins the game."


def stopped_after_a_challenge():
    """Ann challenges Ben and wins, then the table stops the game and counts (Ann 25, Ben 21, Cy 22)."""
    table = three_players()
    challenge(table, 2)
    table.show(1, "Sword"), table.show(2, "Lib")
    table.ok("resolve")
    assert table.say() == ["Ann wins the Challenge 5 to 4 and captures Ben's 2 cards.",
                           "Ann challenges Cy: \u201cTake up the sword!\u201d"]
    table.ok("stop")
    return table


def test_a_decided_challenge_keeps_no_sentence_in_state_and_the_table_still_reads_its_terms():
    """Words live in the view: the state (and so every snapshot) keeps the cards a Challenge was
    decided on, and the tablet's result box scores them again, the same terms as the decision."""
    from tests.test_contract_words import strings

    table = prepare_battle({1: ["Gadianton", "Dissenter", "Amulon"], 2: ["Moroni", "Faith: Love", "Sword"]})
    challenge(table, 2)
    table.show(1, "Dissenter"), table.show(2, "Faith: Love"), table.show(1, "Amulon")
    table.ok("use", seat=1, card=key_of("Dissenter"), target=key_of("Faith: Love"))
    table.show(2, "Sword")
    table.ok("resolve")
    decided = next(o for o in table.last.outcomes if o.kind == "decided")
    state = table.state
    names = {s.name for s in state.seats}
    assert [s for s in strings(state) if " " in s and s not in names] == []
    shown = table.rules.public_view(state)["last_outcome"]["terms"]
    assert [(t["value"], t["detail"]) for t in shown] == [(t.value, t.detail) for t in decided.terms]
    assert "Faith: Love" in {t["label"].partition(": ")[2] for t in shown}


def test_a_challenge_decides_itself_once_every_card_is_up_with_one_resolve_button_when_a_card_could_be_used():
    """Issue 33: a Challenge decides itself where the table can see it. Once the last card is turned
    over and no revealed card can still be used, the session resolves without a tap, the prompt says so
    and names nobody to turn a card; where a card could still be used ("As soon as a card is revealed,
    it may be used"), going without it is one button, "Decide the Challenge", and the page's own
    Resolve is hidden (two buttons for one step were one too many)."""
    table = battle_two()
    challenge(table, 2)
    for seat, name in ((1, "Sword"), (2, "Javelin"), (1, "Faith: Steadfast")):
        table.show(seat, name)
    view = table.rules.public_view(table.state)
    assert view["prompt"] == "Ben: turn over your next facedown card." and view["turn"] == 2
    assert not table.rules.ready_to_resolve(table.state)
    table.show(2, "Lib")
    view = table.rules.public_view(table.state)
    assert table.rules.ready_to_resolve(table.state)
    assert view["prompt"] == "Every card is turned over: the Challenge is decided as soon as the table is still."
    assert view["turn"] is None and view["challenge"]["turns_next"] is None
    assert table.rules.uses_resolve is False, "the page's own Resolve is not a second button"
    assert [a["label"] for a in table.rules.actions(table.state) if a["kind"] == "resolve"] == ["Decide the Challenge"]

    usable = prepare_battle({1: ["Helaman", "Escape", "Plates"], 2: ["Ammon", "Conversion", "Liahona"]})
    challenge(usable, 2)
    for seat, name in ((1, "Escape"), (2, "Conversion"), (1, "Plates"), (2, "Liahona")):
        usable.show(seat, name)
    view = usable.rules.public_view(usable.state)
    assert not usable.rules.ready_to_resolve(usable.state), "a card that could be used waits for the players"
    assert view["prompt"].startswith("Every card is turned over: use ") and "Decide the Challenge" in view["prompt"]
    assert [a["kind"] for a in usable.rules.actions(usable.state)].count("resolve") == 1
