"""A game's results as the hub holds them: a chain of links in log order, each naming the one before.

A link is a **result** (a public history entry with outcomes), a **retraction** (an undo: the hub
drops what it holds of this game from the undone input on, and takes instead the results the table
now shows from there, carried inside the retraction), or the game's **end**. An undo re-derives the
log after the input it takes back, so every result from that input on may have changed (an input
refused before may apply now); the retraction therefore re-sends them all, whatever the hub held.

Each link also says ``at``: the last seq of the log it was derived from. A link derived before an
undo that reaches back over it is stale: the hub (store.py) refuses it, so a copy still on its way
when the table undid (a broker redelivering, a resend) is never counted again.

Pure: no I/O; the publisher gives it the session's entries and its way of making one public.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any, Callable

# A finished game's end: after every other link (a game over takes no more results), and the same
# however many sightings the log gathers after the end. An undo of the input that ended the game
# retracts it like any other result (its seq is after every undo's reach).
END_SEQ = 2**31 - 1


@dataclass(frozen=True)
class Link:
    seq: int
    kind: str        # "result", "retract" or "game_end"
    prev: int = 0    # the link before it in the chain (0: the first)
    back: int = 0    # a retraction: the first seq it takes back


def is_result(entry) -> bool:
    return entry.status == "applied" and bool(entry.outcomes)


class Chain:
    """A game's chain, kept up to date as its session's entries grow: each call folds only the
    entries added since the last (an undo gives the session a new list of entries, folded again
    whole, as the session itself refolded it), so a publication costs the same late in a long game."""

    def __init__(self) -> None:
        self._entries: list | None = None
        self._done = 0
        self.links: list[Link] = []       # the chain without the game's end
        self.retractions: list[int] = []  # the seqs of its retractions, in order
        self.over = False

    def update(self, entries: list, over: bool) -> "Chain":
        """Take the game's session entries as they now stand (``over``: the game has ended)."""
        if entries is not self._entries or len(entries) < self._done:
            self._entries, self._done, self.links, self.retractions = entries, 0, [], []
        for entry in entries[self._done:]:
            self._take(entry)
        self._done, self.over = len(entries), over
        return self

    def _take(self, entry) -> None:
        seq = entry.event.seq
        if is_result(entry):
            self.links.append(Link(seq, "result", self._last()))
        elif entry.status == "undo" and entry.outcomes:
            # Everything from the undone input on is taken back; a retraction taken back with it
            # reached further, and this one reaches as far (one retraction then says it all).
            back = int(entry.outcomes[0]["data"]["seq"])
            while self.links and self.links[-1].seq >= back:
                dropped = self.links.pop()
                if dropped.kind == "retract":
                    self.retractions.pop()
                    back = min(back, dropped.back)
            self.links.append(Link(seq, "retract", self._last(), back=back))
            self.retractions.append(seq)

    def _last(self) -> int:
        return self.links[-1].seq if self.links else 0

    def all(self) -> list[Link]:
        return self.after(-1)

    def after(self, seq: int) -> list[Link]:
        """The links after ``seq``, the game's end last."""
        out = self.links[bisect.bisect_right(self.links, seq, key=lambda link: link.seq):]
        return out + [Link(END_SEQ, "game_end", self._last())] if self.over and seq < END_SEQ else out

    def cursor(self, acked: int, undone: int) -> int:
        """Where to publish from: after ``acked``, the end of the unbroken chain the hub holds,
        unless the hub has not taken a later undo than ``undone`` (what it holds past that undo's
        reach may be stale, the game's end too): then from that undo's retraction."""
        unheld = bisect.bisect_right(self.retractions, undone)
        return min(acked, self.retractions[unheld] - 1) if unheld < len(self.retractions) else acked

    def version(self) -> int:
        """The game's latest retraction (0: none): a link re-derived after it is a new message."""
        return self.retractions[-1] if self.retractions else 0


def links(entries: list, over: bool) -> list[Link]:
    """The chain of a game whose session entries are ``entries`` (``over``: the game has ended)."""
    return Chain().update(entries, over).all()


def payloads(wanted: list[Link], entries: list, public: Callable[[Any], dict[str, Any]], head: dict[str, Any],
             end: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages of the ``wanted`` links: ``head`` (game_id, game, players, at) on every one,
    ``public(entry)`` the entry as every watcher may see it, ``end`` the game_end's fields."""
    if not wanted:
        return []
    first = min(link.back if link.kind == "retract" else link.seq for link in wanted)
    start = bisect.bisect_left(entries, first, key=lambda e: e.event.seq)
    shown = {e.event.seq: e for e in entries[start:] if is_result(e) or e.status == "undo"}
    out = []
    for link in wanted:
        if link.kind == "result":
            out.append(_result(head, public(shown[link.seq]), link.prev))
        elif link.kind == "retract":
            out.append(_retraction(head, link, public(shown[link.seq]),
                                   [public(e) for s, e in sorted(shown.items()) if link.back <= s < link.seq
                                    and is_result(e)]))
        else:
            out.append({**head, "seq": END_SEQ, "kind": "game_end", "prev": link.prev, **end})
    return out


def _result(head: dict[str, Any], entry: dict[str, Any], prev: int) -> dict[str, Any]:
    return {**head, "seq": entry["seq"], "kind": "result", "ts": entry["ts"], "prev": prev,
            "outcomes": [{"kind": o["kind"], "say": o["say"], "terms": o["terms"]} for o in entry["outcomes"]]}


def _retraction(head: dict[str, Any], link: Link, undo: dict[str, Any], now: list[dict[str, Any]]) -> dict[str, Any]:
    """The undo's retraction: the results the table shows from ``back`` on, chained after the link
    before the reach; the retraction itself follows the last of them."""
    carried, prev = [], link.prev
    for entry in now:
        carried.append(_result(head, entry, prev))
        prev = entry["seq"]
    return {**head, "seq": link.seq, "kind": "retract", "from": link.back, "ts": undo["ts"], "prev": prev,
            "say": undo["outcomes"][0]["say"], "results": carried}
