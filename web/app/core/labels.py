"""The page's static words (no parameters), translated once per render for the
views of every feature."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

# Static words of the page chrome the view shows as they are (no parameters).
LABEL_KEYS = (
    "app.title", "btn.games", "btn.new_game", "btn.share", "btn.rules", "btn.lang_label",
    "btn.learn",
    "btn.lang", "btn.menu", "scoreboard.label", "btn.sound",
    "btn.dismiss", "btn.cancel_choice", "btn.close", "btn.cancel", "tray.label", "tray.empty",
    "actions.label", "yard.title", "district.title", "district.empty", "skyline.empty",
    "player.start", "player.to_move", "player.points_short", "score.title", "score.player",
    "score.buildings", "score.lowrise", "score.total", "score.note", "log.title", "log.empty",
    "bot.panel_title", "bot.skip", "hint.button", "hint.options", "hint.none", "review.title",
    "review.round", "review.chosen", "review.best", "review.lost", "review.costly",
    "review.no_costly", "review.rounds", "art.unfinished_cap",
    "newgame.count", "newgame.names", "newgame.start", "newgame.scenario", "newgame.nine",
    "newgame.help", "newgame.live", "newgame.live_note",
    "newgame.seed", "newgame.seed_placeholder", "newgame.intro", "newgame.start_btn",
    "newgame.play_default", "link.question", "link.accept", "link.keep", "share.explain",
    "share.link", "export.text", "export.download", "btn.daily", "btn.stats", "daily.welcome",
)


# ---------------------------------------------------------------------------- value types


@dataclass(frozen=True)
class Labels:
    """Translated static words, by string-table key (only those in ``LABEL_KEYS``)."""

    lang: str
    texts: Mapping[str, str]

    def __getitem__(self, key: str) -> str:
        return self.texts[key]
