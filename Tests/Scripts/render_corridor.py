"""Renders an offline corridor as a GeoJSON fill in MapLibre Native (PyPI's mapli), offline, and
checks each pixel against shapely's reading of the same file.

    python3 render_corridor.py CORRIDOR_GEOJSON OUT_PNG ZOOM SIZE LON,LAT

A SIZE×SIZE view (pixel ratio 1) at ZOOM centred on LON,LAT: white, the corridor filled red. Each
pixel whose centre is more than 1.5 pixels from the corridor's edge must be red exactly when
shapely puts its centre inside the corridor. Prints a JSON report; exits 1 otherwise.
"""

import json
import math
import os
import sys

os.environ.setdefault("EGL_PLATFORM", "surfaceless")

import mapli  # noqa: E402
import numpy  # noqa: E402
import shapely  # noqa: E402
from png_pixels import decode_png  # noqa: E402


def main() -> None:
    corridor_path, out, zoom, size, centre = sys.argv[1:]
    zoom, size = float(zoom), int(size)
    lon, lat = (float(value) for value in centre.split(","))
    with open(corridor_path) as file:
        feature = json.load(file)
    style = {
        "version": 8,
        "sources": {"corridor": {"type": "geojson", "data": feature}},
        "layers": [
            {"id": "background", "type": "background", "paint": {"background-color": "#ffffff"}},
            {"id": "corridor", "type": "fill", "source": "corridor", "paint": {"fill-color": "#ff0000", "fill-antialias": False}},
        ],
    }
    style_path = out + ".style.json"
    with open(style_path, "w") as file:
        json.dump(style, file)
    pool = mapli.RenderPool(workers=1)
    pool.register_style("corridor", path=style_path)
    png = pool.render("corridor", lon=lon, lat=lat, zoom=zoom, width=size, height=size, pixel_ratio=1.0)
    with open(out, "wb") as file:
        file.write(png)
    image = decode_png(png)
    red = (image[:, :, 0] > 200) & (image[:, :, 1] < 60)

    # Each pixel's centre in longitude and latitude: the world is 512·2^zoom pixels wide.
    world = 512 * 2**zoom
    sin = math.sin(math.radians(lat))
    cx, cy = (lon + 180) / 360 * world, (0.5 - math.log((1 + sin) / (1 - sin)) / (4 * math.pi)) * world
    xs = cx + numpy.arange(size) + 0.5 - size / 2
    ys = cy + numpy.arange(size) + 0.5 - size / 2
    lons = xs / world * 360 - 180
    lats = numpy.degrees(numpy.arctan(numpy.sinh(math.pi * (1 - 2 * ys / world))))
    grid_lon, grid_lat = numpy.meshgrid(lons, lats)
    geometry = shapely.geometry.shape(feature["geometry"])
    # On the pixel plane, so "1.5 pixels from the edge" means what it says.
    def to_pixels(x, y, z=None):
        s = numpy.sin(numpy.radians(y))
        return (numpy.asarray(x) + 180) / 360 * world - cx + size / 2, (0.5 - numpy.log((1 + s) / (1 - s)) / (4 * math.pi)) * world - cy + size / 2
    # Longitudes east of 180 are drawn there too: shift parts west of the centre's side by 360 when nearer.
    plane = shapely.ops.transform(to_pixels, geometry)
    shifted = [shapely.affinity.translate(plane, xoff=k * world) for k in (-1, 0, 1)]
    plane = shapely.union_all(shifted)
    px, py = numpy.meshgrid(numpy.arange(size) + 0.5, numpy.arange(size) + 0.5)
    points = shapely.points(px.ravel(), py.ravel())
    inside = shapely.contains_xy(plane, px.ravel(), py.ravel()).reshape(size, size)
    near_edge = (shapely.distance(plane.boundary, points) <= 1.5).reshape(size, size)
    wrong = (red != inside) & ~near_edge
    report = {"pixels": size * size, "red": int(red.sum()), "inside": int(inside.sum()), "nearEdge": int(near_edge.sum()), "wrong": int(wrong.sum())}
    print(json.dumps(report))
    sys.exit(1 if report["wrong"] or report["red"] == 0 else 0)


if __name__ == "__main__":
    import shapely.affinity  # noqa: E402
    import shapely.geometry  # noqa: E402
    import shapely.ops  # noqa: E402

    main()
