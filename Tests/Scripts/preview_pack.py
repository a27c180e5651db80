"""Opens a route folder's preview page in headless Chromium until it has drawn the offline pack's
tiles it shows, and reports what it drew.

    python3 preview_pack.py URL SCREENSHOT [--open PACK]

URL is the page with its fragment (`…/index.html#z=12&lon=…&lat=…`). With --open, PACK is given to
the page's file input as a reader picking it would (DevTools' DOM.setFileInputFiles), which is how
a `file://` page gets the pack. Prints the page's `#state` as JSON once no tile is loading, and
writes a 900×600 screenshot at a device scale of 1.
"""
import argparse
import os
import sys
import tempfile
import shutil

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gl_js_snippet import run  # noqa: E402

# Settled: the pack opened (or failed), something drawn of it and nothing loading; or, with no
# pack to read, the page's first drawing.
SETTLED = """new Promise((done, fail) => {
  const started = Date.now();
  const poll = () => {
    const text = document.getElementById("state")?.textContent;
    const state = text ? JSON.parse(text) : null;
    const basemap = state?.offline?.basemap;
    const settled = basemap && (basemap.error || (basemap.source !== "none" && basemap.loading === 0
      && basemap.drawn + basemap.absent + basemap.broken > 0) || (WAIT_FOR_NONE && basemap.source === "none"));
    if (settled) return done(state);
    if (Date.now() - started > 60000) return fail(new Error("the page never drew the pack: " + text));
    setTimeout(poll, 100);
  };
  poll();
})"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("screenshot")
    parser.add_argument("--open", dest="pack")
    parser.add_argument("--expect-none", action="store_true", help="the page is not to read the pack by itself")
    arguments = parser.parse_args()

    def prepare(call):
        if not arguments.pack:
            return
        call("Runtime.evaluate", awaitPromise=True, expression="new Promise((done) => document.readyState === 'complete'"
             " ? done() : addEventListener('load', () => done()))")
        root = call("DOM.getDocument")["root"]["nodeId"]
        node = call("DOM.querySelector", nodeId=root, selector="#pack-file")["nodeId"]
        call("DOM.setFileInputFiles", nodeId=node, files=[os.path.abspath(arguments.pack)])

    work = tempfile.mkdtemp()
    try:
        wait = SETTLED.replace("WAIT_FOR_NONE", "true" if arguments.expect_none else "false")
        state = run(arguments.url, arguments.screenshot, work, wait=wait, window="900,600", prepare=prepare)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    import json
    print(json.dumps(state))


if __name__ == "__main__":
    main()
