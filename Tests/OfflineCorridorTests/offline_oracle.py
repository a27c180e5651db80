"""An independent check of an offline pack: shapely and mercantile, not markerpaint's code.

Reads a JSON file: {"stages": [[[lon, lat], ...], ...], "buffer": metres, "zoom": z, "tiles": [[x, y], ...],
"corridor": [polygon, ...] (optional; each a list of rings of [lon, lat])}.

The route is cut into windows of about 50 km. Each window, the route within reach of it and the
tiles of zoom z near it are laid on the plane tangent to the ellipsoid (WGS 84, through
Earth-centred coordinates) at the window's middle, where distances of a few km are the
ellipsoid's to centimetres. A tile within the buffer of the route must be listed; a listed tile
must be within the buffer plus its own diagonal. The corridor, laid on the same planes, must hold
every point within the buffer and reach at most 1% beyond it. Prints a JSON report; exits 1 if a
rule is broken.
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
WINDOW = 50_000.0


def ecef(lon, lat):
    lon, lat = numpy.radians(lon), numpy.radians(lat)
    n = A / numpy.sqrt(1 - E2 * numpy.sin(lat) ** 2)
    return numpy.stack([n * numpy.cos(lat) * numpy.cos(lon), n * numpy.cos(lat) * numpy.sin(lon), n * (1 - E2) * numpy.sin(lat)], axis=-1)


class Plane:
    """The plane tangent to the ellipsoid at an Earth-centred point."""

    def __init__(self, middle):
        self.middle = middle
        up = middle / numpy.linalg.norm(middle)
        self.east = numpy.cross([0, 0, 1], up)
        self.east /= numpy.linalg.norm(self.east)
        self.north = numpy.cross(up, self.east)

    def __call__(self, lon, lat):
        xyz = ecef(numpy.asarray(lon, dtype=float), numpy.asarray(lat, dtype=float)) - self.middle
        return numpy.stack([xyz @ self.east, xyz @ self.north], axis=-1)


def densified(stage, step=200.0):
    """The stage's points with more between them wherever two are further apart than `step` (along the chord, on ECEF)."""
    points = numpy.array(stage, dtype=float)
    out = [points[0]]
    xyz = ecef(points[:, 0], points[:, 1])
    for i in range(1, len(points)):
        gap = numpy.linalg.norm(xyz[i] - xyz[i - 1])
        count = int(gap // step)
        lon0, lon1 = points[i - 1, 0], points[i, 0]
        if lon1 - lon0 > 180:
            lon1 -= 360
        elif lon0 - lon1 > 180:
            lon1 += 360
        for k in range(1, count + 1):
            t = k / (count + 1)
            out.append([lon0 + (lon1 - lon0) * t, points[i - 1, 1] + (points[i, 1] - points[i - 1, 1]) * t])
        out.append(points[i])
    out = numpy.array(out)
    out[:, 0] = (out[:, 0] + 180) % 360 - 180
    return out


def tile_ring(x, y, zoom, steps=numpy.linspace(0, 1, 9)):
    b = mercantile.bounds(x, y, zoom)
    lons = numpy.concatenate([b.west + (b.east - b.west) * steps, numpy.full(9, b.east), b.east - (b.east - b.west) * steps, numpy.full(9, b.west)])
    lats = numpy.concatenate([numpy.full(9, b.north), b.north - (b.north - b.south) * steps, numpy.full(9, b.south), b.south + (b.north - b.south) * steps])
    return lons, lats


def main():
    with open(sys.argv[1]) as file:
        pack = json.load(file)
    buffer, zoom = pack["buffer"], pack["zoom"]
    listed = {tuple(tile) for tile in pack["tiles"]}
    stages = [densified(stage) for stage in pack["stages"]]
    everything = numpy.concatenate(stages)
    # Which stage each point is of: a window's route breaks where one stage ends and the next begins.
    stage_of = numpy.concatenate([numpy.full(len(stage), index) for index, stage in enumerate(stages)])
    xyz_all = ecef(everything[:, 0], everything[:, 1])
    # Windows: runs of consecutive points about WINDOW long.
    windows, start, length = [], 0, 0.0
    steps = numpy.linalg.norm(numpy.diff(xyz_all, axis=0), axis=1)
    for i, step in enumerate(steps):
        length += step
        if length >= WINDOW:
            windows.append((start, i + 2))
            start, length = i + 1, 0.0
    windows.append((start, len(everything)))
    n = 2**zoom
    must, allowed, checked = set(), set(), 0
    lacking_area, beyond_area, corridor_checked = 0.0, 0.0, False
    corridor_parts = [[numpy.array(ring, dtype=float) for ring in polygon] for polygon in pack.get("corridor", [])]
    farthest, nearest_unlisted = 0.0, math.inf
    for first, last in windows:
        part = everything[first:last]
        plane = Plane(xyz_all[first:last].mean(axis=0))
        # The route within reach of this window: every point whose plane coordinates lie within the window's reach.
        reach = WINDOW + 4 * buffer + 10_000
        near = numpy.linalg.norm(xyz_all - plane.middle, axis=1) < reach
        near_route = []
        offset = 0
        for stage in stages:
            mask = near[offset:offset + len(stage)]
            offset += len(stage)
            # Consecutive runs of near points make lines (a lone point, a tiny line).
            idx = numpy.flatnonzero(mask)
            if len(idx) == 0:
                continue
            runs = numpy.split(idx, numpy.flatnonzero(numpy.diff(idx) != 1) + 1)
            for run in runs:
                coords = plane(stage[run, 0], stage[run, 1])
                near_route.append(shapely.LineString(coords if len(coords) > 1 else numpy.vstack([coords, coords + 0.001])))
        route = shapely.MultiLineString(near_route)
        # Candidates: tiles within the buffer and two tiles' width of this window's points.
        xs = (part[:, 0] + 180) / 360 * n
        lat = numpy.radians(numpy.clip(part[:, 1], -85.0511, 85.0511))
        ys = (1 - numpy.log(numpy.tan(lat) + 1 / numpy.cos(lat)) / math.pi) / 2 * n
        tile_metres = 2 * math.pi * A / n * numpy.cos(lat)
        radius = numpy.ceil(buffer / tile_metres).astype(int) + 2
        cand = set()
        for x, y, r in zip(xs.astype(int), ys.astype(int), radius):
            r = min(int(r), n)
            for dx in range(-r, r + 1):
                for dy in range(-r, r + 1):
                    if 0 <= y + dy < n:
                        cand.add((int((x + dx) % n), int(y + dy)))
        tiles = sorted(cand)
        polygons, diagonals = [], []
        for x, y in tiles:
            ring = plane(*tile_ring(x, y, zoom))
            polygons.append(shapely.Polygon(ring))
            diagonals.append(max(numpy.linalg.norm(ring[0] - ring[18]), numpy.linalg.norm(ring[9] - ring[27])))
        distances = shapely.distance(numpy.array(polygons, dtype=object), route)
        checked += len(tiles)
        for tile, d, diagonal in zip(tiles, distances, diagonals):
            if d <= buffer - 1:
                must.add(tile)
            if d <= buffer + diagonal + 1:
                allowed.add(tile)
            if tile in listed:
                farthest = max(farthest, d)
            else:
                nearest_unlisted = min(nearest_unlisted, d)
        if corridor_parts:
            corridor_checked = True
            corridor = shapely.union_all([shapely.Polygon(plane(*p[0].T), [plane(*h.T) for h in p[1:]]) for p in corridor_parts
                                          if numpy.linalg.norm(ecef(p[0][:, 0], p[0][:, 1]) - plane.middle, axis=1).min() < reach + 50_000])
            lines = []
            for index in numpy.unique(stage_of[first:last]):
                run = part[stage_of[first:last] == index]
                coords = plane(run[:, 0], run[:, 1])
                lines.append(shapely.LineString(coords if len(coords) > 1 else numpy.vstack([coords, coords + 0.001])))
            window_route = shapely.MultiLineString(lines)
            inner = window_route.buffer(buffer - 1, quad_segs=32)
            lacking_area += inner.difference(corridor).area
            # Beyond: the corridor near this window that is further than 1% past the buffer from all the route near it.
            near_window = window_route.buffer(buffer * 1.5)
            beyond_area += corridor.intersection(near_window).difference(route.buffer(buffer * 1.01 + 1, quad_segs=32)).area
    valid = all(shapely.Polygon(p[0], p[1:]).is_valid for p in corridor_parts)
    missing = sorted(must - listed)
    extra = sorted(listed - allowed)
    report = {
        "windows": len(windows),
        "candidates": checked,
        "listed": len(listed),
        "within": len(must),
        "missing": [list(t) for t in missing[:10]],
        "extra": [list(t) for t in extra[:10]],
        "farthestListed": farthest,
        "nearestUnlisted": nearest_unlisted if nearest_unlisted != math.inf else -1,
        "corridorChecked": corridor_checked,
        "corridorValid": valid,
        "lackingArea": lacking_area,
        "beyondArea": beyond_area,
    }
    print(json.dumps(report))
    broken = missing or extra or lacking_area > 1 or beyond_area > 1 or not valid
    sys.exit(1 if broken else 0)


main()
