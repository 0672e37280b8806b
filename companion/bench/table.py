"""`companion bench table --game GAME`: the last card still -> its result on the tablet, in a browser.

The game's demo players play through the virtual camera, the real pipeline, the session's settle
and the dashboard's event stream, exactly as `companion demo` does, while headless Chromium shows
the table page. For every result the table itself brought about (a resolve after stillness, or a
card the camera saw that decided something at once), three moments on one wall clock:

- the table stopped moving: the last card laid on or lifted off the virtual table before it;
- the service's own figure: the result's entry arriving on the dashboard's event stream (read by
  a client in this process, as `companion bench latency` does);
- the browser's figure: the page showing the result's sentence, at the next animation frame after
  the page changed it (a MutationObserver on the result box, then requestAnimationFrame).

Results brought about by a tap (a dashboard command) or a seat's reader are counted but not timed:
no card lay still before them. A result the table brought about after a tap or a reader's card
(a Warriors Challenge decided once the last card is revealed after a tap) is timed from the later of
the table's last move and that input's arrival: the table could not be quicker than the input.
Printed, never asserted: p50 and p95 of both figures, and, as the same-run baseline, the event
stream's own delivery (service figure) and the page's own share (browser minus service).
"""
from __future__ import annotations

import json
import logging
import os
import tempfile
import threading
import time

from companion.bench.service import machine, percentile, view_messages

log = logging.getLogger(__name__)

TARGET_MS = 800
FROM_THE_TABLE = ("auto", "camera")  # a result the table brought about, not a tap
UNSEEN_INPUTS = ("dashboard", "rfid")  # inputs the virtual table does not move for: a tap, a reader's card
SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
CHROMIUM = "/usr/bin/chromium"  # Debian's, as the browser tests use
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]

WATCH_RESULT = """
window.__results = [];
document.addEventListener('DOMContentLoaded', () => {
  const box = document.querySelector('#result-say');
  let last = null;
  new MutationObserver(() => {
    const text = box.textContent;
    if (text === last) return;
    last = text;
    requestAnimationFrame(() => window.__results.push({t: performance.timeOrigin + performance.now(), text}));
  }).observe(box, {childList: true, characterData: true, subtree: true});
});
"""


def register_bench(bench_sub) -> None:
    table = bench_sub.add_parser("table", help="the last card still -> its result on the tablet (browser), p50/p95")
    table.add_argument("--game", default="bom-battle")
    table.add_argument("--results", type=int, default=20, help="results to time (the bench stops after them)")
    table.add_argument("--seed", type=int, default=1)
    table.add_argument("--pace", type=float, default=0.2,
                       help="the demo's pace (1.0 is `companion demo`'s; smaller plays faster, the settle is the same)")
    table.add_argument("--fps", type=float, default=15.0, help="virtual camera frames per second (the demo's default)")
    table.add_argument("--minutes", type=float, default=4.0, help="give up after this long")
    table.set_defaults(func=cmd_table)


class TableMoves:
    """Wraps the virtual table's place/remove/clear to note when it last moved (wall clock)."""

    def __init__(self, table):
        self.moves: list[float] = []
        for name in ("place", "remove", "clear"):
            setattr(table, name, self._noting(getattr(table, name)))

    def _noting(self, method):
        def moved(*args, **kwargs):
            result = method(*args, **kwargs)
            self.moves.append(time.time())
            return result
        return moved

    def still_since(self, before: float) -> float | None:
        earlier = [t for t in self.moves if t <= before]
        return earlier[-1] if earlier else None


class Results(threading.Thread):
    """Reads the event stream; notes each change of the result sentence with what brought it."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port = port
        self.found: list[dict] = []
        self.inputs: list[float] = []   # arrival of every tap or reader's card (not table moves)
        self.sightings: list[float] = []  # arrival of every card the camera reported (seen or gone)
        self.ready = threading.Event()

    def run(self) -> None:
        said = None
        for _, message in view_messages(self.port):
            arrived = time.time()
            self.ready.set()
            outcome = (message.get("view") or {}).get("last_outcome") or {}
            entry = message.get("entry") or {}
            if entry.get("source") in UNSEEN_INPUTS and entry.get("status") == "applied":
                self.inputs.append(arrived)
            if entry.get("source") == "camera" and entry.get("kind") in ("card_seen", "card_gone"):
                self.sightings.append(arrived)
            if outcome.get("say") and outcome["say"] != said:
                said = outcome["say"]
                self.found.append({"at": arrived, "say": said, "source": entry.get("source"),
                                   "kind": entry.get("kind"), "seq": entry.get("seq")})


def cmd_table(args) -> int:
    from playwright.sync_api import sync_playwright

    from companion.demo.driver import start_demo
    from companion.service import Service
    from companion.web.app import create_app
    from companion.web.server import make_server

    logging.getLogger("companion.demo").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as play:
        service = Service(tmp)  # the settle times `companion demo` uses
        server = make_server(create_app(service), "127.0.0.1", 0)
        service.start_background()
        threading.Thread(target=server.serve_forever, daemon=True).start()
        results = Results(server.port)
        results.start()
        results.ready.wait(10)
        browser = play.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.add_init_script(WATCH_RESULT)
        page.goto(f"http://127.0.0.1:{server.port}/")
        demo = start_demo(service, seed=args.seed, pace=args.pace, fps=args.fps, game=args.game)
        moves = TableMoves(demo.table)
        deadline = time.monotonic() + args.minutes * 60
        while time.monotonic() < deadline and timed(results.found) < args.results and demo.is_alive():
            page.wait_for_timeout(500)
        shown = page.evaluate("window.__results")
        browser.close()
        demo.stopped.set()
        service.stop()
        server.shutdown()
    report = measure(results.found, shown, moves, results.inputs, results.sightings)
    print(json.dumps({"machine": machine(), "load_average_1_5_15": [round(x, 1) for x in os.getloadavg()],
                      "game": args.game, "pace": args.pace, "fps": args.fps,
                      "settle": {"still_frames": service.still_frames, "long_s": service.settle_seconds,
                                 "quick_s_without_camera": service.quick_settle_seconds},
                      **report, "target": f"browser p95 under {TARGET_MS} ms"}, indent=2))
    return 0


def timed(found: list[dict]) -> int:
    return sum(1 for r in found if r["source"] in FROM_THE_TABLE)


def measure(found: list[dict], shown: list[dict], moves: TableMoves, inputs: list[float] = (),
            sightings: list[float] = ()) -> dict:
    """Pair each result on the stream with the page showing its sentence, after the table stopped
    (or after the tap or reader's card that came later, when one did). Where the time went: the
    camera reporting the last card (table still -> its sighting on the stream), then the settle and
    the resolve (that sighting -> the result; 0 for a result the sighting itself decided)."""
    service_ms, browser_ms, page_ms, by_source, unseen, slowest = [], [], [], {}, 0, []
    camera_ms, settle_ms = [], []
    for result in found:
        by_source[result["source"]] = by_source.get(result["source"], 0) + 1
        if result["source"] not in FROM_THE_TABLE:
            continue
        still = moves.still_since(result["at"])
        if still is None:
            continue
        # the result's own input arrives with it: only an input before it counts
        still = max([still, *(t for t in inputs if still < t < result["at"])])
        say = plain(result["say"])
        on_page = next((s["t"] / 1000 for s in shown if plain(s["text"]) == say and s["t"] / 1000 >= still), None)
        service_ms.append((result["at"] - still) * 1000)
        seen = [t for t in sightings if still < t <= result["at"]]
        if seen:
            camera_ms.append((seen[-1] - still) * 1000)
            settle_ms.append((result["at"] - seen[-1]) * 1000)
        if on_page is None:
            unseen += 1
            log.debug("not seen on the page: %s (%s)", result, [x for x in shown if abs(x["t"] / 1000 - result["at"]) < 5])
            continue
        browser_ms.append((on_page - still) * 1000)
        page_ms.append((on_page - result["at"]) * 1000)
        slowest.append((round(browser_ms[-1]), round(service_ms[-1]), result["kind"], result["say"][:60]))
    slowest.sort(reverse=True)
    return {"results_by_source": by_source, "not_seen_on_the_page": unseen,
            "slowest_three_browser_stream_ms": slowest[:3],
            "where_the_time_goes_ms": {"table_still_to_camera_sighting_on_stream": figures(camera_ms),
                                       "sighting_to_result_settle_and_resolve": figures(settle_ms)},
            "last_card_still_to_result_ms": {"browser": figures(browser_ms), "service_event_stream": figures(service_ms),
                                             "baseline_page_share_browser_minus_stream": figures(page_ms)}}


def plain(text: str) -> str:
    """A sentence as the page's text shows it: the page draws a copy's superscript as a small digit."""
    return text.translate(SUPERSCRIPTS)


def figures(values: list[float]) -> dict:
    if not values:
        return {"p50": None, "p95": None, "n": 0}
    return {"p50": round(percentile(values, 50)), "p95": round(percentile(values, 95)), "max": round(max(values)),
            "n": len(values)}
