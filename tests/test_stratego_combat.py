"""Combat, rule by rule, each test quoting stratego.txt; then every attacker against every defender
under every variant, checked against a table typed out independently below.

Every combat here goes through the whole referee (scan attacker, scan defender in the tray) and is
checked on what the table sees: who is removed, and which ranks the public view shows.
"""
from __future__ import annotations

import copy
import itertools

import pytest

from companion.rules import Applied
from companion.rules.statecopy import copy_state
from tests.test_stratego_support import Table, key, refused

# The classic table, typed by hand from the classic rules (not computed from the referee's code).
# Rows: the attacker; columns: the defender, in the order below.
# A = the attacker wins (the defender is removed), D = the defender wins (the attacker is removed),
# T = equal ranks (a tie, whose result is a variant, except a Spy attacking a Spy: see ``expected``).
DEFENDERS = ["10", "9", "8", "7", "6", "5", "4", "3", "2", "S", "B", "F"]
CLASSIC = {
    #      10 9 8 7 6 5 4 3 2 S B F
    "10": "T A A A A A A A A A D A",
    "9":  "D T A A A A A A A A D A",
    "8":  "D D T A A A A A A A D A",
    "7":  "D D D T A A A A A A D A",
    "6":  "D D D D T A A A A A D A",
    "5":  "D D D D D T A A A A D A",
    "4":  "D D D D D D T A A A D A",
    "3":  "D D D D D D D T A A A A",   # the Miner defuses the Bomb
    "2":  "D D D D D D D D T A D A",
    "S":  "A D D D D D D D D T D A",   # the Spy defeats the Marshal when it attacks
}
# "The exceptions are Spys, which defeat anythign on attack (except bombs)": the Spy's row.
SPY_ANYTHING_ROW = "A A A A A A A A A A D A"

VARIANTS = {
    "ties": ["both_removed", "attacker_wins"],
    "spy_attack": ["marshal_only", "anything_but_bombs"],
    "reveal": ["both", "defeated_or_scout"],
}


def expected(attacker: str, defender: str, options: dict) -> str:
    """"attacker", "defender" or "both" by the hand-typed table and the variants."""
    row = SPY_ANYTHING_ROW if attacker == "S" and options["spy_attack"] == "anything_but_bombs" else CLASSIC[attacker]
    cell = row.split()[DEFENDERS.index(defender)]
    if cell == "T":
        # Both editions: "...a Spy Vs. Spy match up, in which case the attacking Spy wins".
        cell = "A" if options["ties"] == "attacker_wins" or attacker == "S" else "B"
    return {"A": "attacker", "D": "defender", "B": "both"}[cell]


def fight(table: Table, attacker: str, defender: str, a_copy: int = 1, d_copy: int = 1) -> dict:
    """Red's piece of rank ``attacker`` attacks Blue's ``defender``; the public combat entry."""
    result = table.attack(key("red", attacker, a_copy), key("blue", defender, d_copy))
    assert isinstance(result, Applied), result
    return table.public()["combats"][-1]


# -- each rule, quoted ----------------------------------------------------------------------------
def test_higher_rank_wins_either_way():
    """"Higher ranked pieces always defeat lower ranked pieces." "For example a 4 can defeat a 3, but not a 5"."""
    table = Table()
    combat = fight(table, "4", "3")
    assert combat["winner"] == "attacker"
    assert not table.alive("B3#1") and table.alive("R4#1")
    table.move("blue")
    combat = fight(table, "4", "5", a_copy=2)
    assert combat["winner"] == "defender"
    assert not table.alive("R4#2") and table.alive("B5#1")


def test_numbering_marshal_ten_down_to_scout_two():
    """The rulebook's numbering: "3 = Miners", "2 = Scouts"; a 10 is the Marshal and beats the 9."""
    table = Table()
    combat = fight(table, "10", "9")
    assert (combat["attacker"]["name"], combat["defender"]["name"], combat["winner"]) == ("Marshal", "General", "attacker")
    assert combat["say"] == "Red's Marshal (10) attacked Blue's General (9) and won; the defender is removed."


def test_tie_removes_both_by_default():
    """"In the event of a tie, both pieces are removed" (classic)."""
    table = Table()
    combat = fight(table, "6", "6")
    assert combat["winner"] == "both"
    assert not table.alive("R6#1") and not table.alive("B6#1")
    assert combat["say"] == "Red's Captain (6) attacked Blue's Captain (6): equal ranks, both are removed."


def test_tie_attacker_wins_variant():
    """"In the event of a tie, the attacker wins." (the other edition; option ties=attacker_wins)"""
    table = Table(ties="attacker_wins")
    combat = fight(table, "6", "6")
    assert combat["winner"] == "attacker"
    assert table.alive("R6#1") and not table.alive("B6#1")
    assert {"label": "rule", "value": "In the event of a tie, the attacker wins.", "detail": ""} in combat["terms"]


def test_spy_defeats_the_marshal_on_attack_only_classic():
    """Classic: the Spy takes the Marshal when the Spy attacks; "S = Spies ... are destroyed if attacked."."""
    table = Table()
    assert fight(table, "S", "10")["winner"] == "attacker"
    assert not table.alive("B10#1")
    table2 = Table()
    table2.move("red")
    result = table2.attack(key("blue", "10"), key("red", "S"))
    assert isinstance(result, Applied)
    assert not table2.alive("RS#1") and table2.alive("B10#1")


def test_classic_spy_loses_attacking_anything_but_the_marshal():
    """Classic: apart from the Marshal, "They are the weakest piece"; a Spy attacking a Scout loses."""
    table = Table()
    assert fight(table, "S", "2")["winner"] == "defender"
    assert not table.alive("RS#1")


def test_spy_defeats_anything_on_attack_except_bombs_variant():
    """"The exceptions are Spys, which defeat anythign on attack (except bombs)" (option spy_attack)."""
    table = Table(spy_attack="anything_but_bombs")
    assert fight(table, "S", "9")["winner"] == "attacker"
    table.move("blue")
    assert fight(table, "S", "B")["winner"] == "defender"
    assert not table.alive("RS#1") and table.alive("BB#1")


def test_attacking_spy_defeats_a_spy_in_both_editions():
    """Both editions agree, so it is no option: "In the event of a tie, both pieces are removed, with
    the only exception being a Spy Vs. Spy match up, in which case the attacking Spy wins." and "in
    the event of a tie both pieces are defeated unless a spy attacks another spy–in which case, the
    attacking spy would win." Under the classic tie rule too; every other tie still removes both."""
    table = Table()
    combat = fight(table, "S", "S")
    assert combat["winner"] == "attacker"
    assert table.alive("RS#1") and not table.alive("BS#1")
    assert {"label": "rule", "value": "with the only exception being a Spy Vs. Spy match up, in which case the "
            "attacking Spy wins.", "detail": ""} in combat["terms"]
    assert combat["say"] == "Red's Spy (S) attacked Blue's Spy (S) and won; the defender is removed."
    table.move("blue")
    assert fight(table, "7", "7")["winner"] == "both"


@pytest.mark.parametrize("recorded", ["tie", "attacker_wins"])
def test_old_logs_with_the_retired_spy_vs_spy_option_still_start(recorded):
    """Earlier versions recorded spy_vs_spy in the start event; such a log still replays, and the
    rulebook decides the Spy Vs. Spy match up whatever it recorded."""
    import json

    from companion.gamelog.fold import fold
    from companion.gamelog.session import from_jsonl
    from tests.test_stratego_support import army

    lines = [{"kind": "start", "data": {"game": "stratego", "seats": [{"seat": 1, "name": "Ann"},
             {"seat": 2, "name": "Ben"}], "options": {"spy_vs_spy": recorded}}}]
    lines += [{"kind": "card_seen", "data": {"zone": f"seat:{seat}", "card": c}}
              for seat, colour in ((1, "red"), (2, "blue")) for c in army(colour)]
    lines += [{"kind": "card_seen", "data": {"zone": "tray", "card": c}} for c in ("RS#1", "BS#1")]
    derived = fold(from_jsonl("".join(json.dumps({"seq": n, **line}) + "\n" for n, line in enumerate(lines, 1))))
    assert [e.status for e in derived.entries[1:]] == ["applied"] * 82
    assert derived.entries[-1].outcomes[0]["data"]["winner"] == "attacker"
    assert "spy_vs_spy" not in derived.ruleset.public_view(derived.state)["options"]


def test_bomb_defeats_every_attacker_but_the_miner_and_stays():
    """"B = Bombs are able to destroy any piece that attacks it except the miner"; "Even if a piece
    detonates on a bomb, it is not removed without being swept by a Miner (3)"."""
    table = Table()
    combat = fight(table, "10", "B")
    assert combat["winner"] == "defender"
    assert not table.alive("R10#1") and table.alive("BB#1")
    assert combat["say"] == ("Red's Marshal (10) attacked Blue's Bomb (B) and lost; the attacker is removed, "
                             "the defender stays.")


def test_miner_defuses_a_bomb():
    """"3 = Miners are able to remove enemy bombs from play." """
    table = Table()
    combat = fight(table, "3", "B")
    assert combat["winner"] == "attacker"
    assert table.alive("R3#1") and not table.alive("BB#1")


def test_any_attacker_captures_the_flag_and_wins():
    """"One side wins when they reveal the enemy flag by moving a piece onto its occupying square."
    Even the Spy captures it."""
    table = Table()
    combat = fight(table, "S", "F")
    assert combat["say"] == "Red's Spy (S) captured Blue's Flag (F)!"
    view = table.public()
    assert (view["over"], view["winner"], view["end"]["reason"]) == (True, 1, "flag")


def test_classic_reveal_shows_both_ranks():
    """"each player must reveal the rank of their piece with the winner taking the square being contested." """
    table = Table()
    combat = fight(table, "5", "8")
    assert (combat["attacker"]["rank"], combat["defender"]["rank"]) == ("5", "8")


def test_variant_defender_keeps_its_rank_when_it_wins():
    """"When a piece is attacked, the defender only reveals their piece if it's defeated, or If it is
    attacked by a Scout." A Lieutenant beaten by a Colonel: the Colonel stays hidden."""
    table = Table(reveal="defeated_or_scout")
    combat = fight(table, "5", "8")
    assert combat["winner"] == "defender"
    assert combat["attacker"]["rank"] == "5"
    assert combat["defender"]["rank"] is None and combat["defender"]["name"] is None
    assert combat["say"] == ("Red's Lieutenant (5) attacked a Blue piece and lost; the attacker is removed, "
                             "the defender stays (its rank stays hidden).")
    assert {"label": "defender", "value": "hidden", "detail": "Blue"} in combat["terms"]


def test_variant_defender_reveals_when_defeated():
    """"...the defender only reveals their piece if it's defeated" """
    table = Table(reveal="defeated_or_scout")
    combat = fight(table, "8", "5")
    assert combat["defender"]["rank"] == "5"


def test_variant_defender_reveals_when_attacked_by_a_scout():
    """"...or If it is attacked by a Scout." A Scout runs into a Bomb: the Bomb is shown."""
    table = Table(reveal="defeated_or_scout")
    combat = fight(table, "2", "B")
    assert combat["winner"] == "defender"
    assert combat["defender"]["rank"] == "B"


def test_bomb_and_flag_cannot_attack():
    """"There are also seven non-moving pieces": the 6 Bombs and the Flag never attack."""
    table = Table()
    for rank in ("B", "F"):
        result = table.scan("tray", key("red", rank))
        assert "never moves, so it cannot attack" in result.private and result.seat == 1
        # The table (and Blue) read only that no attack began: "never moves" would name a Bomb or the Flag.
        assert refused(result) == "Red's scan did not start an attack; Red, see your page for why"
    assert table.state.pending is None


# -- the whole table, every variant ---------------------------------------------------------------
ATTACKERS = list(CLASSIC)
COMBOS = [dict(zip(VARIANTS, values)) for values in itertools.product(*VARIANTS.values())]


@pytest.mark.parametrize("options", COMBOS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_every_attacker_against_every_defender(options):
    """All 120 pairings under these options, against the hand-typed table: who is removed, and which
    ranks the public view shows (the attacker's always; the defender's by the reveal rule)."""
    base = Table(**options)
    for attacker, defender in itertools.product(ATTACKERS, DEFENDERS):
        table = copy.copy(base)
        table.state = copy_state(base.state)  # as the session copies a state (rules/statecopy.py)
        a, d = key("red", attacker), key("blue", defender)
        combat = fight(table, attacker, defender)
        want = expected(attacker, defender, options)
        where = f"{attacker} attacks {defender} under {options}"
        assert combat["winner"] == want, where
        assert table.alive(a) == (want == "attacker"), where
        assert table.alive(d) == (want == "defender"), where
        defender_shown = options["reveal"] == "both" or want != "defender" or attacker == "2"
        assert combat["attacker"]["rank"] == attacker, where
        assert combat["defender"]["rank"] == (defender if defender_shown else None), where
        assert table.public()["over"] == (defender == "F"), where
