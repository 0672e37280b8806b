"""Which cards may be laid, at the moment they are laid: the rulebook's "CHOOSING WHICH CARDS TO
PLAY WITH A WARRIOR", "MAKING A CHAIN" and "USING RIGHTEOUS AND WICKED CARDS", with its own
examples, at the table (the companion learns each face-down card from the seat's reader)."""
from __future__ import annotations

from companion.rules.warriors.cards import info, why_not_primary, why_not_secondary
from companion.rules.warriors.refusals import COMBINATION
from tests.test_warriors_support import CATALOG, dealt, key_of, prepare_battle, WarriorsTable


def card(name):
    return info(CATALOG, key_of(name))


def test_example_abinadi_cannot_take_a_sword():
    """"Example: If your primary card is "Abinadi," you cannot play a "Sword" card (no matching icons).\""""
    table = dealt(WarriorsTable(), {1: ["Abinadi", "Moroni", "Lehi", "Sword", "Arrow", "Plates"],
                                    2: ["Laman", "Lib", "Shiz", "Javelin", "Shield", "Sword#2"]})
    table.show(1, "Abinadi")
    table.scan(1, "Nephi")
    table.show(2, "Laman")
    table.scan(2, "Amlici")
    public, full = table.refused_in_secret("card_seen", zone="reader:1", card=key_of("Sword"))
    assert "at least one icon that matches the icon of a Warrior card already played" in full
    assert "Sword" not in full, "the refusal names no face-down card"
    assert "icon" not in public, "the table does not learn which rule the face-down card broke"
    assert table.state.players[1].play[1:] == []


def test_example_moroni_with_abinadi_then_the_sword_through_moroni():
    """"Example: If you first play "Moroni" with the primary card of "Abinadi" (matching icons), then
    you can play the "Sword" card (matching icon with Moroni).\""""
    table = prepare_battle({1: ["Abinadi", "Moroni", "Sword"], 2: ["Laman", "Lib", "Shiz"]})
    assert [c.card for c in table.state.players[1].play] == [key_of("Abinadi"), key_of("Moroni"), key_of("Sword")]
    assert why_not_secondary(card("Sword"), [card("Abinadi")]) is not None
    assert why_not_secondary(card("Sword"), [card("Abinadi"), card("Moroni")]) is None


def test_example_lehi_and_reinforcements_cannot_take_king_lamoni():
    """"Example: If you played "Lehi" and the "Reinforcements" card (matching icons), you could not then
    play "King Lamoni" (matching icon with "Reinforcements" but not with "Lehi")." "A Chain can only be
    made between Warrior cards. Armory cards cannot be used to make a Chain.\""""
    table = prepare_battle({1: ["Lehi", "Reinforcements"], 2: ["Laman", "Lib"]}, caller=2, hands={1: ["King Lamoni"]})
    assert [c.card for c in table.state.players[1].play] == [key_of("Lehi"), key_of("Reinforcements")]
    assert "King Lamoni" in table.hand(1)
    assert why_not_secondary(card("Reinforcements"), [card("Lehi")]) is None
    assert why_not_secondary(card("King Lamoni"), [card("Lehi")]) is not None
    assert set(card("King Lamoni").icons) & set(card("Reinforcements").icons), "the example needs the shared icon"


def test_lehi_and_reinforcements_refuse_king_lamoni_at_the_table():
    table = dealt(WarriorsTable(), {1: ["Lehi", "King Lamoni", "Moroni", "Reinforcements", "Arrow", "Plates"],
                                    2: ["Laman", "Lib", "Shiz", "Javelin", "Shield", "Sword"]})
    table.show(1, "Lehi"), table.scan(1, "Gid")
    table.show(2, "Laman"), table.scan(2, "Amlici")
    table.scan(1, "Reinforcements"), table.scan(1, "Gideon")
    table.scan(2, "Lib"), table.scan(2, "Morianton")
    public, full = table.refused_in_secret("card_seen", zone="reader:1", card=key_of("King Lamoni"))
    assert "Armory cards cannot be used to make a Chain" in full


def test_the_primary_warrior_must_have_icons():
    """"The first player chooses a Warrior to play as his/her primary card (the chosen Warrior must have icons)\""""
    assert why_not_primary(card("Sam")) == "no_icons"
    assert why_not_primary(card("Sword")) is not None
    assert why_not_primary(card("Nephi")) is None
    table = dealt(WarriorsTable(), {1: ["Sam", "Nephi", "Lehi", "Sword", "Arrow", "Plates"],
                                    2: ["Laman", "Lib", "Shiz", "Javelin", "Shield", "Sword#2"]})
    assert "must have icons" in table.refused("card_seen", zone="seat:1", card=key_of("Sam"))
    table.show(1, "Nephi")
    assert table.state.players[1].play[0].card == key_of("Nephi")


def test_righteous_and_wicked_warriors_never_mix():
    """"'Wicked' Warriors cannot be played with 'Righteous' Warriors and vice versa.\""""
    assert why_not_secondary(card("Laban"), [card("Nephi")]) == "side"  # shares the sword icon
    assert why_not_secondary(card("Moroni"), [card("Laman")]) == "side"
    assert "cannot be played with" in COMBINATION["side"]
    assert why_not_secondary(card("Lehi"), [card("Nephi")]) is None


def test_an_armory_card_with_a_dot_goes_with_any_warrior_of_its_kind():
    """"Any Armory card with a yellow or red dot in place of an icon may be played with any
    corresponding (Righteous or Wicked) Warrior card.\""""
    assert why_not_secondary(card("Prayer"), [card("Teancum")]) is None          # Teancum has no icon in common
    assert why_not_secondary(card("Faith: Love"), [card("Laman")]) is not None
    assert why_not_secondary(card("Secret Combination"), [card("Laman")]) is None
    assert why_not_secondary(card("Murmuring"), [card("Nephi")]) is not None


def test_a_warrior_without_icons_joins_the_warrior_his_card_names():
    """The reference deck's `joins` (docs/decks/warriors.md): "May be played as a secondary card with
    Nephi, even without a matching icon."; a joining Warrior brings no icons to a chain."""
    assert why_not_secondary(card("Sam"), [card("Nephi")]) is None
    assert why_not_secondary(card("Sam"), [card("Lehi")]) is not None


def test_the_verdict_is_public_and_the_card_stays_in_the_seat_view():
    """The legality verdict is said to the table; the face-down card is only in its owner's view."""
    table = prepare_battle({1: ["Abinadi", "Moroni"], 2: ["Laman", "Lib"]})
    laid = [o for o in table.outcomes if o.kind == "laid" and o.data["seat"] == 1][0]
    assert laid.say == "Ann's 1st card is legal: laid face down."
    public = table.rules.public_view(table.state)
    assert public["seats"][0]["play"][1] == {"key": "", "name": "face down", "face_down": True, "position": 1,
                                            "place": "1st secondary"}
    assert "MORONI" not in str(public) and "Moroni" not in str(public)
    mine = table.rules.seat_view(table.state, 1)["you"]["face_down"]
    assert mine == [{"key": key_of("Moroni"), "name": "Moroni", "position": 1}]
    assert "MORONI" not in str(table.rules.seat_view(table.state, 2))
