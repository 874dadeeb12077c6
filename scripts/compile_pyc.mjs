// Compile the Python sources of zip archives to bytecode with the Pyodide the page runs
// (CPython 3.14 in WebAssembly, under Node), for scripts/build.py: every "x.py" becomes
// "x.pyc" (unchecked-hash pycs, PEP 552: no timestamps, so the output is byte-identical
// for identical input), every other member is copied. Members are written in name order
// with fixed dates at DEFLATE level 9.
// Usage: node scripts/compile_pyc.mjs [--optimize N] [--checked] IN.zip OUT.zip PREFIX
// [IN OUT PREFIX ...]
// PREFIX is the folder the archive's files live in at run time (for tracebacks), e.g.
// "/lib/python314.zip" or "/lib/python3.14/site-packages".
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { loadPyodide } = await import(join(root, "node_modules", "pyodide", "pyodide.mjs"));
let args = process.argv.slice(2);
let optimize = 0; // 2 would drop docstrings and asserts
if (args[0] === "--optimize") {
  optimize = Number(args[1]);
  args = args.slice(2);
}
// --checked: checked-hash pycs (Python compares them with their source before use)
let checked = false;
if (args[0] === "--checked") {
  checked = true;
  args = args.slice(1);
}
if (args.length === 0 || args.length % 3 !== 0) {
  console.error("usage: node scripts/compile_pyc.mjs IN.zip OUT.zip PREFIX [...]");
  process.exit(2);
}
const py = await loadPyodide();
py.runPython(`
import base64
import hashlib
import importlib._bootstrap_external as external
import importlib.util
import io
import zipfile

def compile_archive(source, target, prefix, optimize, checked):
    out = io.BytesIO()
    with zipfile.ZipFile(source) as zin, \\
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zout:
        for info in sorted(zin.infolist(), key=lambda i: i.filename):
            if info.is_dir():
                continue
            body = zin.read(info)
            name = info.filename
            if name.endswith(".py"):
                code = compile(body, f"{prefix}/{name}", "exec", dont_inherit=True,
                               optimize=optimize)
                body = bytes(external._code_to_hash_pyc(
                    code, importlib.util.source_hash(body), checked=checked))
                name += "c"
            member = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            member.compress_type = zipfile.ZIP_DEFLATED
            member.external_attr = info.external_attr
            zout.writestr(member, body, compresslevel=9)
    data = out.getvalue()
    if any(n.endswith(".dist-info/RECORD") for n in zipfile.ZipFile(io.BytesIO(data)).namelist()):
        data = rewrite_record(data)
    with open(target, "wb") as f:
        f.write(data)

def rewrite_record(data):
    """A wheel's RECORD listing the archive's members as they now are (the .pyc)."""
    zin = zipfile.ZipFile(io.BytesIO(data))
    record = next(n for n in zin.namelist() if n.endswith(".dist-info/RECORD"))
    lines = []
    for name in zin.namelist():
        if name == record:
            continue
        body = zin.read(name)
        digest = base64.urlsafe_b64encode(hashlib.sha256(body).digest()).rstrip(b"=").decode()
        lines.append(f"{name},sha256={digest},{len(body)}")
    lines.append(f"{record},,")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zout:
        for info in zin.infolist():
            body = zin.read(info)
            if info.filename == record:
                body = ("\\n".join(lines) + "\\n").encode()
            zout.writestr(info, body, compresslevel=9)
    return out.getvalue()
`);
const compileArchive = py.globals.get("compile_archive");
for (let i = 0; i < args.length; i += 3) {
  const [input, output, prefix] = args.slice(i, i + 3);
  py.FS.writeFile("/tmp/in.zip", new Uint8Array(readFileSync(input)));
  compileArchive("/tmp/in.zip", "/tmp/out.zip", prefix, optimize, checked);
  writeFileSync(output, py.FS.readFile("/tmp/out.zip"));
}
