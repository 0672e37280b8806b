"""Which cards a result names, for their faces (companion/web/faces.py): never a card the words
keep hidden, each card once, in the result's own order."""
from __future__ import annotations

from companion import rules
from companion.web.faces import entry_faces, named_cards, seat_faces

STRATEGO = rules.make("stratego").catalog
GT = rules.make("gt-battle").catalog
BOM = rules.make("bom-battle").catalog


def names(data, catalog, colours=None) -> list[str]:
    return [card.name for _, card in named_cards(data, catalog, colours)]


def test_a_defender_that_need_not_reveal_has_no_face():
    """"When a piece is attacked, the defender only reveals their piece if it's defeated, or If it is
    attacked by a Scout." The referee records the hidden rank as None: no face is drawn for it."""
    combat = {"combat": 4, "winner": "defender", "attacker": {"seat": 1, "rank": "5"}, "defender": {"seat": 2, "rank": None}}
    assert names(combat, STRATEGO, {1: "red", 2: "blue"}) == ["Lieutenant"]
    shown = {**combat, "defender": {"seat": 2, "rank": "B"}}
    faces = [f for f in entry_faces({"status": "applied", "outcomes": [{"kind": "combat", "data": shown}]},
                                    STRATEGO, {1: "red", 2: "blue"})]
    assert [(f["name"], f["colour"]) for f in faces] == [("Lieutenant", "red"), ("Bomb", "blue")]


def test_a_play_told_by_rank_and_count_is_that_many_faces():
    assert names({"seat": 3, "count": 2, "rank": 5}, GT) == ["Fight 5", "Fight 5"]


def test_a_results_card_list_keeps_its_order_and_names_each_card_once():
    data = {"battle": 1, "plays": {"1": ["BO900#1"]}, "cards": ["BO900#1", "BD1000#1", "BO100#1"], "card": "BD1000#1"}
    assert names(data, BOM) == ["Zemnarihah", "Noah", "Heth"]


def test_a_refused_or_undone_entry_has_no_faces():
    outcome = {"kind": "battle", "data": {"cards": ["BO900#1"]}}
    assert entry_faces({"status": "undone", "outcomes": [outcome]}, BOM, {}) == []
    assert [f["name"] for f in entry_faces({"status": "applied", "outcomes": [outcome]}, BOM, {})] == ["Zemnarihah"]


def test_a_phone_gets_faces_only_of_the_cards_its_own_view_adds():
    public = {"seats": [{"seat": 1, "play": [{"key": "BO900#1"}]}]}
    own = {**public, "my_face_down": {"key": "FAITH#2"}}
    assert [f["name"] for f in seat_faces(own, public, BOM)] == ["Faith"]


def test_the_table_shows_faces_only_for_the_sentences_its_result_box_says():
    """A tap's entry told two things ("Bill does not fight Bismarck Sea." then the next turn); the
    box that says only the turn draws no card."""
    from companion.web.faces import ResultFaces

    class Session:
        ruleset = rules.make("battlecards-pacific")

    entry = {"status": "applied", "outcomes": [
        {"kind": "battle_declined", "say": "Bill does not fight Bismarck Sea.", "data": {"card": "BISMARCK#1"}},
        {"kind": "turn", "say": "Turn 11: Aiko (Japan) is the drawing player.", "data": {"seat": 1, "turn": 11}}]}
    turn = {"last_outcome": {"say": "Turn 11: Aiko (Japan) is the drawing player."}}
    assert ResultFaces().of(Session(), turn, entry) == []
    both = {"last_outcome": {"say": "Bill does not fight Bismarck Sea. Turn 11: Aiko (Japan) is the drawing player."}}
    assert [f["name"] for f in ResultFaces().of(Session(), both, entry)] == ["Bismarck Sea"]
