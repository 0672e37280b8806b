"""Spy's Trivia: CHARACTER cards only, clues one at a time, never the name before the card is won."""
import json

from companion.gamelog.session import Session, public_entry
from companion.gamelog.store import Store
from tests.test_bom_support import RULES, Table

CHARACTER_KEYS = RULES.deck.keys("character")


def test_the_character_cards_are_divided_evenly_and_the_power_cards_put_away():
    """"Using just the CHARACTER cards, shuffle and divide the deck evenly.\""""
    t = Table(3, spys_trivia=True)
    assert t.view()["trivia"]["remaining"] == 56
    assert [s["unread"] for s in t.view()["seats"]] == [19, 19, 18]
    assert "just the CHARACTER cards" in t.refused("card_seen", zone="tray", card="FAITH#1")
    assert "scan tray" in t.refused("card_seen", zone="seat:1", card="GD100#1")
    assert "Spy's Trivia has no battles" in t.refused("resolve")


def test_clues_come_one_at_a_time_and_the_name_never_shows_until_the_card_is_won():
    """"One player starts with the top card and reads the clues about the character in the character
    description section of the card.\""""
    t = Table(3, spys_trivia=True)
    scan = t.do("card_seen", zone="tray", card="BD500#1")
    assert scan.reveals and scan.outcomes[0].say == ("Seat 1 (Ann) reads a new character. "
                                                     "Clue 1 of 5: He was a lawyer of Ammonihah.")
    t.do("trivia_clue")
    current = t.view()["trivia"]["current"]
    assert current["clues"] == ["He was a lawyer of Ammonihah.", "He offered six onties of silver to deny God."]
    assert current["clue_count"] == 5
    for shown in (t.view(), RULES.actions(t.state), [o.as_dict() for o in t.outcomes]):
        text = json.dumps(shown, ensure_ascii=False)
        assert "Zeezrom" not in text and "BD500" not in text and "zee-EZ-rum" not in text and "Alma 11" not in text
    for _ in range(3):
        t.do("trivia_clue")
    assert "All 5 clues are showing" in t.refused("trivia_clue")


def test_the_first_to_guess_gets_the_card_and_the_reading_passes_clockwise():
    """"The player who guesses first gets the card. Players do not need to wait for the complete
    description to be read.\""""
    t = Table(3, spys_trivia=True)
    t.do("card_seen", zone="tray", card="GD100#1")
    outcome = t.do("trivia_award", seat=2).outcomes[0]
    assert outcome.say == "Seat 2 (Bo) knew it: Sam (SAM), 1 Nephi 2. Seat 2 (Bo) wins the card."
    view = t.view()
    assert view["trivia"]["last"]["name"] == "Sam" and view["trivia"]["reader"] == 2
    assert view["standings"][0] == {"seat": 2, "name": "Bo", "say": "", "score": 1, "eliminated": False,
                                    "counts": {"cards": 1, "unread": 19}}
    assert view["seats"][0]["unread"] == 18
    assert t.do("card_seen", zone="tray", card="GD100#1").outcomes == (), "seen again where it lies: the same card"
    t.do("card_gone", zone="tray", card="GD100#1")
    assert "read already" in t.refused("card_seen", zone="tray", card="GD100#1")


def test_the_reader_cannot_win_the_card_by_guessing():
    t = Table(3, spys_trivia=True)
    t.do("card_seen", zone="tray", card="GD100#1")
    assert "is the reader and has seen the card" in t.refused("trivia_award", seat=1)
    assert "A card is being read" in t.refused("card_seen", zone="tray", card="GD200#1")


def test_a_tie_asks_for_the_book_or_chapter_and_one_of_the_tied_players_wins():
    """"If there is a tie (or just to make the game more challenging), ask for the book of scripture or
    chapter where this character can be found. Whoever guesses first or closest wins the card.\""""
    t = Table(4, spys_trivia=True)
    t.do("card_seen", zone="tray", card="BO5000#1")
    tie = t.do("trivia_tie", seats=[2, 4]).outcomes[0]
    assert tie.say == ("Seat 2 (Bo) and Seat 4 (Di) guessed together. Tie! In which book of scripture, and which "
                       "chapter, is this character found?")
    assert t.view()["trivia"]["current"]["question"].startswith("Tie! In which book of scripture")
    assert "Seat 2 (Bo) or Seat 4 (Di)" in t.refused("trivia_award", seat=3)
    outcome = t.do("trivia_award", seat="4").outcomes[0]
    assert outcome.say == "Seat 4 (Di) named the book and chapter: Shiz (SHIZ), Ether 15. Seat 4 (Di) wins the card."
    nxt = t.do("card_seen", zone="tray", card="GO100#1").outcomes[0]
    assert nxt.kind == "trivia_clue" and nxt.data["reader"] == 2, "the reading passed clockwise to Bo"
    assert t.view()["trivia"]["current"]["tie"] == [] and t.view()["trivia"]["current"]["question"] is None
    assert "two or more seats" in t.refused("trivia_tie", seats=[3])
    t.do("trivia_tie", seats="1,3")  # as the tablet's chooser sends it
    assert t.view()["trivia"]["current"]["tie"] == [1, 3]


def test_the_book_and_chapter_may_be_asked_without_a_tie():
    """"If there is a tie (or just to make the game more challenging), ask for the book of scripture or
    chapter where this character can be found. Whoever guesses first or closest wins the card.\""""
    t = Table(3, spys_trivia=True)
    t.do("card_seen", zone="tray", card="BO5000#1")
    assert "Ask for the book and chapter" in [b["label"] for b in RULES.actions(t.state)]
    asked = t.do("trivia_ask").outcomes[0]
    assert asked.say == "Everyone may answer: In which book of scripture, and which chapter, is this character found?"
    assert t.view()["trivia"]["current"]["question"] == "In which book of scripture, and which chapter, is this character found?"
    assert t.view()["prompt"] == t.view()["trivia"]["current"]["question"]
    assert "asked for already" in t.refused("trivia_ask")
    assert "Ask for the book and chapter" not in [b["label"] for b in RULES.actions(t.state)]
    won = t.do("trivia_award", seat=3).outcomes[0]
    assert won.say == "Seat 3 (Cy) named the book and chapter: Shiz (SHIZ), Ether 15. Seat 3 (Cy) wins the card."
    assert "No card is being read" in Table(3, spys_trivia=True).refused("trivia_ask")


def test_if_no_one_knows_the_reader_keeps_the_card():
    """"If no one knows the character, the reader keeps the card to add to his winnings and play
    proceeds clockwise.\""""
    t = Table(2, spys_trivia=True)
    t.do("card_seen", zone="tray", card="BD300#1")
    outcome = t.do("trivia_nobody").outcomes[0]
    assert outcome.say == "Nobody knew: it was Seantum (see-AN-tum), Helaman 9. The reader, Seat 1 (Ann), keeps the card."
    assert t.view()["trivia"]["last"]["kept_by_reader"] and t.view()["trivia"]["reader"] == 2
    assert [s["cards"] for s in t.view()["seats"]] == [1, 0]


def test_the_game_ends_when_all_cards_have_been_read_and_the_best_spy_wins():
    """"The game ends when all cards have been read. The best spy is the one who knows the characters the
    best and thus has the most cards.\""""
    t = Table(3, spys_trivia=True)
    for number, key in enumerate(CHARACTER_KEYS):
        t.do("card_seen", zone="tray", card=key)
        reader = t.state.trivia.reader
        if number % 4 == 0:
            t.do("trivia_nobody")
        else:
            t.do("trivia_award", seat=3 if reader != 3 else 2)
    view = t.view()
    assert view["over"] and view["trivia"]["remaining"] == 0 and view["trivia"]["read"] == 56
    assert sum(s["score"] for s in view["standings"]) == 56
    assert view["winner"] == 3 and t.outcomes[-1].kind == "game_over"
    assert "All the cards have been read: Seat 3 (Cy) is the best spy" in t.outcomes[-1].say


def test_the_card_being_read_is_not_named_in_the_public_history(tmp_path):
    store = Store(tmp_path / "companion.db")
    session = Session.start(store, "bom-battle", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}],
                            {"spys_trivia": True})
    session.submit("card_seen", {"zone": "tray", "card": "BD500#1"}, "camera")
    history = json.dumps(session.history(), ensure_ascii=False)
    assert "BD500" not in history and "Zeezrom" not in history
    assert public_entry(session.derived.entries[-1], session.ruleset)["data"] == {"zone": "tray"}
    assert "Zeezrom" not in json.dumps(session.public_view(), ensure_ascii=False)
    nothing = session.submit("undo")
    assert not nothing.ok, "showing a clue cannot be taken back"


def test_a_shorter_game_of_spys_trivia_ends_on_the_timer_with_a_last_battle_for_a_tie():
    t = Table(2, spys_trivia=True, shorter_game_minutes=10)
    t.do("card_seen", zone="tray", card="GD100#1")
    t.do("trivia_award", seat=2)
    t.do("card_seen", zone="tray", card="GD200#1")
    t.do("trivia_award", seat=1)
    t.do("card_seen", zone="tray", card="GD300#1")
    outcome = t.do("time_up").outcomes[0]
    assert outcome.data["tied"] == [1, 2], "the card being read is abandoned"
    assert "Time is up" in t.refused("trivia_award", seat=1)
    t.play({1: ["GD900"], 2: ["BD900"]})
    assert t.do("resolve").outcomes[0].data["winner"] == 1
