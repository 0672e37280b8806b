"""RFID pairing: which RFID tag is stuck on which physical card.

An owner pairs a card by scanning its QR tag (``begin``) and then tapping its RFID tag on a reader
(``tap``). Every step is an event appended to an SQLite table that is never updated or deleted;
the current bindings are derived from the events, so the history of who paired what stays there
to read and a mistake is undone with ``unpair``, not by editing rows.

Events (table ``pair_events``: seq, ts, kind, data as JSON):

    pair_begin  {"game", "card", "copy"}      a card's QR was scanned: the next tap pairs it
    pair_tap    {"uid", "reader"?}            a tag was tapped: bound to the pending card
    pair_cancel {}                            the pending card is forgotten
    unpair      {"uid"}                       the tag is no longer bound to anything
    pair_import {"uid", "game", "card", "copy"}   a binding read from a CSV file

A tap is refused (and nothing is written) when no card is pending or the pending card was scanned
more than ``PENDING_SECONDS`` earlier, when the UID is malformed (UIDs are 4, 7 or 10 bytes:
ISO 14443's single, double and triple size), or when the UID is already bound to another card:
"one UID bound to two cards" is a conflict, refused with the card it is bound to. Pairing a card
that already has a tag gives it the new tag and frees the old one (a sticker was replaced).
"""
from __future__ import annotations

import csv
import io
import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from .payload import GAME_CODES, CardRef, PayloadError, encode

UID_BYTES = (4, 5, 7, 10)  # ISO 14443 single/double/triple size; 5: a 125 kHz EM4100 tag (RDM6300, ID-12LA)
PENDING_SECONDS = 120.0
CSV_COLUMNS = ["uid", "game", "card", "copy"]
KINDS = ("pair_begin", "pair_tap", "pair_cancel", "unpair", "pair_import")

_DDL = """
CREATE TABLE IF NOT EXISTS pair_events (
    seq  INTEGER PRIMARY KEY AUTOINCREMENT,
    ts   REAL NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL
);
"""


class PairingError(ValueError):
    """A pairing step that cannot be done; the message says why. Nothing was written."""


def normalize_uid(text: str) -> str:
    """"04:a1:b2:c3" -> "04A1B2C3"; PairingError naming the problem for anything but 4, 7 or 10 bytes of hex."""
    if not isinstance(text, str):
        raise PairingError(f"a UID must be text, not {text!r}")
    cleaned = "".join(ch for ch in text.strip() if ch not in ":- ").upper()
    if not cleaned:
        raise PairingError("the UID is empty")
    if any(ch not in "0123456789ABCDEF" for ch in cleaned):
        raise PairingError(f"UID {text!r} is not hexadecimal")
    if len(cleaned) % 2 or len(cleaned) // 2 not in UID_BYTES:
        raise PairingError(f"UID {text!r} is {len(cleaned) / 2:g} bytes; RFID UIDs are 4, 5, 7 or 10 bytes")
    return cleaned


def _check_ref(ref: CardRef) -> CardRef:
    try:
        encode(ref)  # the same rules as a printed tag: known game, card id format, copy 1-99
    except PayloadError as exc:
        raise PairingError(str(exc)) from None
    return ref


def describe(ref: CardRef) -> str:
    return f"{ref.game} {ref.key}"


@dataclass(frozen=True)
class PairEvent:
    seq: int
    ts: float
    kind: str
    data: dict[str, Any]


@dataclass
class Bindings:
    """The state the events fold into."""

    by_uid: dict[str, CardRef]
    pending: tuple[CardRef, float] | None = None

    def uid_of(self, ref: CardRef) -> str | None:
        for uid, bound in self.by_uid.items():
            if bound == ref:
                return uid
        return None


def fold(events: Iterable[PairEvent]) -> Bindings:
    """Current bindings from the event history. Only valid events are ever stored (each step is
    checked before it is written), so folding never refuses."""
    state = Bindings({})
    for event in events:
        data = event.data
        if event.kind == "pair_begin":
            state.pending = (CardRef(data["game"], data["card"], int(data["copy"])), event.ts)
        elif event.kind == "pair_cancel":
            state.pending = None
        elif event.kind == "pair_tap" and state.pending is not None:
            _bind(state, data["uid"], state.pending[0])
            state.pending = None
        elif event.kind == "pair_import":
            _bind(state, data["uid"], CardRef(data["game"], data["card"], int(data["copy"])))
        elif event.kind == "unpair":
            state.by_uid.pop(data["uid"], None)
    return state


def _bind(state: Bindings, uid: str, ref: CardRef) -> None:
    old = state.uid_of(ref)
    if old is not None and old != uid:
        del state.by_uid[old]  # the card's previous tag is freed
    state.by_uid[uid] = ref


@dataclass(frozen=True)
class Paired:
    uid: str
    ref: CardRef
    replaced: str | None = None   # the card's previous UID, now free

    def say(self) -> str:
        text = f"RFID tag {self.uid} is now {describe(self.ref)}"
        return text + (f" (its previous tag {self.replaced} is free again)" if self.replaced else "")


class PairingStore:
    """The pairing events in SQLite (WAL, synchronous=FULL, like the game log)."""

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time,
                 pending_seconds: float = PENDING_SECONDS):
        self.path = Path(path)
        self.clock = clock
        self.pending_seconds = pending_seconds
        self._lock = threading.RLock()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_DDL)
        except sqlite3.DatabaseError as exc:
            raise PairingError(f"{self.path}: not a pairing database ({exc})") from None

    def close(self) -> None:
        self._db.close()

    # -- reading ------------------------------------------------------------------------------------
    def events(self) -> list[PairEvent]:
        with self._lock:
            rows = self._db.execute("SELECT seq, ts, kind, data FROM pair_events ORDER BY seq").fetchall()
        return [PairEvent(seq, ts, kind, json.loads(data)) for seq, ts, kind, data in rows]

    def bindings(self) -> Bindings:
        return fold(self.events())

    def lookup(self, uid: str, game: str | None = None) -> CardRef | None:
        """The card a tapped UID is bound to (in that game, if given), or None."""
        try:
            uid = normalize_uid(uid)
        except PairingError:
            return None
        ref = self.bindings().by_uid.get(uid)
        if ref is None or (game is not None and ref.game != game):
            return None
        return ref

    def pending(self) -> CardRef | None:
        """The card waiting for its tap, if it was scanned recently enough."""
        pending = self.bindings().pending
        if pending is None or self.clock() - pending[1] > self.pending_seconds:
            return None
        return pending[0]

    # -- the pairing flow ---------------------------------------------------------------------------
    def _append(self, kind: str, data: dict[str, Any]) -> PairEvent:
        ts = self.clock()
        cursor = self._db.execute("INSERT INTO pair_events (ts, kind, data) VALUES (?, ?, ?)",
                                  (ts, kind, json.dumps(data, sort_keys=True)))
        return PairEvent(cursor.lastrowid or 0, ts, kind, data)  # an INSERT always sets lastrowid

    def begin(self, ref: CardRef) -> PairEvent:
        """The card's QR was scanned: the next tap will pair it."""
        _check_ref(ref)
        with self._lock:
            return self._append("pair_begin", {"game": ref.game, "card": ref.card, "copy": ref.copy})

    def cancel(self) -> PairEvent:
        with self._lock:
            return self._append("pair_cancel", {})

    def tap(self, uid: str, reader: str | None = None) -> Paired:
        """A tag was tapped: bind it to the pending card, or refuse with the reason."""
        uid = normalize_uid(uid)
        with self._lock:
            state = self.bindings()
            if state.pending is None:
                raise PairingError(f"tag {uid} was tapped, but no card is waiting: scan the card's QR tag first")
            ref, since = state.pending
            if self.clock() - since > self.pending_seconds:
                raise PairingError(f"{describe(ref)} was scanned more than {self.pending_seconds:g} seconds ago; "
                                   f"scan its QR tag again, then tap")
            self._refuse_conflict(state, uid, ref)
            replaced = state.uid_of(ref)
            data = {"uid": uid} | ({"reader": reader} if reader else {})
            self._append("pair_tap", data)
            return Paired(uid, ref, replaced if replaced != uid else None)

    @staticmethod
    def _refuse_conflict(state: Bindings, uid: str, ref: CardRef) -> None:
        bound = state.by_uid.get(uid)
        if bound is not None and bound != ref:
            raise PairingError(f"RFID tag {uid} is already paired with {describe(bound)}; one tag cannot name two "
                               f"cards. Unpair it first if it really moved to {describe(ref)}")

    def unpair(self, uid: str) -> CardRef:
        uid = normalize_uid(uid)
        with self._lock:
            ref = self.bindings().by_uid.get(uid)
            if ref is None:
                raise PairingError(f"RFID tag {uid} is not paired with any card")
            self._append("unpair", {"uid": uid})
            return ref

    # -- CSV ----------------------------------------------------------------------------------------
    def export_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for uid, ref in sorted(self.bindings().by_uid.items(), key=lambda item: (item[1], item[0])):
            writer.writerow([uid, ref.game, ref.card, ref.copy])
        return out.getvalue()

    def import_csv(self, text: str, source: str = "<csv>", known: Callable[[CardRef], str | None] | None = None
                   ) -> list[Paired]:
        """Add the bindings of a CSV file (uid, game, card, copy), all or nothing: every problem is
        reported at once and then nothing is imported. ``known(ref)`` may return why a card is not in
        the deck (checked against a catalog)."""
        rows = parse_csv(text, source, known)
        with self._lock:
            state = self.bindings()
            problems = []
            for number, uid, ref in rows:
                bound = state.by_uid.get(uid)
                if bound is not None and bound != ref:
                    problems.append(f"{source} row {number}: RFID tag {uid} is already paired with {describe(bound)}, "
                                    f"not {describe(ref)}")
            if problems:
                raise PairingError("; ".join(problems))
            done = []
            for _, uid, ref in rows:
                if state.by_uid.get(uid) == ref:
                    continue  # already paired exactly so
                replaced = state.uid_of(ref)
                self._append("pair_import", {"uid": uid, "game": ref.game, "card": ref.card, "copy": ref.copy})
                _bind(state, uid, ref)
                done.append(Paired(uid, ref, replaced))
            return done


def parse_csv(text: str, source: str = "<csv>", known: Callable[[CardRef], str | None] | None = None
              ) -> list[tuple[int, str, CardRef]]:
    """Rows of a pairing CSV, or PairingError listing every bad row."""
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in CSV_COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise PairingError(f"{source}: the header must have columns {', '.join(CSV_COLUMNS)}; missing {', '.join(missing)}")
    rows, problems = [], []
    seen_uid: dict[str, int] = {}
    seen_ref: dict[CardRef, int] = {}
    for number, row in enumerate(reader, start=2):
        where = f"{source} row {number}"
        try:
            uid = normalize_uid(row["uid"] or "")
            game = (row["game"] or "").strip()
            if game not in GAME_CODES:
                raise PairingError(f"unknown game {game!r}")
            copy = (row["copy"] or "").strip()
            if not copy.isdigit():
                raise PairingError(f"copy must be a number, not {copy!r}")
            ref = _check_ref(CardRef(game, (row["card"] or "").strip(), int(copy)))
            reason = known(ref) if known else None
            if reason:
                raise PairingError(reason)
        except PairingError as exc:
            problems.append(f"{where}: {exc}")
            continue
        if uid in seen_uid:
            problems.append(f"{where}: RFID tag {uid} is already on row {seen_uid[uid]}; one tag cannot name two cards")
            continue
        if ref in seen_ref:
            problems.append(f"{where}: {describe(ref)} is already on row {seen_ref[ref]}")
            continue
        seen_uid[uid], seen_ref[ref] = number, number
        rows.append((number, uid, ref))
    if problems:
        raise PairingError("; ".join(problems))
    return rows


def default_path(data_dir: str | Path) -> Path:
    return Path(data_dir) / "pairings.db"
