"""A reference deck is read and checked once and kept (card_tags/catalog.py, ``load_game``): every
game started, log replayed and deck page served asks for one. A deck file changed on disk is read
again, a deck that fails its checks is never kept, and a custom deck is always read."""
from __future__ import annotations

import json

import pytest

from card_tags import catalog
from card_tags.catalog import CatalogError, load_game, reference_deck_path


@pytest.fixture
def reference_copy(tmp_path, monkeypatch):
    """Stratego's reference deck, as a file of this test's own in the reference decks' place."""
    path = tmp_path / "stratego.json"
    path.write_text(reference_deck_path("stratego").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(catalog, "reference_deck_path", lambda game: path if game == "stratego" else tmp_path / "none")
    return path


def test_the_reference_deck_is_read_once():
    assert load_game("stratego") is load_game("stratego")


def test_a_reference_deck_changed_on_disk_is_read_again(reference_copy):
    first = load_game("stratego")
    assert load_game("stratego") is first
    data = json.loads(reference_copy.read_text(encoding="utf-8"))
    data["title"] = "Stratego, the copy on this table"
    reference_copy.write_text(json.dumps(data), encoding="utf-8")
    assert load_game("stratego").title == "Stratego, the copy on this table"


def test_a_reference_deck_that_fails_its_checks_is_not_kept(reference_copy):
    data = json.loads(reference_copy.read_text(encoding="utf-8"))
    good = reference_copy.read_text(encoding="utf-8")
    data["cards"] = data["cards"][:-1]  # a rank missing: the rulebook's counts fail
    reference_copy.write_text(json.dumps(data), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(CatalogError):
            load_game("stratego")
    reference_copy.write_text(good, encoding="utf-8")
    assert load_game("stratego").total_copies() == 80


def test_a_custom_deck_is_read_each_time(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(reference_deck_path("stratego").read_text(encoding="utf-8"), encoding="utf-8")
    assert load_game("stratego", path) is not load_game("stratego", path)
