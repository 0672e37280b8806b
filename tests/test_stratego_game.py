"""The game around the combats: the army check at setup, turns, losses, the end, rescue, the Scout's
move-and-attack, and bad input (refused with a reason, state unchanged)."""
from __future__ import annotations

import copy
import dataclasses

import pytest

from companion.rules import Applied
from companion.rules.stratego import NoSuchSeat
from tests.test_stratego_support import Table, army, refused, turn


def unchanged(table: Table, result, before) -> str:
    """The reason of a refusal that left the state exactly as it was."""
    reason = refused(result)
    assert table.state == before
    return reason


# -- setup: each side scans its army once ---------------------------------------------------------
def test_army_is_checked_when_its_fortieth_piece_is_scanned():
    """"until all 40 pieces are placed": setup ends by itself when a side's 40th piece is seen."""
    table = Table(armies=False)
    red = army("red")
    for card in red[:-1]:
        assert isinstance(table.scan("seat:1", card), Applied)
    view = table.rules.seat_view(table.state, 1)
    assert view["missing"] == {"Flag": 1}
    assert table.public()["standings"][0]["scanned"] == 39
    result = table.scan("reader:1", red[-1])
    assert [o.kind for o in result.outcomes] == ["army_checked"]
    assert table.state.phase == "setup"  # Blue has not scanned yet
    for card in army("blue"):
        result = table.scan("seat:2", card)
    assert [o.kind for o in result.outcomes] == ["army_checked", "play_starts"]
    assert turn(table.public()) == (1, "red", 1)


def test_setup_counts_per_rank_in_the_seat_view():
    table = Table(armies=False)
    for card in army("red")[:3]:  # Marshal, General, one Colonel
        table.scan("seat:1", card)
    rows = {row["name"]: (row["scanned"], row["of"]) for row in table.rules.seat_view(table.state, 1)["army"]}
    assert rows["Marshal"] == (1, 1) and rows["Colonel"] == (1, 2) and rows["Bomb"] == (0, 6)


def test_setup_refuses_a_piece_of_the_other_colour():
    """The companion confirms "that no piece of the other colour is among them"."""
    table = Table(armies=False)
    before = copy.deepcopy(table.state)
    reason = unchanged(table, table.scan("seat:1", "B6#1"), before)
    assert reason == "that is a Blue piece; seat 1 plays Red, so its army has none of the other colour"


def test_setup_refuses_the_same_piece_twice():
    table = Table(armies=False)
    table.scan("seat:1", "R6#1")
    before = copy.deepcopy(table.state)
    reason = unchanged(table, table.scan("reader:1", "R6#1"), before)
    assert "already scanned" in reason and "duplicate" in reason


def test_setup_refuses_the_tray_and_play_commands():
    table = Table(armies=False)
    before = copy.deepcopy(table.state)
    assert "not in the scan tray" in unchanged(table, table.scan("tray", "R6#1"), before)
    assert "The armies are not both checked yet" in unchanged(table, table.move("red"), before)


def test_red_seat_option_gives_red_to_seat_two():
    """"red may move his piece first": with red_seat=2, seat 2 scans red pieces and moves first."""
    table = Table(red_seat=2)
    assert turn(table.public()) == (2, "red", 1)
    assert isinstance(table.send("move", seat=2), Applied)


def test_unknown_tag_is_refused():
    table = Table()
    before = copy.deepcopy(table.state)
    assert "the deck has 5 copies of Miner (R3#1 to R3#5)" in unchanged(table, table.scan("tray", "R3#6"), before)
    assert "not a card of this Stratego deck" in unchanged(table, table.scan("tray", "R11#1"), before)


# -- turns ----------------------------------------------------------------------------------------
def test_red_first_then_turns_alternate_by_move_and_combat():
    """"red may move his piece first with blue performing their turn at the end of reds." """
    table = Table()
    before = copy.deepcopy(table.state)
    assert "it is Red's turn" in unchanged(table, table.move("blue"), before)
    assert isinstance(table.move("red"), Applied)
    assert table.public()["turn_colour"] == "blue"
    assert isinstance(table.attack("B7#1", "R4#1"), Applied)
    assert turn(table.public()) == (1, "red", 3)


def test_combat_on_the_seats_readers():
    """A piece's RFID tag tapped on its owner's reader: the attacker on Red's, the defender on Blue's."""
    table = Table()
    assert isinstance(table.scan("reader:1", "R9#1"), Applied)
    result = table.scan("reader:2", "B8#1")
    assert isinstance(result, Applied) and result.outcomes[0].kind == "combat"
    assert not table.alive("B8#1")


def test_a_piece_on_the_other_seats_reader_is_refused():
    table = Table()
    before = copy.deepcopy(table.state)
    assert "reader 2 is Blue's" in unchanged(table, table.scan("reader:2", "R9#1"), before)


def test_cancel_calls_off_a_scanned_attack_without_revealing():
    table = Table()
    table.scan("tray", "R9#1")
    result = table.send("cancel", seat=1)
    assert isinstance(result, Applied) and not result.reveals
    assert table.state.pending is None and table.public()["turn_colour"] == "red"
    before = copy.deepcopy(table.state)
    assert "no combat to cancel" in unchanged(table, table.send("cancel"), before)


def test_only_the_attacker_may_cancel():
    table = Table()
    table.scan("tray", "R9#1")
    before = copy.deepcopy(table.state)
    assert "only Red" in unchanged(table, table.send("cancel", seat=2), before)


def test_a_move_during_a_combat_is_refused():
    table = Table()
    table.scan("tray", "R9#1")
    before = copy.deepcopy(table.state)
    assert "combat is under way" in unchanged(table, table.move("red"), before)


# -- losses and what each side knows --------------------------------------------------------------
def test_captured_pieces_per_side_and_what_each_side_knows():
    table = Table(reveal="defeated_or_scout")
    table.attack("R8#1", "B5#1")          # Red's Colonel takes a Lieutenant
    table.attack("B6#1", "R8#1")          # Blue's Captain loses to the Colonel, which stays hidden
    view = table.public()
    red, blue = view["standings"]
    assert (red["lost"], blue["lost"]) == (0, 2)
    assert blue["lost_known"] == {"Captain": 1, "Lieutenant": 1} and blue["lost_unknown"] == 0
    assert red["alive_known"] == {"Colonel": 1}  # shown when it attacked in combat 1
    blue_seat = table.rules.seat_view(table.state, 2)
    assert blue_seat["enemy_known"] == {"lost": {}, "lost_unknown": 0, "in_play": {"Colonel": 1}}
    assert {r["name"]: r["lost"] for r in blue_seat["army"] if r["lost"]} == {"Captain": 1, "Lieutenant": 1}
    red_seat = table.rules.seat_view(table.state, 1)
    assert red_seat["enemy_known"]["lost"] == {"Captain": 1, "Lieutenant": 1}


def test_seat_view_tells_a_hidden_defender_to_its_owner_only():
    """Under the reveal variant the winning defender's rank is secret from the attacker, not from
    its own player."""
    table = Table(reveal="defeated_or_scout")
    table.attack("R5#1", "BB#1")
    own = table.rules.seat_view(table.state, 2)["combats"][-1]
    enemy = table.rules.seat_view(table.state, 1)["combats"][-1]
    assert own["defender"]["name"] == "Bomb"
    assert enemy["defender"]["name"] is None and "Bomb" not in str(enemy)
    # The dashboard's seat page: the same facts as text.
    blue_page = table.rules.seat_view(table.state, 2)
    assert blue_page["known"]["combats"] == [
        "1. Red's Lieutenant (5) attacked Blue's Bomb (B) and lost; the attacker is removed, the defender stays."]
    assert blue_page["known"]["enemy losses"] == ["Lieutenant x1"]
    assert blue_page["private"]["in play"].startswith("Marshal x1, General x1, Colonel x2")
    red_page = table.rules.seat_view(table.state, 1)
    assert red_page["known"]["your losses"] == ["Lieutenant x1"]
    assert "Bomb" not in str(red_page["known"]) and "Bomb x6" in red_page["private"]["in play"]
    assert table.public()["last_outcome"]["say"] == enemy["say"]


def test_the_table_shows_an_attack_in_progress_without_its_rank():
    table = Table()
    table.scan("tray", "R10#1")
    assert table.public()["last_outcome"] == {"say": "Red's attacker is scanned; scan the Blue defender.", "terms": [],
                                         "details": "", "kind": "", "battle": None,
                                         "label": "Combat 1: in progress", "previous": False}
    assert "Marshal" not in str(table.public())
    assert table.rules.seat_view(table.state, 1)["private"]["your attacker in the tray"] == "Marshal (10)"
    assert "your attacker in the tray" not in table.rules.seat_view(table.state, 2)["private"]


def test_seat_view_of_a_seat_that_does_not_exist_raises():
    table = Table()
    for seat in (0, 3, "1"):
        with pytest.raises(NoSuchSeat, match="Stratego has seats 1 and 2"):
            table.rules.seat_view(table.state, seat)


# -- the end --------------------------------------------------------------------------------------
def test_flag_captured_ends_the_game_and_refuses_further_input():
    table = Table()
    table.attack("R2#1", "BF#1")
    before = copy.deepcopy(table.state)
    assert unchanged(table, table.move("blue"), before) == "The game is over."
    assert unchanged(table, table.scan("tray", "B9#1"), before) == "The game is over."


def test_side_with_only_bombs_and_flag_forfeits():
    """"If you cannot move a piece during your turn then you must forfeit to your opponent."
    The companion counts: when Blue's last movable piece falls, only Bombs and the Flag remain."""
    table = Table(spy_attack="anything_but_bombs")
    blue_movable = [k for k in army("blue") if k[1] not in "BF"]
    # Red's Spy defeats anything on attack; Blue answers each time with a plain move.
    for n, card in enumerate(blue_movable):
        result = table.attack("RS#1", card)
        assert isinstance(result, Applied), result
        if n < len(blue_movable) - 1:
            assert not table.public()["over"]
            table.move("blue")
    view = table.public()
    assert (view["over"], view["winner"], view["end"]["reason"]) == (True, 1, "no_movable_piece")
    assert result.outcomes[-1].say == ("Blue has no piece left that can move (only Bombs and the Flag) and "
                                       "forfeits: Red wins.")


def test_when_a_tie_leaves_neither_side_a_mover_the_side_to_move_forfeits():
    """Red's last mover (a Scout) ties with Blue's last mover: Blue is next to move, and cannot."""
    table = Table()
    state = table.state
    # A long game in one step: every other movable piece is already off the board.
    for card, piece in state.pieces.items():
        if piece.rank not in ("B", "F") and card not in ("R2#1", "B2#1"):
            piece.alive, piece.captured_in = False, 0
    table.attack("R2#1", "B2#1")
    assert table.public()["winner"] == 1


def test_resign():
    table = Table()
    result = table.send("resign", seat=1)
    assert result.outcomes[0].say == "Red resigns: Blue wins."
    assert table.public()["winner"] == 2


# -- rescue ---------------------------------------------------------------------------------------
def test_rescue_after_reaching_the_back_row():
    """"If you move one of your own pieces into the back row of your opponents territory then you
    may rescue one of your defeated pieces and place it on your side of the game board." """
    table = Table(rescue=True)
    table.attack("R4#1", "B9#1")          # Red loses a Sergeant
    table.move("blue")
    table.move("red")                     # Red's piece reaches Blue's back row
    result = table.send("rescue", seat=1, card="R4#1")
    assert isinstance(result, Applied)
    assert result.outcomes[0].say == "Red rescues their Sergeant (4) and places it on their side of the board."
    assert table.alive("R4#1")
    assert table.public()["standings"][0]["lost"] == 0
    before = copy.deepcopy(table.state)
    assert "already rescued" in unchanged(table, table.send("rescue", seat=1, card="R4#1"), before)


def test_rescue_is_refused_when_off_not_just_moved_or_the_piece_is_alive():
    table = Table()
    table.attack("R4#1", "B9#1")
    table.move("blue")
    before = copy.deepcopy(table.state)
    assert "not in play" in unchanged(table, table.send("rescue", seat=1, card="R4#1"), before)

    table = Table(rescue=True)
    table.attack("R4#1", "B9#1")
    table.move("blue")
    before = copy.deepcopy(table.state)
    assert "Red has not just moved" in unchanged(table, table.send("rescue", seat=1, card="R4#1"), before)
    assert "still on the board" in unchanged(table, table.send("rescue", seat=2, card="B9#1"), before)
    assert "Red piece" in unchanged(table, table.send("rescue", seat=2, card="R4#1"), before)


def test_no_rescue_when_the_attacker_was_removed():
    table = Table(rescue=True)
    table.attack("R4#1", "B9#1")
    table.attack("B3#1", "R9#1")          # Blue's attacking Miner is removed
    before = copy.deepcopy(table.state)
    assert "did not reach the back row" in unchanged(table, table.send("rescue", seat=2, card="B3#1"), before)


# -- the Scout may move and attack ----------------------------------------------------------------
def test_scout_may_attack_after_moving_in_the_variant():
    """"unless the piece you are using a scout which may move and attack on the same turn."
    Red taps Move, then scans its Scout and a Blue piece: one turn, so Blue is still to play."""
    table = Table(scout_move_attack=True)
    table.move("red")
    assert table.public()["scout_may_attack"] == 1
    result = table.attack("R2#1", "BS#1")
    assert isinstance(result, Applied) and not table.alive("BS#1")
    assert turn(table.public()) == (2, "blue", 2)


def test_only_a_scout_attacks_after_moving_in_the_variant():
    table = Table(scout_move_attack=True)
    table.move("red")
    before = copy.deepcopy(table.state)
    assert "only a Scout may move and attack" in unchanged(table, table.scan("tray", "R9#1"), before)


def test_classic_scout_may_not_attack_after_moving():
    """"You may either attack or move once on your turn" (classic)."""
    table = Table()
    table.move("red")
    before = copy.deepcopy(table.state)
    assert "it is Blue's turn" in unchanged(table, table.scan("tray", "R2#1"), before)


# -- bad input during play ------------------------------------------------------------------------
def test_wrong_colour_attacker_is_refused():
    table = Table()
    before = copy.deepcopy(table.state)
    reason = unchanged(table, table.scan("tray", "B9#1"), before)
    assert reason.startswith("it is Red's turn: a Blue piece cannot attack now")


def test_bomb_or_flag_as_attacker_is_refused():
    table = Table()
    before = copy.deepcopy(table.state)
    for card in ("RB#3", "RF#1"):
        result = table.scan("tray", card)
        assert unchanged(table, result, before) == "Red's scan did not start an attack; Red, see your page for why"
        assert result.private == ("that piece never moves, so it cannot attack ('There are also seven non-moving "
                                  "pieces')")


def test_same_piece_scanned_twice_is_refused():
    """The attacker taken out of the tray and shown again is not its own defender."""
    table = Table()
    table.scan("tray", "R9#1")
    table.send("card_gone", zone="tray", card="R9#1")
    before = copy.deepcopy(table.state)
    assert "already scanned as the attacker" in unchanged(table, table.scan("tray", "R9#1"), before)
    assert "already scanned as the attacker" in unchanged(table, table.scan("reader:1", "R9#1"), before)


def test_a_piece_reported_again_where_it_lies_is_one_sighting():
    """The camera reporting the attacker twice in the tray (no card_gone between) is the same piece
    seen once: nothing changes, and the defender's scan still decides the combat."""
    table = Table()
    table.scan("tray", "R9#1")
    before = copy.deepcopy(table.state)
    result = table.scan("tray", "R9#1")
    assert isinstance(result, Applied) and result.outcomes == () and table.state == before
    assert table.scan("tray", "B8#1").outcomes[0].kind == "combat"


def test_a_second_friendly_piece_is_not_a_defender():
    table = Table()
    table.scan("tray", "R9#1")
    before = copy.deepcopy(table.state)
    assert "never a friendly one" in unchanged(table, table.scan("tray", "R8#1"), before)


def test_captured_piece_scanned_again_is_refused():
    """A piece taken off the board cannot attack, nor be attacked."""
    table = Table()
    table.attack("R9#1", "B8#1")          # combat 1: Blue's Colonel is captured; Blue to play
    before = copy.deepcopy(table.state)
    reason = unchanged(table, table.scan("tray", "B8#1"), before)
    assert reason == "that piece was captured in combat 1; it is off the board"
    table.move("blue")
    table.scan("tray", "R7#1")
    before = copy.deepcopy(table.state)
    assert unchanged(table, table.scan("tray", "B8#1"), before) == reason


def test_resolve_is_refused():
    table = Table()
    before = copy.deepcopy(table.state)
    assert "nothing to resolve" in unchanged(table, table.send("resolve"), before)


def test_unknown_command_and_bad_seat_are_refused():
    table = Table()
    before = copy.deepcopy(table.state)
    assert "no input 'shuffle'" in unchanged(table, table.send("shuffle"), before)
    assert "needs a seat of this table (1-2), not 3" in unchanged(table, table.send("move", seat=3), before)
    assert "names no seat" in unchanged(table, table.scan("reader:7", "R9#1"), before)
    assert "not in zone 'center'" in unchanged(table, table.scan("center", "R9#1"), before)


def test_card_gone_changes_nothing():
    """A piece leaving the tray changes nothing in the game (only where the table saw it lie)."""
    table = Table()
    table.scan("tray", "R9#1")
    before = copy.deepcopy(table.state)
    result = table.send("card_gone", zone="tray", card="R9#1")
    assert isinstance(result, Applied) and result.outcomes == ()
    assert dataclasses.replace(table.state, lying=before.lying) == before
    assert table.state.lying["R9#1"] == ["seat:1"]


# -- a whole game from its log --------------------------------------------------------------------
def test_a_whole_game_replays_from_its_jsonl_log():
    """Setup, a move, two combats, a refused scan and the Flag's capture, written as a game log and
    folded the way `companion replay` does; folding twice gives the same state."""
    import json

    from companion.gamelog.fold import fold
    from companion.gamelog.session import from_jsonl, replay_report

    lines = [{"kind": "start", "source": "dashboard",
              "data": {"game": "stratego", "seats": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}],
                       "options": {"ties": "attacker_wins"}}}]
    for seat, colour in ((1, "red"), (2, "blue")):
        lines += [{"kind": "card_seen", "source": "camera", "data": {"zone": f"seat:{seat}", "card": c}}
                  for c in army(colour)]
    play = [("move", {"seat": 1}),
            ("card_seen", {"zone": "tray", "card": "B6#1"}), ("card_seen", {"zone": "tray", "card": "R6#1"}),
            ("card_seen", {"zone": "tray", "card": "RB#1"}),          # refused: a Bomb never attacks
            ("card_seen", {"zone": "tray", "card": "R2#1"}), ("card_seen", {"zone": "tray", "card": "BF#1"}),
            ("move", {"seat": 2})]                                    # refused: the game is over
    lines += [{"kind": kind, "source": "camera", "data": data} for kind, data in play]
    text = "".join(json.dumps({"seq": n, **line}) + "\n" for n, line in enumerate(lines, 1))

    derived = fold(from_jsonl(text))
    report = replay_report(derived)
    assert (report["over"], report["winner"]) == (True, 1)
    combats = [o["say"] for o in report["outcomes"] if o["kind"] == "combat"]
    assert combats == ["Blue's Captain (6) attacked Red's Captain (6) and won; the defender is removed.",
                       "Red's Scout (2) captured Blue's Flag (F)!"]
    assert [r["reason"] for r in report["refused"]] == [
        "Red's scan did not start an attack; Red, see your page for why",  # the public never reads "never moves"
        "The game is over."]
    assert [(s["colour"], s["lost"]) for s in report["standings"]] == [("red", 1), ("blue", 1)]
    assert fold(from_jsonl(text)).state == derived.state
