"""The tag payload: short enough for a version-1 QR code, and strict about what it accepts."""
import pytest
import segno

from card_tags.payload import CardRef, PayloadError, decode, encode


def test_round_trip_names_game_card_and_copy():
    ref = CardRef("bom-battle", "GD500", 2)
    assert decode(encode(ref)) == ref


@pytest.mark.parametrize("game", ["bom-battle", "warriors", "gt-battle", "stratego", "battlecards-pacific"])
def test_the_longest_payload_fits_a_version_1_qr_code(game):
    text = encode(CardRef(game, "ABCDEFGH", 99))
    assert segno.make(text, error="m", micro=False).version == 1


@pytest.mark.parametrize("text, why", [
    ("https://example.com/", "not a table-companion tag"),
    ("TC1:BM:GD500:2", "5 fields"),
    ("TC1:BM:GD500:2:A", "check character"),
    ("TC1:ZZ:GD500:2:" , "check character"),
    ("TC1:bm:gd500:2:K", "characters a tag never has"),   # not a crash: the camera may see such a code
])
def test_foreign_and_damaged_codes_are_refused_with_the_reason(text, why):
    with pytest.raises(PayloadError, match=why):
        decode(text)


def test_a_single_changed_character_is_caught_by_the_check_character():
    good = encode(CardRef("stratego", "R10", 1))
    body, check = good.rsplit(":", 1)
    for i, c in enumerate(body):
        if c == ":":
            continue
        for other in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ":
            if other != c:
                with pytest.raises(PayloadError):
                    decode(body[:i] + other + body[i + 1:] + ":" + check)


def test_a_game_is_one_line_in_one_registry():
    """Issue 31: adding a game is one registry line (card_tags/games/__init__.py): its id, its tag code
    and its referee's package. The tag codes, the catalogs and the referees are all found from it, and
    every line has them all (a line without its schema, deck or referee is found here, not at a table)."""
    import importlib
    import importlib.util

    from card_tags.catalog import load_game, reference_deck_path
    from card_tags.games import GAMES
    from card_tags.payload import GAME_CODES
    from companion import rules

    assert GAME_CODES == {g.game: g.code for g in GAMES}
    assert len(set(GAME_CODES.values())) == len(GAMES), "a tag code names one game"
    assert all(g.code.isascii() and g.code.isalnum() and g.code.isupper() and len(g.code) == 2 for g in GAMES)
    assert {g: rules.GAMES[g] for g in GAME_CODES} == {g.game: f"companion.rules.{g.referee}" for g in GAMES}
    for g in GAMES:
        assert reference_deck_path(g.game).is_file(), g.game
        assert hasattr(importlib.import_module(g.cards_module), "SCHEMA"), g.game
        assert importlib.util.find_spec(f"companion.rules.{g.referee}") is not None, g.game
        assert rules.ruleset_class(g.game).game == g.game
        assert load_game(g.game).game == g.game
