"""Minimal page glue: import the rules engine and signal readiness.

PyScript runs this file from index.html (<script type="py" src="./main.py">). The
skyline wheel is unpacked into site-packages by pyscript.json's [files] entry, and
any other web/*.py next to this file is copied into the interpreter's home folder
by the build, so `import board` works for web/board.py.
"""

from pyscript import document

import skyline

app = document.getElementById("app")
app.textContent = f"skyline {getattr(skyline, '__version__', 'ready')}"
# Contract with boot.js and the e2e tests: the app is usable from here on.
document.body.dataset.ready = "1"
