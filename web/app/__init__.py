"""The page's Python: a core (``app.core``) and one package per feature around it.

The core imports no feature; a feature imports the core and the engine; only the
shell (``app.controller``, ``app.screen``, ``app.render``, ``app.dialog_table``) and the
host adapter (``web/main.py``) import the features; only the host adapter imports the
browser (``tests/test_page_rooms.py``).
"""
