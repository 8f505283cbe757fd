// raspis app build: raspis's Python compiled ahead by the app's own runtime (CPython in
// WebAssembly, run by Node.js), so that a phone imports bytecode instead of compiling the
// source at every start. Not part of the app: `node compile.js FOLDER` reads
// FOLDER/pyodide/ and FOLDER/raspis-app.zip and writes FOLDER/bytecode.zip (the .pyc files,
// unchecked-hash: valid whatever the files' dates).
"use strict";
const path = require("path");
const fs = require("fs");
const folder = process.argv[2];
const { loadPyodide } = require(path.join(folder, "pyodide", "pyodide.js"));

loadPyodide({ indexURL: path.join(folder, "pyodide") + path.sep }).then((pyodide) => {
  const bundle = new Uint8Array(fs.readFileSync(path.join(folder, "raspis-app.zip")));
  pyodide.unpackArchive(bundle, "zip", { extractDir: "/home/pyodide/raspis" });
  const compiled = pyodide.runPython(`
import compileall, io, os, py_compile, zipfile
root = "/home/pyodide/raspis"
compileall.compile_dir(root, quiet=2, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
out = io.BytesIO()
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
    for folder, _, names in sorted(os.walk(root)):
        for name in sorted(names):
            if name.endswith(".pyc"):
                archive.write(os.path.join(folder, name), os.path.relpath(os.path.join(folder, name), root))
out.getvalue()
`);
  fs.writeFileSync(path.join(folder, "bytecode.zip"), compiled.toJs());
}).catch((error) => { console.error(String(error)); process.exit(1); });
