"""A game state's deep copy made from its dataclasses' field types: what the fold and the tablet's buttons apply inputs to.

``copy.deepcopy`` walks every object of a state through its generic machinery (a memo of every
object, ``__reduce_ex__`` for each dataclass), and the tablet's buttons copy the state once per
candidate: that walk was most of the cost of a view (docs/benchmarks.md, "Offered buttons"), and
the fold's copy for every input (gamelog/fold.py) a quarter of the heaviest tests' CPU.
A state is plain data in typed dataclasses (contract.GameState), so the copy can be planned once
per class from its fields' types: a ``list[str]`` is ``list(v)``, a ``dict[int, int]`` is
``v.copy()``, a nested dataclass its own planned copy, an ``int`` or ``str`` shared as it is.

It copies as deeply as ``deepcopy`` wherever the types are true (mypy --strict checks them for
every game) and falls back to a copy by the value's own type wherever they say nothing (``Any``)
or the value is not what its field says (a subclass, a tuple in a list field). What it does not
keep is aliasing inside one state (one list reached by two paths becomes two lists): a state is
a tree, as the snapshots (gamelog/statecodec.py) already require. An object that says how it is
copied (``__deepcopy__``, like the contract's frozen ``Told``) is asked, as deepcopy would.
"""
from __future__ import annotations

import copy
import dataclasses
import enum
import keyword
import types
import typing
from typing import Any, Callable, TypeVar

T = TypeVar("T")
Copier = Callable[[Any], Any]

# Values nothing can change in place: shared by the copy, as deepcopy shares them.
ATOMIC: frozenset[type] = frozenset({type(None), bool, int, float, complex, str, bytes, range, type})


def copy_state(state: T) -> T:
    """A copy of ``state`` that shares nothing a rule could change in place with it."""
    copied: T = copy_value(state)
    return copied


def copy_value(value: Any) -> Any:
    """A deep copy of ``value`` by its own type (used where no field type says what it holds)."""
    kind = type(value)
    if kind in ATOMIC:
        return value
    if kind is list:
        return [copy_value(v) for v in value]
    if kind is dict:
        return {k: copy_value(v) for k, v in value.items()}  # keys are hashable, so not changed in place
    if kind is tuple:
        return tuple([copy_value(v) for v in value])
    if kind is set:
        return set(value)  # elements are hashable
    if kind is frozenset or isinstance(value, enum.Enum):
        return value
    if dataclasses.is_dataclass(kind):
        return dataclass_copier(kind)(value)
    return copy.deepcopy(value)


def _is_atomic(hint: Any) -> bool:
    """True for a field type whose values are never changed in place (shared by the copy)."""
    if hint in ATOMIC or hint is None:
        return True
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return True
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Literal:
        return True
    if origin in (typing.Union, types.UnionType, frozenset) or (origin is tuple and args):
        return all(a is Ellipsis or _is_atomic(a) for a in args)
    return False


def _checked(kind: type, planned: Copier) -> Copier:
    """``planned`` for a value of exactly ``kind``; anything else is copied by its own type."""
    def copy_one(value: Any) -> Any:
        return planned(value) if type(value) is kind else copy_value(value)
    return copy_one


def _item_copier(hint: Any) -> Copier | None:
    """How a value of this field type is copied: None when it is shared as it is (atomic)."""
    if _is_atomic(hint):
        return None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is list and args:
        return _checked(list, _list_copier(_item_copier(args[0])))
    if origin is dict and len(args) == 2:
        return _checked(dict, _dict_copier(_item_copier(args[1])))
    if origin is set and args and _is_atomic(args[0]):
        return _checked(set, set.copy)
    if origin in (typing.Union, types.UnionType):
        members = [a for a in args if a is not type(None)]
        if len(members) == 1:  # T | None
            inner = _item_copier(members[0])
            return None if inner is None else _optional_copier(inner)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass_field(hint)
    return copy_value  # Any, a bare list or dict, a tuple of structures: by the value's own type


def _list_copier(inner: Copier | None) -> Copier:
    if inner is None:
        return list.copy
    return lambda value: [inner(v) for v in value]


def _dict_copier(inner: Copier | None) -> Copier:
    if inner is None:
        return dict.copy
    return lambda value: {k: inner(v) for k, v in value.items()}


def _optional_copier(inner: Copier) -> Copier:
    return lambda value: None if value is None else inner(value)


def _dataclass_field(kind: type) -> Copier:
    """A field typed by a dataclass: its plan, looked up once it is first used (a class may name
    itself, or one planned later, in its fields); a value of another class by its own plan."""
    found: list[Copier] = []

    def copy_one(value: Any) -> Any:
        if type(value) is not kind:
            return _own_dataclass(value)
        if not found:
            found.append(dataclass_copier(kind))
        return found[0](value)
    return copy_one


def _own_dataclass(value: Any) -> Any:
    """A value of a dataclass field, copied by its own class's plan (a subclass has its own fields;
    anything else the field was not typed for, by its own type)."""
    planned = _PLANS.get(type(value))
    return planned(value) if planned is not None else copy_value(value)


def dataclass_copier(cls: type) -> Copier:
    """The planned copy of one dataclass: its fields copied by their types, the instance made as
    deepcopy makes it (no ``__init__``, no ``__post_init__``). Planned once per class."""
    planned = _PLANS.get(cls)
    if planned is None:
        planned = _PLANS[cls] = _plan(cls)
    return planned


_PLANS: dict[type, Copier] = {}
_OBJECTS_OWN_SETATTR: Any = object.__setattr__
_PICKLING = ("__reduce_ex__", "__reduce__", "__getstate__", "__setstate__", "__slots__")


def _plan(cls: type) -> Copier:
    custom = getattr(cls, "__deepcopy__", None)
    if custom is not None:
        return lambda v: v.__deepcopy__({})
    own_pickling = any(name in vars(k) for k in cls.__mro__[:-1] for name in _PICKLING)
    if own_pickling:
        return copy.deepcopy  # it says how it is pickled: deepcopy follows that, so do we
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # a forward reference its module cannot resolve: copy by the values' types
        hints = {}
    planned = {f.name: _item_copier(hints.get(f.name, Any)) for f in dataclasses.fields(cls)}
    copied = [(name, how) for name, how in planned.items() if how is not None]
    fields, make = len(planned), object.__new__

    def copy_by_dict(value: Any) -> Any:
        made: Any = make(cls)
        attrs = value.__dict__
        new = made.__dict__
        new.update(attrs)  # the atomic fields, shared
        for name, how in copied:
            if name in attrs:
                new[name] = how(attrs[name])
        if len(attrs) != fields:  # anything kept beside the fields: by its own type
            for name in attrs.keys() - planned.keys():
                new[name] = copy_value(attrs[name])
        return made
    plain_names = all(name.isidentifier() and not keyword.iskeyword(name) for name in planned)
    if cls.__setattr__ is not _OBJECTS_OWN_SETATTR or not plain_names:  # frozen, or it sets its own way
        return copy_by_dict
    return _compiled(cls, planned, copy_by_dict)


def _compiled(cls: type, planned: dict[str, Copier | None], other: Copier) -> Copier:
    """The planned copy of a (not frozen) dataclass as one function that sets each field in turn,
    as ``__init__`` would: CPython then keeps the instance's values inline, and comparing two such
    copies (the kept buttons' check compares the state with one) took half the time it took for
    instances whose ``__dict__`` was filled (0.9 against 2.0 us for a Stratego piece; a whole state
    in play 165 against 325 us); the copy itself is faster too. An instance with a field missing
    or anything kept beside its fields is copied by ``other``."""
    names = {f"how{i}": how for i, how in enumerate(planned.values()) if how is not None}
    hows = iter(names)
    lines = ["def copy_instance(value):", "    attrs = value.__dict__", "    if len(attrs) != FIELDS:",
             "        return OTHER(value)", "    try:", "        made = MAKE(CLS)"]
    for name, how in planned.items():
        lines.append(f"        made.{name} = attrs[{name!r}]" if how is None else
                     f"        made.{name} = {next(hows)}(attrs[{name!r}])")
    lines += ["    except KeyError:", "        return OTHER(value)", "    return made"]
    scope: dict[str, Any] = {"FIELDS": len(planned), "OTHER": other, "MAKE": object.__new__, "CLS": cls, **names}
    exec("\n".join(lines), scope)  # of the class's own field names, checked as identifiers above
    made: Copier = scope["copy_instance"]
    return made
