"""Custom decks: copy a catalog and edit it, or import a CSV; the companion checks it like a reference
deck, reports every problem at once, refuses to start a game with a bad one and plays a good one."""
from __future__ import annotations

import csv
import json

import pytest

from card_tags import commands, custom
from card_tags.catalog import CatalogError, load_game, reference_deck_path
from card_tags.payload import CardRef, decode, encode
from companion.gamelog.session import LogError, Session
from companion.gamelog.store import Store

SEATS = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Ben"}]


def run(capsys, *argv):
    code = commands.main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return code, out, err


# -- deck copy / deck check ----------------------------------------------------------------------
def test_copy_edit_check_and_play_a_custom_deck(tmp_path, capsys):
    """An owner whose pieces say "Feldmarschall" renames the Marshal; the game then uses their names."""
    path = tmp_path / "my-stratego.json"
    code, out, _ = run(capsys, "deck", "copy", "stratego", path)
    assert code == 0 and "companion deck check" in out
    assert json.loads(path.read_text()) == json.loads(reference_deck_path("stratego").read_text())
    data = json.loads(path.read_text())
    next(c for c in data["cards"] if c["id"] == "R10")["name"] = "Feldmarschall"
    path.write_text(json.dumps(data))
    code, out, _ = run(capsys, "deck", "check", path)
    assert code == 0 and "80 physical copies; follows every count the rulebook gives" in out
    session = Session.start(Store(tmp_path / "game.db"), "stratego", SEATS, deck=str(path))
    assert session.ruleset.catalog["R10"].name == "Feldmarschall"
    path.unlink()  # the deck is recorded whole in the log, so the game replays without the file
    resumed = Session.resume(Store(tmp_path / "game.db"))
    assert resumed.ruleset.catalog["R10"].name == "Feldmarschall"


def test_copy_will_not_overwrite_without_force(tmp_path, capsys):
    path = tmp_path / "deck.json"
    path.write_text("mine")
    code, _, err = run(capsys, "deck", "copy", "warriors", path)
    assert code == 1 and "already exists" in err and path.read_text() == "mine"
    assert run(capsys, "deck", "copy", "warriors", path, "--force")[0] == 0
    assert json.loads(path.read_text())["game"] == "warriors"


def test_check_reports_every_problem_at_once(tmp_path, capsys):
    path = tmp_path / "broken.json"
    custom.copy_reference("warriors", path)
    data = json.loads(path.read_text())
    del data["cards"][0]["side"]                 # NEPHI: a missing field
    data["cards"][1]["colour"] = "gold"          # LEHI: an unknown attribute
    data["cards"].append(dict(data["cards"][2]))  # MORONI twice
    path.write_text(json.dumps(data))
    code, _, err = run(capsys, "deck", "check", path)
    assert code == 1
    assert f"{path}: 3 problems" in err
    assert "card 'NEPHI': missing field 'side' (every warrior card needs it)" in err
    assert "card 'LEHI': unknown attribute 'colour' for a warrior card" in err
    assert "card 'MORONI': duplicate id (card #103)" in err


def test_check_names_a_file_that_is_not_a_deck(tmp_path, capsys):
    path = tmp_path / "notes.json"
    path.write_text("{not json")
    code, _, err = run(capsys, "deck", "check", path)
    assert code == 1 and f"{path}: 1 problem" in err and "not valid JSON" in err


# -- the game cannot start with a bad deck -------------------------------------------------------
def test_a_stratego_army_of_39_cannot_start_a_game(tmp_path):
    path = tmp_path / "short-army.json"
    custom.copy_reference("stratego", path)
    data = json.loads(path.read_text())
    next(c for c in data["cards"] if c["id"] == "B2")["copies"] = 7
    path.write_text(json.dumps(data))
    store = Store(tmp_path / "game.db")
    with pytest.raises(LogError) as caught:
        Session.start(store, "stratego", SEATS, deck=str(path))
    message = str(caught.value)
    assert str(path) in message and "card 'B2': field 'copies' is 7" in message
    assert "the blue army has 39 pieces" in message
    assert store.latest_game() is None, "nothing was written: no half-started game"


# -- CSV -------------------------------------------------------------------------------------------
def test_csv_round_trip_is_exact(tmp_path, capsys):
    for game in ("warriors", "battlecards-pacific", "stratego"):
        sheet, out = tmp_path / f"{game}.csv", tmp_path / f"{game}.json"
        assert run(capsys, "deck", "export-csv", game, sheet)[0] == 0
        code, stdout, _ = run(capsys, "deck", "import-csv", game, sheet, out)
        assert code == 0 and "follows every count the rulebook gives" in stdout
        assert load_game(game, str(out)).to_json()["cards"] == load_game(game).to_json()["cards"]


def test_an_edited_csv_becomes_the_deck(tmp_path, capsys):
    """A printing whose Submarine has a different Sea attack and whose N/A cells are spelt 'N/A'."""
    sheet, out = tmp_path / "pacific.csv", tmp_path / "pacific.json"
    custom.export_csv(load_game("battlecards-pacific"), sheet)
    rows = list(csv.DictReader(sheet.open()))
    gato = next(r for r in rows if r["id"] == "UGATO")
    assert gato["attack_ground"] == "N/A"
    gato["attack_sea"] = "7"
    with sheet.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    assert run(capsys, "deck", "import-csv", "battlecards-pacific", sheet, out)[0] == 0
    deck = load_game("battlecards-pacific", str(out))
    assert deck["UGATO"]["attack_sea"] == 7 and deck["UGATO"]["attack_ground"] is None


def test_a_bad_csv_reports_every_problem_and_writes_nothing(tmp_path, capsys):
    sheet, out = tmp_path / "warriors.csv", tmp_path / "warriors.json"
    custom.export_csv(load_game("warriors"), sheet)
    rows = list(csv.DictReader(sheet.open()))
    next(r for r in rows if r["id"] == "MORONI")["points"] = "three"
    next(r for r in rows if r["id"] == "SWORD")["copies"] = "3"
    next(r for r in rows if r["id"] == "LEHI")["side"] = "neutral"
    with sheet.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    code, _, err = run(capsys, "deck", "import-csv", "warriors", sheet, out)
    assert code == 1 and not out.exists()
    assert f"{sheet}: " in err
    assert "card 'MORONI': field 'points' must be an integer, not 'three'" in err
    assert "card 'LEHI': field 'side' must be one of ['righteous', 'wicked'], not 'neutral'" in err
    assert "the appendix has 4 Sword card(s); this deck has 3" in err


def test_a_csv_with_an_unknown_column_is_refused_naming_it(tmp_path, capsys):
    sheet = tmp_path / "odd.csv"
    sheet.write_text("id,name,kind,copies,colour,rank,flavour\nR10,Marshal,piece,1,red,10,sweet\n")
    code, _, err = run(capsys, "deck", "import-csv", "stratego", sheet, tmp_path / "out.json")
    assert code == 1 and "column 'flavour' is not an attribute of any stratego card" in err


# -- a tag from another version of the catalog ---------------------------------------------------
def test_a_tag_for_a_card_the_deck_no_longer_has_is_refused_with_the_reason(tmp_path):
    """Version 2 of an owner's deck renamed card SAM; the old sticker still says SAM."""
    old_tag = encode(CardRef("warriors", "SAM", 1))
    data = json.loads(reference_deck_path("warriors").read_text())
    data["version"] = 2
    next(c for c in data["cards"] if c["id"] == "SAM")["id"] = "SAMN"
    path = tmp_path / "v2.json"
    path.write_text(json.dumps(data))
    deck = load_game("warriors", str(path))
    with pytest.raises(KeyError) as caught:
        deck.lookup(decode(old_tag))
    assert caught.value.args[0] == "this Warriors of the Promised Land deck (catalog version 2) has no card SAM"
    with pytest.raises(KeyError, match="Sword \\(SWORD\\) has 4 copies in this deck, not a copy 5"):
        deck.lookup(CardRef("warriors", "SWORD", 5))
    with pytest.raises(KeyError, match="belongs to another game \\(stratego\\)"):
        deck.lookup(CardRef("stratego", "R10", 1))
    assert deck.lookup(CardRef("warriors", "SAMN", 1)).name == "Sam"


def test_custom_check_needs_to_know_the_game(tmp_path):
    path = tmp_path / "nameless.json"
    path.write_text(json.dumps({"version": 1, "cards": []}))
    with pytest.raises(CatalogError, match="field 'game' is missing"):
        custom.check_file(path)
