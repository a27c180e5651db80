"""A raster basemap for the offline pack's tests, written by PyPI's pmtiles (or as MBTiles with
sqlite3, or as a folder of XYZ files): a 256-pixel PNG for every tile route --offline lists, and
for the ring of tiles around them, each drawn from its own address (a colour from z/x/y, a grid of
lines), so a tile read back in the wrong place shows. Every seventh tile is plain sea: shared bytes.

  raster_source.py TILES.json OUT (--pmtiles | --mbtiles | --xyz) [--drop N]

--drop N leaves out every Nth tile (a source with holes).
"""
import argparse
import hashlib
import json
import os
import sqlite3
import struct
import zlib

from pmtiles.tile import Compression, TileType, zxy_to_tileid
from pmtiles.writer import Writer


def png(width, height, rows):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + row for row in rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")


SEA = png(256, 256, [bytes([40, 90, 160]) * 256] * 256)


def tile(z, x, y):
    if (x + y) % 7 == 0:
        return SEA
    digest = hashlib.sha256(f"{z}/{x}/{y}".encode()).digest()
    base = bytes([80 + digest[0] % 150, 80 + digest[1] % 150, 80 + digest[2] % 150])
    line = bytes([30, 30, 30])
    plain = base * 256
    grid = b"".join(line if column % 32 == 0 else base for column in range(256))
    rows = [line * 256 if row % 32 == 0 else grid for row in range(256)]
    return png(256, 256, rows)


def wanted(tiles_json):
    with open(tiles_json) as f:
        document = json.load(f)
    tiles = set()
    for zoom in document["zooms"]:
        z = zoom["tileZoom"]
        for x, y in zoom["tiles"]:
            # The tile and its ring: a source covers more than one ride.
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    if 0 <= x + dx < 2**z and 0 <= y + dy < 2**z:
                        tiles.add((z, x + dx, y + dy))
    return document, sorted(tiles)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tiles_json")
    parser.add_argument("out")
    kind = parser.add_mutually_exclusive_group(required=True)
    kind.add_argument("--pmtiles", action="store_true")
    kind.add_argument("--mbtiles", action="store_true")
    kind.add_argument("--xyz", action="store_true")
    parser.add_argument("--drop", type=int, default=0)
    args = parser.parse_args()
    document, tiles = wanted(args.tiles_json)
    if args.drop:
        tiles = [t for i, t in enumerate(tiles) if i % args.drop != 1]
    west, south, east, north = document["box"]
    metadata = {"name": "test raster", "attribution": "© markerpaint tests", "tileSize": 256}
    if args.pmtiles:
        with open(args.out, "wb") as f:
            writer = Writer(f)
            for z, x, y in sorted(tiles, key=lambda t: zxy_to_tileid(*t)):
                writer.write_tile(zxy_to_tileid(z, x, y), tile(z, x, y))
            writer.finalize(
                {
                    "tile_type": TileType.PNG, "tile_compression": Compression.NONE,
                    "min_zoom": min(t[0] for t in tiles), "max_zoom": max(t[0] for t in tiles),
                    "min_lon_e7": int(west * 1e7), "min_lat_e7": int(south * 1e7), "max_lon_e7": int(east * 1e7), "max_lat_e7": int(north * 1e7),
                    "center_zoom": 12, "center_lon_e7": int((west + east) / 2 * 1e7), "center_lat_e7": int((south + north) / 2 * 1e7),
                },
                metadata,
            )
    elif args.mbtiles:
        db = sqlite3.connect(args.out)
        db.execute("CREATE TABLE metadata (name text, value text)")
        db.execute("CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)")
        for name, value in [("name", "test raster"), ("format", "png"), ("attribution", "© markerpaint tests"), ("bounds", f"{west},{south},{east},{north}")]:
            db.execute("INSERT INTO metadata VALUES (?, ?)", (name, value))
        for z, x, y in tiles:
            db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, 2**z - 1 - y, tile(z, x, y)))
        db.commit()
        db.close()
    else:
        for z, x, y in tiles:
            folder = os.path.join(args.out, str(z), str(x))
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, f"{y}.png"), "wb") as f:
                f.write(tile(z, x, y))
    print(len(tiles))


if __name__ == "__main__":
    main()
