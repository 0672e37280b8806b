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
