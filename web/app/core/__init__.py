"""The page's core: its state, the command names and table types, the host port, the
string tables, storage, the session and the DOM ids. It imports no feature."""
