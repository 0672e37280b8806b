"""A game state to JSON data and back, exactly: what a snapshot of the game log stores.

A state is either plain data (a dict of lists, dicts, tuples, str, int, float, bool, None;
tuples and non-string keys are tagged so that they come back as they were) or a
dataclass whose fields are typed with: int, str, bool, float, None, Any (plain data),
list[T], tuple[T, ...], tuple[A, B], set[T], frozenset[T], dict[K, T] with K a str, an int or a
str/int-valued Enum (JSON object keys are strings; int and enum keys are restored), T | None,
Literal[...], nested dataclasses and Enum subclasses. The encoder reads the type hints
(``typing.get_type_hints``) so the data carries no class names except the root's, recorded as
``"module:qualname"``.

Decoding imports that root class only from modules under ``companion.rules.`` or ``tests.``: the
database is data, not trusted code, and must never name what gets imported. Anything the codec
cannot represent exactly raises CodecError (a snapshot is then simply not taken).
"""
from __future__ import annotations

import dataclasses
import enum
import functools
import importlib
import math
import types
import typing
from typing import Any, Callable

from companion.gamelog.finite import NotFinite, finite_decoder

TRUSTED_MODULES = ("companion.rules.", "tests.")

Codec = tuple[Callable[[Any], Any], Callable[[Any], Any]]  # (encode, decode)


class CodecError(ValueError):
    """This value cannot be encoded or decoded exactly; the message says where and why."""


def encode_state(state: Any) -> dict[str, Any]:
    """``{"type": "module:qualname" or None, "value": JSON data}`` for a dataclass or plain state."""
    if dataclasses.is_dataclass(state) and not isinstance(state, type):
        cls = type(state)
        return {"type": f"{cls.__module__}:{cls.__qualname__}", "value": _codec(cls)[0](state)}
    return {"type": None, "value": encode_plain(state)}


def decode_state(data: Any) -> Any:
    """The state ``encode_state`` encoded, equal to the original; CodecError if it is not one."""
    if not isinstance(data, dict) or "value" not in data:
        raise CodecError("not an encoded state")
    name = data.get("type")
    if name is None:
        return _plain_decode(data["value"])
    return _codec(state_class(name))[1](data["value"])


def state_class(name: Any) -> type:
    """The dataclass a ``"module:qualname"`` names, imported only from the project's own rules or tests."""
    if not isinstance(name, str) or ":" not in name:
        raise CodecError(f"not a state class name: {name!r}")
    module_name, _, qualname = name.partition(":")
    if not module_name.startswith(TRUSTED_MODULES) or "<" in qualname:
        raise CodecError(f"refusing to load a state class from {module_name!r}: only modules under "
                         f"{' or '.join(TRUSTED_MODULES)} may define game states")
    try:
        found: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError) as exc:
        raise CodecError(f"no state class {name}: {exc}") from None
    if not (isinstance(found, type) and dataclasses.is_dataclass(found)):
        raise CodecError(f"{name} is not a dataclass")
    return found


# -- plain data (a dict state, a field typed Any, an outcome's data) ------------------------------
# JSON has no tuples and only string keys. Plain data that has them (an outcome's {1: 30, 2: 12})
# is written as a tagged object, {TAG: "dict", "items": [[1, 30], [2, 12]]}, and read back as it was.
TAG = "\u0000type"


def encode_plain(value: Any, where: str = "state") -> Any:
    """Untyped data as JSON, exactly: tuples and non-string keys are tagged; other objects refused."""
    kind = type(value)
    if value is None or kind in (str, int, bool):
        return value
    if kind is float:
        if not math.isfinite(value):
            raise CodecError(f"{where}: {value} is not JSON")
        return value
    if kind is list:
        return [encode_plain(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if kind is tuple:
        return {TAG: "tuple", "items": [encode_plain(v, f"{where}[{i}]") for i, v in enumerate(value)]}
    if kind is dict:
        if all(type(k) is str for k in value) and TAG not in value:
            return {k: encode_plain(v, f"{where}.{k}") for k, v in value.items()}
        return {TAG: "dict", "items": [[encode_plain(k, f"{where} key"), encode_plain(v, f"{where}.{k}")]
                                       for k, v in value.items()]}
    raise CodecError(f"{where}: a {kind.__name__} is not plain data (type the state as a dataclass)")


def untag(obj: dict[str, Any]) -> Any:
    """``json.loads(text, object_hook=untag)``: the tuples and dicts ``encode_plain`` tagged, restored."""
    tag = obj.get(TAG)
    if tag is None:
        return obj
    items = obj.get("items")
    if tag == "tuple" and isinstance(items, list):
        return tuple(items)
    if tag == "dict" and isinstance(items, list) and all(isinstance(i, list) and len(i) == 2 for i in items):
        try:
            return {k: v for k, v in items}
        except TypeError:  # a key that cannot be one
            raise CodecError(f"a tagged dict with a key that is not hashable: {items!r}") from None
    raise CodecError(f"not a tagged value: {obj!r}")


def loads(text: str) -> Any:
    """JSON text written from ``encode_state`` or ``encode_plain``, with tagged values restored.
    A number that is not finite is refused, as the encoder refuses one: it was never written."""
    try:
        return _DECODER.decode(text)
    except NotFinite as exc:
        raise CodecError(f"{exc.text[:24]} is not a number a state holds") from None


_DECODER = finite_decoder(object_hook=untag)


def _plain_decode(value: Any) -> Any:
    """Plain data read with ``loads`` is already as it was; read with ``json.loads``, untag it here."""
    if isinstance(value, list):
        return [_plain_decode(v) for v in value]
    if isinstance(value, dict):
        return untag({k: _plain_decode(v) for k, v in value.items()})
    if isinstance(value, tuple):
        return tuple(_plain_decode(v) for v in value)
    return value


# -- typed values -----------------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _codec(hint: Any) -> Codec:
    """The (encode, decode) pair for one type hint, built once per hint."""
    if hint is Any:
        return encode_plain, _plain_decode
    if hint is None or hint is type(None):
        return _exact(type(None)), _exact(type(None))
    if hint in (int, str, bool):
        return _exact(hint), _exact(hint)
    if hint is float:
        return _float, _float
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return _enum_codec(hint)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass_codec(hint)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is list:
        return _sequence_codec(list, _codec(args[0]) if args else _codec(Any))
    if origin in (set, frozenset):
        return _sequence_codec(origin, _codec(args[0]) if args else _codec(Any))
    if origin is tuple:
        return _tuple_codec(args)
    if origin is dict:
        return _dict_codec(args[0] if args else str, args[1] if args else Any)
    if origin is typing.Literal:
        return _literal_codec(args)
    if origin in (typing.Union, types.UnionType):
        return _union_codec(args)
    if hint in (list, dict, tuple, set, frozenset):
        return _codec(typing.Dict[str, Any] if hint is dict else hint[Any, ...] if hint is tuple else hint[Any])
    raise CodecError(f"a state field typed {hint!r} cannot be snapshotted")


def _exact(kind: type) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if type(value) is not kind:
            raise CodecError(f"expected a {kind.__name__}, found {value!r}")
        return value
    return check


def _float(value: Any) -> Any:
    if type(value) not in (float, int) or (type(value) is float and not math.isfinite(value)):
        raise CodecError(f"expected a finite float, found {value!r}")
    return value  # an int in a float field stays an int: 1 == 1.0, and JSON keeps which it was


def _enum_codec(cls: type[enum.Enum]) -> Codec:
    def encode(value: Any) -> Any:
        if type(value) is not cls:
            raise CodecError(f"expected a {cls.__name__}, found {value!r}")
        return encode_plain(value.value, cls.__name__)

    def decode(value: Any) -> Any:
        try:
            return cls(value)
        except ValueError:
            raise CodecError(f"{value!r} is not a {cls.__name__}") from None
    return encode, decode


def _dataclass_codec(cls: type) -> Codec:
    try:
        hints = typing.get_type_hints(cls)
    except Exception as exc:  # a forward reference the module cannot resolve
        raise CodecError(f"the fields of {cls.__qualname__} cannot be read: {exc}") from None
    fields = [(f.name, f.init, hints[f.name]) for f in dataclasses.fields(cls)]
    codecs: dict[str, Codec] = {}

    def codec(name: str, hint: Any) -> Codec:
        # resolved on first use, so a dataclass may contain itself (a tree of states)
        if name not in codecs:
            codecs[name] = _codec(hint)
        return codecs[name]

    def encode(value: Any) -> Any:
        if type(value) is not cls:
            raise CodecError(f"expected a {cls.__qualname__}, found {type(value).__qualname__}")
        out = {}
        for name, _, hint in fields:
            try:
                out[name] = codec(name, hint)[0](getattr(value, name))
            except CodecError as exc:
                raise CodecError(f"{cls.__qualname__}.{name}: {exc}") from None
        return out

    def decode(value: Any) -> Any:
        if not isinstance(value, dict) or set(value) != {name for name, _, _ in fields}:
            raise CodecError(f"not the fields of a {cls.__qualname__}")
        given, later = {}, {}
        for name, init, hint in fields:
            (given if init else later)[name] = codec(name, hint)[1](value[name])
        made = cls(**given)
        for name, decoded in later.items():  # fields outside __init__ are set as they were
            object.__setattr__(made, name, decoded)
        return made
    return encode, decode


def _sequence_codec(kind: type, item: Codec) -> Codec:
    def encode(value: Any) -> Any:
        if type(value) is not kind:
            raise CodecError(f"expected a {kind.__name__}, found {type(value).__name__}")
        return [item[0](v) for v in value]

    def decode(value: Any) -> Any:
        if not isinstance(value, list):
            raise CodecError(f"expected a list for a {kind.__name__}")
        return kind(item[1](v) for v in value)
    return encode, decode


def _tuple_codec(args: tuple[Any, ...]) -> Codec:
    if not args or (len(args) == 2 and args[1] is Ellipsis):
        encode, decode = _sequence_codec(tuple, _codec(args[0] if args else Any))
        return encode, decode
    items = [_codec(a) for a in args]

    def encode_fixed(value: Any) -> Any:
        if type(value) is not tuple or len(value) != len(items):
            raise CodecError(f"expected a tuple of {len(items)}, found {value!r}")
        return [c[0](v) for c, v in zip(items, value)]

    def decode_fixed(value: Any) -> Any:
        if not isinstance(value, list) or len(value) != len(items):
            raise CodecError(f"expected a list of {len(items)}")
        return tuple(c[1](v) for c, v in zip(items, value))
    return encode_fixed, decode_fixed


def _dict_codec(key_hint: Any, value_hint: Any) -> Codec:
    key_out, key_in = _key_codec(key_hint)
    item = _codec(value_hint)

    def encode(value: Any) -> Any:
        if type(value) is not dict:
            raise CodecError(f"expected a dict, found {type(value).__name__}")
        out = {key_out(k): item[0](v) for k, v in value.items()}
        if len(out) != len(value):
            raise CodecError("two keys of one dict are written the same way")
        if TAG in out:  # it would be read back as a tagged value, not as this dict
            raise CodecError(f"a dict key is {TAG!r}, the codec's own tag")
        return out

    def decode(value: Any) -> Any:
        if not isinstance(value, dict):
            raise CodecError("expected an object for a dict")
        return {key_in(k): item[1](v) for k, v in value.items()}
    return encode, decode


def _key_codec(hint: Any) -> tuple[Callable[[Any], str], Callable[[str], Any]]:
    """JSON object keys are strings: an int or enum key is written as one and read back."""
    if hint is str:
        return _exact(str), _exact(str)
    if hint is int:
        def int_key(value: Any) -> str:
            return str(_exact(int)(value))

        def read_int(text: str) -> int:
            try:
                return int(text)
            except ValueError:
                raise CodecError(f"key {text!r} is not an int") from None
        return int_key, read_int
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        encode, decode = _enum_codec(hint)
        kind = {type(m.value) for m in hint}
        if kind == {str}:
            return encode, decode
        if kind == {int}:
            return (lambda v: str(encode(v))), (lambda text: decode(int(text)))
    raise CodecError(f"dict keys typed {hint!r} cannot be snapshotted (use str, int or an Enum)")


def _literal_codec(args: tuple[Any, ...]) -> Codec:
    def check(value: Any) -> Any:
        if not any(type(value) is type(a) and value == a for a in args):
            raise CodecError(f"{value!r} is not one of {list(args)}")
        return value
    return check, check


_SCALARS = (type(None), bool, int, float, str)


def _union_codec(args: tuple[Any, ...]) -> Codec:
    """T | None and unions of scalars; a union of two structured types would be ambiguous in JSON."""
    scalars = [a for a in args if a in _SCALARS]
    structured = [a for a in args if a not in _SCALARS]
    if len(structured) > 1:
        raise CodecError(f"a field typed {' | '.join(map(repr, args))} cannot be snapshotted "
                         f"(JSON cannot tell its members apart)")
    written_as_scalar = structured and (typing.get_origin(structured[0]) is typing.Literal or (
        isinstance(structured[0], type) and issubclass(structured[0], enum.Enum)))
    if written_as_scalar and set(scalars) - {type(None)}:
        raise CodecError(f"a field typed {' | '.join(map(repr, args))} cannot be snapshotted "
                         f"(its {structured[0]!r} is written as a plain value)")
    inner = _codec(structured[0]) if structured else None

    def encode(value: Any) -> Any:
        if type(value) in scalars or (float in scalars and type(value) is int):
            return _codec(type(value))[0](value)
        if inner is None:
            raise CodecError(f"{value!r} is not one of {args}")
        return inner[0](value)

    def decode(value: Any) -> Any:
        if type(value) in scalars or (float in scalars and type(value) is int):
            return value
        if inner is None:
            raise CodecError(f"{value!r} is not one of {args}")
        return inner[1](value)
    return encode, decode
