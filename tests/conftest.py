"""Test configuration for the engine tests.

Hypothesis profiles (pick one with ``HYPOTHESIS_PROFILE=name``):

* ``dev`` (default on a workstation): random examples, no deadline.
* ``ci`` (default when the ``CI`` environment variable is set): derandomized, so a
  CI run is reproducible and never flaky; no example database.

``SKYLINE_PROPERTY_SCALE=k`` multiplies the number of random games the property
tests play (default 1, which keeps ``pytest tests`` well under 90 s on 2 cores).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

settings.register_profile(
    "dev",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# The page's Python (web/: screen, controller, board_view, ...) is imported by the
# web tests as the page imports it: as top-level modules.
WEB = Path(__file__).resolve().parent.parent / "web"
if str(WEB) not in sys.path:
    sys.path.append(str(WEB))

_default = "ci" if os.environ.get("CI") else "dev"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or _default)

# Strict string tables: under the tests a text missing from the table of the language
# asked for raises i18n.MissingText (a KeyError naming key and language) instead of
# showing English or the key itself (the page stays lenient). SKYLINE_I18N_STRICT=0
# switches it off, e.g. to look at what the page would show.
from app.core import i18n  # noqa: E402

i18n.STRICT = os.environ.get("SKYLINE_I18N_STRICT", "1") != "0"
