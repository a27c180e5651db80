"""PyPI's pmtiles (3.x), the independent reader and writer markerpaint's archives are checked with.

  ids FILE                 read "z x y" lines, print each tile ID
  write ARCHIVE SPEC.json  write an archive from {"tiles": [[z, x, y, "hex"], ...], "header": {...}, "metadata": {...}}
  dump ARCHIVE             print {"header": ..., "metadata": ..., "tiles": [[z, x, y, "sha256"], ...], "leaves": n}
"""
import hashlib
import json
import sys

from pmtiles.reader import MmapSource, Reader, all_tiles, deserialize_directory, deserialize_header
from pmtiles.tile import Compression, TileType, zxy_to_tileid
from pmtiles.writer import Writer


def ids(path):
    for line in open(path):
        z, x, y = map(int, line.split())
        print(zxy_to_tileid(z, x, y))


def write(path, spec_path):
    with open(spec_path) as f:
        spec = json.load(f)
    tiles = sorted(((zxy_to_tileid(z, x, y), bytes.fromhex(data)) for z, x, y, data in spec["tiles"]))
    with open(path, "wb") as f:
        writer = Writer(f)
        for tile_id, data in tiles:
            writer.write_tile(tile_id, data)
        header = {
            "tile_type": TileType[spec["header"]["tile_type"]],
            "tile_compression": Compression[spec["header"]["tile_compression"]],
            "min_zoom": min(t[0] for t in spec["tiles"]),
            "max_zoom": max(t[0] for t in spec["tiles"]),
            "min_lon_e7": int(spec["header"]["bounds"][0] * 1e7),
            "min_lat_e7": int(spec["header"]["bounds"][1] * 1e7),
            "max_lon_e7": int(spec["header"]["bounds"][2] * 1e7),
            "max_lat_e7": int(spec["header"]["bounds"][3] * 1e7),
            "center_zoom": spec["header"].get("center_zoom", 0),
            "center_lon_e7": 0,
            "center_lat_e7": 0,
        }
        writer.finalize(header, spec.get("metadata", {}))


def dump(path):
    with open(path, "rb") as f:
        get_bytes = MmapSource(f)
        reader = Reader(get_bytes)
        header = reader.header()
        metadata = reader.metadata()
        tiles = [[z, x, y, hashlib.sha256(data).hexdigest()] for (z, x, y), data in all_tiles(get_bytes)]
        # Leaf directories: entries of the root with a run length of 0.
        raw = deserialize_header(get_bytes(0, 127))
        root = deserialize_directory(get_bytes(raw["root_offset"], raw["root_length"]))
        leaves = sum(1 for entry in root if entry.run_length == 0)
        clean = {k: (v.name if hasattr(v, "name") else v) for k, v in header.items()}
        print(json.dumps({"header": clean, "metadata": metadata, "tiles": tiles, "leaves": leaves}))


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "ids":
        ids(sys.argv[2])
    elif command == "write":
        write(sys.argv[2], sys.argv[3])
    elif command == "dump":
        dump(sys.argv[2])
    else:
        sys.exit(f"unknown command {command}")
