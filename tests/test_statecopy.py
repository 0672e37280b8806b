"""The copy the tablet's buttons are tried on (companion/rules/statecopy.py): equal to the state, sharing
nothing a rule could change, whatever the fields hold; what says how it is copied is asked."""
from __future__ import annotations

import collections
import copy
from dataclasses import dataclass, field
from typing import Any

from companion.rules.statecopy import copy_state


@dataclass(kw_only=True)
class Piece:
    rank: str
    moves: list[int] = field(default_factory=list)


@dataclass(kw_only=True)
class Scout(Piece):
    path: list[str] = field(default_factory=list)


@dataclass(kw_only=True, frozen=True)
class Told:
    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def __deepcopy__(self, memo: dict[int, Any]) -> "Told":
        return self  # shared by every copy, as the contract's told outcomes (contract.Told) are


@dataclass(kw_only=True)
class Table:
    pieces: dict[str, Piece] = field(default_factory=dict)
    first: Piece | None = None
    leader: Piece = field(default_factory=lambda: Piece(rank="1"))
    counts: dict[int, int] = field(default_factory=dict)
    pairs: list[tuple[int, int]] = field(default_factory=list)
    notes: Any = None
    told: list[Told] = field(default_factory=list)


def test_every_part_is_copied_and_equal():
    table = Table(pieces={"R1#1": Scout(rank="2", moves=[1], path=["a"])}, first=Piece(rank="3", moves=[2]),
                  counts={1: 2}, pairs=[(1, 2)], notes={"seen": [1, {"deep": [2]}]})
    copied = copy_state(table)
    assert copied == table and copied == copy.deepcopy(table)
    copied.pieces["R1#1"].moves.append(9)
    copied.pieces["R1#1"].path.append("b")  # a subclass in a field typed by its base keeps its own fields
    assert copied.first is not None
    copied.first.moves.append(9)
    copied.leader.moves.append(9)
    copied.counts[1] = 5
    copied.notes["seen"][1]["deep"].append(3)  # typed Any: copied by what it holds
    assert table == Table(pieces={"R1#1": Scout(rank="2", moves=[1], path=["a"])}, first=Piece(rank="3", moves=[2]),
                          counts={1: 2}, pairs=[(1, 2)], notes={"seen": [1, {"deep": [2]}]})


def test_a_value_its_field_was_not_typed_for_is_copied_by_its_own_type():
    table = Table(leader=None, counts=collections.defaultdict(int, {1: [2]}))  # type: ignore[arg-type]
    copied = copy_state(table)
    assert copied == table and copied.leader is None
    assert type(copied.counts) is collections.defaultdict
    copied.counts[1].append(3)
    assert table.counts[1] == [2]


def test_what_says_how_it_is_copied_is_asked():
    told = Told(kind="battle", data={"winner": 1})
    copied = copy_state(Table(told=[told]))
    assert copied.told[0] is told and copied.told is not None


def test_an_instance_with_more_or_fewer_attributes_than_its_fields_is_copied_whole():
    """Each class's copy sets its fields one by one; an instance that keeps something beside its
    fields, or lacks one, is copied by its own attributes instead."""
    extra, lacking = Piece(rank="2", moves=[1]), Piece(rank="3", moves=[2])
    extra.kept = [{"seen": [1]}]  # type: ignore[attr-defined]
    del lacking.moves
    copied, short = copy_state(extra), copy_state(lacking)
    assert copied == extra and copied.kept == [{"seen": [1]}]  # type: ignore[attr-defined]
    copied.kept[0]["seen"].append(2)  # type: ignore[attr-defined]
    copied.moves.append(2)
    assert extra.kept == [{"seen": [1]}] and extra.moves == [1]  # type: ignore[attr-defined]
    assert short.rank == "3" and not hasattr(short, "moves")


def test_a_frozen_dataclass_is_copied_too():
    @dataclass(frozen=True)
    class Frozen:
        rank: str
        moves: list[int] = field(default_factory=list)

    frozen = Frozen("4", [1])
    copied = copy_state(frozen)
    assert copied == frozen and copied.moves is not frozen.moves
