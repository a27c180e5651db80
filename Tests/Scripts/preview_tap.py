"""Taps a pin on a route folder's preview page in headless Chromium, as a reader's mouse would,
and reports what the page shows before and after.

    python3 preview_tap.py URL SCREENSHOT DX,DY [DX,DY ...]

URL is the page (or its path) with its fragment (`…/index.html#z=18&lon=…&lat=…`), opened in an 800×600 window.
Each DX,DY is a press and release of the left button that far from the page's centre (DevTools'
Input.dispatchMouseEvent, which the page sees as pointer events). Prints, as JSON, the page's `#state` after the page's first
drawing and after each tap, and writes a screenshot after the last.
"""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gl_js_snippet import run  # noqa: E402

# The state once every picture the page asked for has loaded and been drawn.
STATE = """new Promise((done, fail) => {
  const started = Date.now();
  const poll = () => {
    const pending = [...document.images].filter((image) => !image.complete).length;
    const text = document.getElementById("state")?.textContent;
    if (text && pending === 0) return requestAnimationFrame(() => done(JSON.parse(document.getElementById("state").textContent)));
    if (Date.now() - started > 30000) return fail(new Error("the page never drew: " + text));
    setTimeout(poll, 50);
  };
  poll();
})"""


def main() -> None:
    url, screenshot, *taps = sys.argv[1:]
    if "://" not in url:
        url = "file://" + os.path.abspath(url)
    states = []

    def state(call):
        value = call("Runtime.evaluate", awaitPromise=True, returnByValue=True, expression=STATE)
        if "exceptionDetails" in value:
            raise RuntimeError(value["exceptionDetails"].get("exception", {}).get("description", "the page failed"))
        return value["result"]["value"]

    def prepare(call):
        call("Runtime.evaluate", awaitPromise=True, expression="new Promise((done) => document.readyState === 'complete'"
             " ? done() : addEventListener('load', () => done()))")
        states.append(state(call))
        size = call("Runtime.evaluate", returnByValue=True, expression="[innerWidth, innerHeight]")["result"]["value"]
        for tap in taps:
            dx, dy = (float(value) for value in tap.split(","))
            x, y = size[0] / 2 + dx, size[1] / 2 + dy
            for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
                call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left" if kind != "mouseMoved" else "none",
                     clickCount=1 if kind != "mouseMoved" else 0)
            states.append(state(call))

    work = tempfile.mkdtemp()
    try:
        run(url, screenshot, work, wait=STATE, window="800,600", prepare=prepare)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(states))


if __name__ == "__main__":
    main()
