"""The simulation's play-outs (``playout.c``) and the exact count (``exact.c``) compiled, built with the system's C
compiler the first time they are needed and loaded with ctypes, as Klipper builds its host helpers: no Python
headers, no build step in pip.
``scripts/setup.sh`` and ``install.sh`` build them ahead (``main``), so a table never waits for the compiler.
Without a compiler the simulation runs in Python (``simulate.Moves``) and the count too (``count.Exact``): the
same figures, slower (tests/test_battlecards_playout.py and test_battlecards_exact_compiled.py compare them).

The library is named by a digest of its source and the machine, so an edited source or another CPU (the same
tree seen from an arm64 root) never loads a stale build; it is written next to this file when the folder is
writable, else in the user's cache (``$XDG_CACHE_HOME/companion``)."""
from __future__ import annotations

import ctypes
import hashlib
import logging
import os
import platform
import shutil
import subprocess
import tempfile
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from numpy.typing import NDArray

from .count import Exact, PlayedBattle, subsets
from .question import AGGRESSOR

log = logging.getLogger(__name__)

SOURCES = tuple(Path(__file__).with_name(name) for name in ("playout.c", "exact.c"))
# Read once, with the module: the library built is always the one this module's declarations below describe,
# even when a file changes under a running service (an update), which would otherwise load a mismatched one.
SOURCE_TEXTS = tuple(source.read_bytes() for source in SOURCES)
# (-ffp-contract=off: no fused multiply-add, so the count's sums are Python's to the last bit on every CPU)
FLAGS = ("-O2", "-shared", "-fPIC", "-std=c99", "-ffp-contract=off")
MOST_UNITS = 64          # an alive set is one 64-bit word: a larger battle is played out in Python


def _library_name() -> str:
    digest = hashlib.sha256(b"".join(SOURCE_TEXTS) + " ".join(FLAGS).encode()).hexdigest()[:16]
    return f"playout-{platform.machine()}-{digest}.so"


def _build_dirs() -> list[Path]:
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "companion"
    return [SOURCES[0].parent / "_build", cache]


def build() -> Path | None:
    """The library, built if no build of this source is found; None (and a warning logged) without a C
    compiler or a folder to write it in."""
    name = _library_name()
    for folder in _build_dirs():
        if (folder / name).is_file():
            return folder / name
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        log.warning("no C compiler (cc): BATTLECARDS odds (play-outs and count) run in Python, slower")
        return None
    for folder in _build_dirs():
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        return _compile(compiler, folder, name)
    log.warning("no folder to build the compiled play-outs in: BATTLECARDS odds (play-outs and count) run in Python, slower")
    return None


def _compile(compiler: str, folder: Path, name: str) -> Path | None:
    """Compile the source read with this module into ``folder/name``: written under temporary names and
    renamed, so two processes building at once never load half a file."""
    with tempfile.TemporaryDirectory(prefix=".playout-", dir=folder) as work:
        partial, sources = Path(work) / name, [Path(work) / source.name for source in SOURCES]
        for source, text in zip(sources, SOURCE_TEXTS, strict=True):
            source.write_bytes(text)
        try:
            done = subprocess.run([compiler, *FLAGS, "-o", str(partial), *map(str, sources)], capture_output=True, text=True)
            failed = (done.stderr.strip()[-500:] or f"{compiler} exited with {done.returncode}") if done.returncode else ""
        except OSError as error:
            failed = str(error)
        if failed or not partial.is_file():
            log.warning("the compiled play-outs did not build (%s): BATTLECARDS odds (play-outs and count) run in Python, slower",
                        failed)
            return None
        os.replace(partial, folder / name)
    for stale in folder.glob(f"playout-{platform.machine()}-*.so"):   # earlier sources' builds for this CPU
        if stale.name != name:
            stale.unlink(missing_ok=True)     # (a process that loaded one keeps it: the mapping outlives the name)
    return folder / name


_I32, _I64, _U64 = ctypes.c_int32, ctypes.c_int64, ctypes.c_uint64
_P32, _P64 = ctypes.POINTER(ctypes.c_int32), ctypes.POINTER(ctypes.c_int64)   # (a C function's results)
_ARRAY = ctypes.c_void_p    # an array's data, as ``_address`` gives it (data_as() cost 0.2 ms of a query)


@lru_cache(maxsize=1)
def library() -> ctypes.PyDLL | None:
    """The loaded library, or None when it cannot be built (the Python play-outs and count are used)."""
    lib = _load()
    if lib is None:
        return None
    lib.playout_new.restype = ctypes.c_void_p
    lib.playout_new.argtypes = [_ARRAY, _I64, _ARRAY, _I64]
    lib.playout_free.restype = None
    lib.playout_free.argtypes = [ctypes.c_void_p]
    lib.playout_place.restype = _I32
    lib.playout_place.argtypes = [ctypes.c_void_p, _U64, _I32, _I32]
    lib.playout_run.restype = _I64
    lib.playout_run.argtypes = [ctypes.c_void_p, _ARRAY, _I64, _ARRAY, _I64, _ARRAY, _ARRAY, _I64, _I64, _I64, _I64, _P32]
    lib.playout_tally.restype = _I64
    lib.playout_tally.argtypes = [ctypes.c_void_p, _ARRAY, _I64, _P64]
    lib.exact_new.restype = ctypes.c_void_p
    lib.exact_new.argtypes = [_ARRAY, _I64, _I64]
    lib.exact_free.restype = None
    lib.exact_free.argtypes = [ctypes.c_void_p]
    lib.exact_value.restype = _I32
    lib.exact_value.argtypes = [ctypes.c_void_p, _I32, _I32, _ARRAY, ctypes.POINTER(ctypes.c_double)]
    return lib


def wanted(compiled: bool) -> ctypes.PyDLL | None:
    """The library where ``compiled`` asks for it (None: the Python ones are asked for); an error when it is
    asked for and not built (a caller choosing the compiled ones must not get Python's silently)."""
    lib = library() if compiled else None
    if compiled and lib is None:
        raise RuntimeError("the compiled play-outs and count are not built (no C compiler?)")
    return lib


def _load() -> ctypes.PyDLL | None:
    """The library loaded, built first if need be; built again once if it went between its build and its
    loading (a process building another source's removes this one: an update beside a running service)."""
    for _ in range(2):
        path = build()
        if path is None:
            return None
        try:
            # PyDLL, not CDLL: the calls hold the GIL, as the Python play-outs did, so two of the service's
            # threads asking the odds of one battle never run the same engine at once (its tables grow by realloc)
            return ctypes.PyDLL(str(path))
        except OSError as error:
            failed = error
    log.warning("the compiled play-outs did not load (%s): BATTLECARDS odds (play-outs and count) run in Python, slower", failed)
    return None


def blob(battle: PlayedBattle) -> NDArray[np.int32]:
    """A PlayedBattle's fields as playout.c's ``unpack`` reads them, every one an int32."""
    n, fighters = len(battle.fighters), battle.fighters
    volley = []
    for step, (phase, side, _) in enumerate(battle.steps):
        j = step - 1
        while j >= 0 and battle.steps[j][:2] == (phase, side):
            j -= 1
        volley.append(j + 1)
    pairs = [pair for row in battle.base for pair in row]     # n x n, row by row
    prefix = np.concatenate([[0], np.cumsum(battle.reference, dtype=np.int64)]) if battle.reference else np.zeros(1)
    fields: list[list[int]] = [
        [n, len(battle.steps), int(bool(battle.must_destroy)), len(battle.reference), len(battle.numbers)],
        [0 if s == AGGRESSOR else 1 for s in battle.side],
        [int(bool(f.phases)) for f in fighters],
        [int(f.type in battle.must_destroy) for f in fighters],
        [f.support_attack for f in fighters], [f.support_defense for f in fighters],
        [shooter for _, _, shooter in battle.steps], volley,
        [_signed(bits & 0xFFFFFFFF) for bits in battle.step_relevant], [_signed(bits >> 32) for bits in battle.step_relevant],
        *_lists(battle.attack_support), *_lists(battle.defense_support), *_lists(battle.enemies),
        [int(pair is not None) for pair in pairs], [(pair or (0, 0))[0] for pair in pairs],
        [(pair or (0, 0))[1] for pair in pairs],
        [int(c) for c in prefix], list(battle.numbers)]
    return np.array([v for field in fields for v in field], dtype=np.int32)


def _signed(word: int) -> int:
    """A 32-bit word as the int32 that holds it."""
    return word - (1 << 32) if word >= 1 << 31 else word


def _lists(lists: list[list[int]]) -> tuple[list[int], list[int]]:
    """Lists of unit indices as offsets (one more than the lists) and their items end to end."""
    offsets = [0]
    for items in lists:
        offsets.append(offsets[-1] + len(items))
    return offsets, [i for items in lists for i in items]


class CompiledMoves:
    """simulate.Moves compiled: the states a battle's play-outs have met, numbered, with where each card turned
    sends a play-out, kept between the questions of one battle (simulate.table)."""

    def __init__(self, lib: ctypes.PyDLL, now: PlayedBattle, later: PlayedBattle):
        self.lib, self.now, self.later, self.n = lib, now, later, len(later.steps)
        first = blob(now)
        then = first if later is now else blob(later)     # (no Kept Card played: one battle)
        self.handle = lib.playout_new(_address(first, np.int32), len(first), _address(then, np.int32), len(then))
        if not self.handle:
            raise MemoryError("the compiled play-outs could not allocate a battle")

    def __del__(self) -> None:
        if getattr(self, "handle", None):
            self.lib.playout_free(self.handle)
            self.handle = None

    def place(self, mask: int, step: int, first: bool) -> int:
        found = self.lib.playout_place(self.handle, mask, step, int(first))
        if found < 0:
            raise MemoryError("the compiled play-outs ran out of memory")
        return int(found)

    def run(self, at: NDArray[np.int32], decks: NDArray[np.int8], group: NDArray[np.int32],
            shuffled: NDArray[np.int16], t: int, most: int, tail: int) -> tuple[int, bool]:
        """Turn the cards of each play-out's deck (``decks[group]``) from turn ``t``, in the order of the
        positions under the deck's size in its row of ``shuffled`` (simulate._order's rule): (cards turned,
        whether it stopped early: at turn ``most``, or with no more than ``tail`` play-outs fighting)."""
        runs = len(at)
        if not (shuffled.shape[0] == runs == len(group) and shuffled.shape[1] >= decks.shape[1]):
            raise ValueError("the play-outs, their decks and their shuffles do not match")
        stopped = ctypes.c_int32(0)
        turned = self.lib.playout_run(self.handle, _address(at, np.int32), runs, _address(decks, np.int8),
                                      decks.shape[1], _address(group, np.int32), _address(shuffled, np.int16),
                                      shuffled.shape[1], t, most, tail, ctypes.byref(stopped))
        if turned < 0:
            raise MemoryError("the compiled play-outs ran out of memory")
        return int(turned), bool(stopped.value)

    def tally(self, state: NDArray[np.int32]) -> tuple[int, int]:
        """(The aggressor's wins, the play-outs still fighting)."""
        wins = ctypes.c_int64(0)
        left = self.lib.playout_tally(self.handle, _address(state, np.int32), len(state), ctypes.byref(wins))
        if left < 0:
            raise MemoryError("the compiled play-outs ran out of memory")
        return int(wins.value), int(left)


MOST_KINDS, MOST_CARDS = 10, 63   # exact.c packs a state's cards in one word: so many kinds of so many cards,
MOST_SETS_BITS, MOST_STEPS = 7, 127   # and its alive set and step in a byte each (at most 255 sets: 7 units)


class CompiledExact:
    """count.Exact compiled (exact.c): the same states and figures. The alive sets under those asked, their
    kinds, the policy's shots and the steps that fire are worked out by the Python count (``exact``, which a
    question that the compiled count cannot hold is handed to), and handed over once; the count over the
    cards runs in C. The alive sets are those under every alive set asked so far (a battle's only shrink):
    one outside them makes a new engine for them all."""

    def __init__(self, lib: ctypes.CDLL | ctypes.PyDLL, exact: Exact):
        self.lib, self.exact, self.handle, self.universe = lib, exact, None, 0
        self.number: dict[int, int] = {}
        self.beyond = False     # a battle exact.c cannot hold: the Python count answers every question
        self.expected = 0       # the states the next engine is made for (``reserve``)
        # one question at a time: a question outside the alive sets held frees the engine and makes another,
        # which must not happen under another thread's question (the tablet's and a phone's, say)
        self.lock = threading.RLock()
        self.cards, self.chance = (ctypes.c_int32 * MOST_KINDS)(), ctypes.c_double(0.0)
        self.chance_at = ctypes.byref(self.chance)

    def __del__(self) -> None:
        if getattr(self, "handle", None):
            self.lib.exact_free(self.handle)
            self.handle = None

    def space(self, mask: int) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
        return self.exact.space(mask)

    def reserve(self, states: int) -> None:
        self.expected = max(self.expected, states)

    def value(self, mask: int, s: int, r: tuple[int, ...]) -> float:
        """The aggressor's chance from ``mask`` at step ``s`` with the cards ``r`` left (by its kinds)."""
        with self.lock:
            return self._value(mask, s, r)

    def _value(self, mask: int, s: int, r: tuple[int, ...]) -> float:
        if mask & ~self.universe and not self.beyond:
            self.beyond = not self._hold(mask | self.universe)
        if self.beyond or self.handle is None or max(r, default=0) > MOST_CARDS:
            return self.exact.value(mask, s, r)
        self.cards[:len(r)] = r      # (a ctypes array kept for it: an array made a call was half its cost)
        if not self.lib.exact_value(self.handle, self.number[mask], s, ctypes.addressof(self.cards), self.chance_at):
            raise MemoryError("the compiled count ran out of memory")
        return self.chance.value

    def _hold(self, universe: int) -> bool:
        """A new engine for the alive sets under ``universe``; False (the Python count answers) where one of
        them tells more kinds apart, or its refill holds more cards of a kind, than exact.c packs."""
        if universe.bit_count() > MOST_SETS_BITS or not 0 < self.exact.n <= MOST_STEPS:   # (0: no unit ever fires)
            return False
        sets = list(subsets(universe))
        spaces = [self.exact.space(m) for m in sets]
        if any(kinds > MOST_KINDS or max(refill, default=0) > MOST_CARDS for _, kinds, refill in spaces):
            return False
        if self.handle:
            self.lib.exact_free(self.handle)
        self.handle, self.universe = None, universe
        self.number = {m: i for i, m in enumerate(sets)}
        blob = self._blob(sets, spaces)
        self.handle = self.lib.exact_new(_address(blob, np.int32), len(blob), min(self.expected, 1 << 22))
        if not self.handle:
            raise MemoryError("the compiled count could not allocate a battle")
        return True

    def _blob(self, sets: list[int], spaces: list[tuple[tuple[int, ...], int, tuple[int, ...]]]) -> NDArray[np.int32]:
        """exact.c's fields: n, the sets; each set's outcome, kinds, refill and draw; then each set's shots."""
        exact, n = self.exact, self.exact.n
        heads: list[int] = [n, len(sets)]
        shots: list[int] = []
        for m, (_, kinds, refill) in zip(sets, spaces, strict=True):
            done = exact.b.outcome(m)
            heads += [-1 if done is None else int(done), kinds, *_padded(refill)]
            fires = [None if done is not None else exact.next_draw(m, s) for s in range(n)]
            heads += [-1 if t is None else t for t in fires]
            for t in range(n):
                if done is None and exact.b.decision(m, t) is not None:
                    _, hit, after, after_done, proj, _ = exact.shot(m, t)
                    shots += [sum(1 << k for k, h in enumerate(hit) if h), self.number[after],
                              -1 if after_done is None else int(after_done), *_padded(proj or ())]
                else:
                    shots += [0] * (3 + MOST_KINDS)
        return np.array(heads + shots, dtype=np.int32)


def _padded(values: Sequence[int]) -> list[int]:
    return list(values) + [0] * (MOST_KINDS - len(values))


def _address(array: NDArray[Any], dtype: type[np.generic]) -> int:
    """An array's data for playout.c: refused unless it holds ``dtype`` end to end (C reads it as such)."""
    if array.dtype != dtype or not array.flags.c_contiguous:
        raise ValueError(f"the compiled play-outs read {np.dtype(dtype).name} arrays, end to end")
    return int(array.ctypes.data)


def main() -> int:
    """scripts/setup.sh and install.sh: build ahead, and say where (or why not). Not ``python -m`` this module:
    the package imports it first, and runpy warns."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    built = build()
    print(f"compiled play-outs and count: {built}" if built else "compiled play-outs and count: not built (the Python ones will run)")
    return 0
