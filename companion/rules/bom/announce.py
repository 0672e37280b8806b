""""Helpful notes": the sentence a player says for his play.

"announce the names of your CHARACTER cards in each battle. For example, "I attack with Zeezrom!"
or "I combine Pachus and Seantum in a secret combination!"" (bom-battle.txt). ``text`` keeps
superscripts (Coriantumr³) for the screen; ``speak`` drops them for the browser's speech synthesis.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, TypedDict

from .plays import Play

TEMPLATES = {
    None: "I attack with {names}!",
    "faith": "I attack with {names}, multiplied by Faith!",
    "wickedness": "I attack with {names}, multiplied by Wickedness!",
    "battle": "I combine {names} in battle!",
    "conversion": "I attack with {names}, converted by Conversion!",
    "title_of_liberty": "I combine {names} under the Title of Liberty!",
    "secret_combination": "I combine {names} in a secret combination!",
    "stripling_warriors": "I attack with {names} and the Stripling Warriors!",
    "famine": "I attack with {names} and bring a Famine!",
}


SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"


def name_parts(name: str) -> tuple[str, str]:
    """("Coriantumr", "3") for "Coriantumr³": the index tells apart people of the same name
    (rulebook, Helpful notes). The dashboard shows it as a superscript; speech leaves it out."""
    base = name.rstrip(SUPERSCRIPTS)
    index = "".join(str(SUPERSCRIPTS.index(c)) for c in name[len(base):])
    return base, index


def spoken(name: str) -> str:
    return name_parts(name)[0]


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class SpokenName(TypedDict):
    """A name in a play, and how it is said."""

    name: str
    pronunciation: str


class AnnounceJSON(TypedDict):
    """What a player says for a play: ``text`` for the screen (superscripts kept), ``speak`` for speech
    synthesis, and each name with its pronunciation."""

    text: str
    speak: str
    names: list[SpokenName]


def announce(play: Play, deck_view: Callable[[str], Mapping[str, Any]]) -> AnnounceJSON:
    """What the player says for a legal play."""
    names = [f.name for f in play.fighters]
    template = TEMPLATES[play.power]
    return {"text": template.format(names=_join(names)),
            "speak": template.format(names=_join([spoken(n) for n in names])),
            "names": [{"name": f.name, "pronunciation": deck_view(f.key).get("pronunciation", "")}
                      for f in play.fighters]}
