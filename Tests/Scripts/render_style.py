"""Renders a MapLibre style with MapLibre Native (PyPI's mapli), offline, for the style tests.

    python3 render_style.py STYLE OUT_FOLDER RATIO ZOOM SIZE LON,LAT [LON,LAT ...] [--bearing DEGREES]

writes OUT_FOLDER/<i>.png: a SIZE×SIZE (logical pixels) view at ZOOM and pixel ratio RATIO
centred on the i-th point where MapLibre puts it, so a marker placed there has its anchor at the
image's centre; with --bearing, the map turned that many degrees clockwise from north. Mesa renders
without a display (EGL_PLATFORM=surfaceless).
"""

import math
import os
import sys

os.environ.setdefault("EGL_PLATFORM", "surfaceless")

import mapli  # noqa: E402


def as_placed(lon: float, lat: float) -> tuple[float, float]:
    """The point as a GeoJSON source places it: its tiles (to zoom 18, extent 8192) round every
    vertex to 2^-31 of the world, one logical pixel at zoom 22; the view is centred there so the
    comparison is of the icon's pixels, not of that rounding."""
    world = 2.0**31
    x = round((lon + 180) / 360 * world) / world
    sin = math.sin(math.radians(lat))
    y = round((0.5 - math.log((1 + sin) / (1 - sin)) / (4 * math.pi)) * world) / world
    return x * 360 - 180, math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y))))


def main() -> None:
    arguments = sys.argv[1:]
    bearing = 0.0
    if "--bearing" in arguments:
        at = arguments.index("--bearing")
        bearing = float(arguments[at + 1])
        del arguments[at:at + 2]
    style, out, ratio, zoom, size, *points = arguments
    pool = mapli.RenderPool(workers=1)
    pool.register_style("style", path=style)
    for index, point in enumerate(points):
        lon, lat = as_placed(*(float(value) for value in point.split(",")))
        png = pool.render(
            "style", lon=lon, lat=lat, zoom=float(zoom), width=int(size), height=int(size), pixel_ratio=float(ratio),
            bearing=bearing,
        )
        with open(os.path.join(out, f"{index}.png"), "wb") as file:
            file.write(png)


if __name__ == "__main__":
    main()
