"""PNG pixels for the MapLibre scripts: what MapLibre Native (mapli) writes, decoded without Pillow."""

import struct
import zlib

import numpy


def decode_png(data: bytes) -> numpy.ndarray:
    """An 8-bit RGBA, non-interlaced PNG (what MapLibre Native writes) as rows of pixels."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks, width, height = 8, b"", 0, 0
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour == 6, "expected 8-bit RGBA"
        elif kind == b"IDAT":
            chunks += body
        position += 12 + length
    raw = zlib.decompress(chunks)
    stride = width * 4
    image = numpy.zeros((height, stride), dtype=numpy.uint8)
    previous = numpy.zeros(stride, dtype=numpy.int32)
    for row in range(height):
        kind = raw[row * (stride + 1)]
        line = numpy.frombuffer(raw, dtype=numpy.uint8, count=stride, offset=row * (stride + 1) + 1).astype(numpy.int32)
        out = numpy.zeros(stride, dtype=numpy.int32)
        for i in range(stride):
            left = out[i - 4] if i >= 4 else 0
            up = previous[i]
            upper_left = previous[i - 4] if i >= 4 else 0
            if kind == 0:
                value = line[i]
            elif kind == 1:
                value = line[i] + left
            elif kind == 2:
                value = line[i] + up
            elif kind == 3:
                value = line[i] + (left + up) // 2
            else:
                p = left + up - upper_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - upper_left)
                value = line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else upper_left)
            out[i] = value & 0xFF
        image[row] = out
        previous = out
    return image.reshape(height, width, 4)
