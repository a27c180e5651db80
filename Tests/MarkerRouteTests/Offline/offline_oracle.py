"""An independent check of an offline pack's tiles: shapely and mercantile, not markerpaint's code.

Reads a JSON file: {"stages": [[[lon, lat], ...], ...], "buffer": metres, "zoom": z, "tiles": [[x, y], ...]}.
Every tile of zoom z near the route is laid, with the route, on the plane tangent to the ellipsoid
(WGS 84, through Earth-centred coordinates) at the route's middle, where distances of a few km are
the ellipsoid's to millimetres for routes up to a couple of hundred km across. A tile within the
buffer of the route must be listed; a listed tile must be within the buffer plus its own diagonal.
Prints a JSON report; exits 1 if either rule is broken.
"""
import json
import math
import sys

import mercantile
import numpy
import shapely

A = 6378137.0
F = 1 / 298.257223563
E2 = F * (2 - F)


def ecef(lon, lat):
    lon, lat = numpy.radians(lon), numpy.radians(lat)
    n = A / numpy.sqrt(1 - E2 * numpy.sin(lat) ** 2)
    return numpy.stack([n * numpy.cos(lat) * numpy.cos(lon), n * numpy.cos(lat) * numpy.sin(lon), n * (1 - E2) * numpy.sin(lat)], axis=-1)


def main():
    with open(sys.argv[1]) as file:
        pack = json.load(file)
    stages, buffer, zoom = pack["stages"], pack["buffer"], pack["zoom"]
    listed = {tuple(tile) for tile in pack["tiles"]}
    points = numpy.array([point for stage in stages for point in stage])
    # The tangent plane at the middle of the route (the mean of its Earth-centred points).
    middle = ecef(points[:, 0], points[:, 1]).mean(axis=0)
    up = middle / numpy.linalg.norm(middle)
    east = numpy.cross([0, 0, 1], up)
    east /= numpy.linalg.norm(east)
    north = numpy.cross(up, east)

    def plane(lon, lat):
        xyz = ecef(numpy.asarray(lon), numpy.asarray(lat)) - middle
        return numpy.stack([xyz @ east, xyz @ north], axis=-1)

    extent = numpy.linalg.norm(plane(points[:, 0], points[:, 1]), axis=1).max()
    if extent > 150_000:
        sys.exit(f"the route reaches {extent / 1000:.0f} km from its middle; this check holds to 150 km")
    route = shapely.MultiLineString([plane(*numpy.array(stage).T) for stage in stages])
    # Candidates: every tile of the route's box grown by the buffer and two tiles, wrapping at ±180.
    size = 360 / 2**zoom
    reach_lat = (buffer / 110_000) + 2 * size
    widest = min(89.0, numpy.abs(points[:, 1]).max() + reach_lat)
    reach_lon = buffer / (111_000 * math.cos(math.radians(widest))) + 2 * size
    unwrapped = numpy.unwrap(numpy.radians(points[:, 0]))
    west, east_ = math.degrees(unwrapped.min()) - reach_lon, math.degrees(unwrapped.max()) + reach_lon
    south, north_ = max(-85.05, points[:, 1].min() - reach_lat), min(85.05, points[:, 1].max() + reach_lat)
    boxes = []
    if east_ - west >= 360:
        boxes.append((-180, south, 180, north_))
    else:
        w, e = (west + 180) % 360 - 180, (east_ + 180) % 360 - 180
        boxes += [(w, south, 180, north_), (-180, south, e, north_)] if w > e else [(w, south, e, north_)]
    candidates = {(t.x, t.y) for box in boxes for t in mercantile.tiles(*box, zooms=zoom)}
    candidates |= listed
    tiles = sorted(candidates)
    polygons, diagonals = [], []
    steps = numpy.linspace(0, 1, 9)
    for x, y in tiles:
        b = mercantile.bounds(x, y, zoom)
        lons = numpy.concatenate([b.west + (b.east - b.west) * steps, numpy.full(9, b.east), b.east - (b.east - b.west) * steps, numpy.full(9, b.west)])
        lats = numpy.concatenate([numpy.full(9, b.north), b.north - (b.north - b.south) * steps, numpy.full(9, b.south), b.south + (b.north - b.south) * steps])
        ring = plane(lons, lats)
        polygons.append(shapely.Polygon(ring))
        diagonals.append(max(numpy.linalg.norm(ring[0] - ring[18]), numpy.linalg.norm(ring[9] - ring[27])))
    distances = shapely.distance(numpy.array(polygons, dtype=object), route)
    missing = [list(t) for t, d in zip(tiles, distances) if d <= buffer - 0.5 and t not in listed]
    extra = [list(t) for t, d, diagonal in zip(tiles, distances, diagonals) if t in listed and d > buffer + diagonal]
    listed_distances = [d for t, d in zip(tiles, distances) if t in listed]
    unlisted_distances = [d for t, d in zip(tiles, distances) if t not in listed]
    report = {
        "candidates": len(tiles),
        "listed": len(listed),
        "within": int(sum(1 for d in distances if d <= buffer)),
        "missing": missing[:10],
        "extra": extra[:10],
        "farthestListed": max(listed_distances, default=0),
        "nearestUnlisted": min(unlisted_distances, default=-1),
        "tileDiagonal": max(diagonals, default=0),
    }
    print(json.dumps(report))
    sys.exit(1 if missing or extra else 0)


main()
