#!/usr/bin/env python3
"""Measures the viewer's screenshots for tests/e2e/viewer_*.sh (python3 without PIL: zlib + struct).

  png_check.py stats IMAGE [--region X0 Y0 X1 Y1]   colours, mean colour, background, red overlay, coloured bodies
  png_check.py diff IMAGE_A IMAGE_B [--region ...]  where two images differ, and how many pixels got darker or brighter
  png_check.py count IMAGE R G B TOLERANCE [--region ...]  pixels within TOLERANCE of a colour

Prints one JSON object. Regions are fractions of the image (0..1), so the checks do not depend on
the window size. Reads 8-bit RGB or RGBA non-interlaced PNGs (what stb_image_write writes).
"""
import json
import struct
import sys
import zlib

# The viewer's clear colour (runtime/viewer/render.c: tb_background).
BACKGROUND = (40, 44, 52)


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("%s is not a PNG" % path)
    pos = 8
    width = height = None
    channels = None
    idat = []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace != 0:
                raise ValueError("unsupported PNG: depth %d, colour type %d, interlace %d" % (depth, colour, interlace))
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    out = bytearray(height * stride)
    previous = bytearray(stride)
    offset = 0
    for y in range(height):
        kind = raw[offset]
        row = bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        bpp = channels
        if kind == 1:  # Sub
            for i in range(bpp, stride):
                row[i] = (row[i] + row[i - bpp]) & 255
        elif kind == 2:  # Up
            row = bytearray((a + b) & 255 for a, b in zip(row, previous))
        elif kind == 3:  # Average
            for i in range(stride):
                left = row[i - bpp] if i >= bpp else 0
                row[i] = (row[i] + ((left + previous[i]) >> 1)) & 255
        elif kind == 4:  # Paeth
            for i in range(stride):
                a = row[i - bpp] if i >= bpp else 0
                b = previous[i]
                c = previous[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                if pa <= pb and pa <= pc:
                    predictor = a
                elif pb <= pc:
                    predictor = b
                else:
                    predictor = c
                row[i] = (row[i] + predictor) & 255
        elif kind != 0:
            raise ValueError("bad PNG filter %d" % kind)
        out[y * stride:(y + 1) * stride] = row
        previous = row
    return width, height, channels, out


def pixels(image, region):
    """Yields (x, y, r, g, b) over a region given as fractions."""
    width, height, channels, data = image
    x0, y0, x1, y1 = region
    xa, xb = int(x0 * width), int(x1 * width)
    ya, yb = int(y0 * height), int(y1 * height)
    for y in range(ya, yb):
        base = y * width * channels
        for x in range(xa, xb):
            i = base + x * channels
            yield x, y, data[i], data[i + 1], data[i + 2]


def is_red(r, g, b):
    # The error overlay: a saturated red box (150, 20, 24) drawn at 92% over the scene.
    return r >= 110 and g <= 60 and b <= 60 and r - g >= 80


def bodies(image, region):
    coloured = set()
    for x, y, r, g, b in pixels(image, region):
        if not is_red(r, g, b) and max(r, g, b) - min(r, g, b) > 30:
            coloured.add((x, y))
    return sum(1 for x, y in coloured
               if (x - 2, y) in coloured and (x + 2, y) in coloured and (x, y - 2) in coloured and (x, y + 2) in coloured)


def stats(image, region):
    colours = set()
    total = background = red = saturated = 0
    sums = [0, 0, 0]
    for _, _, r, g, b in pixels(image, region):
        total += 1
        sums[0] += r
        sums[1] += g
        sums[2] += b
        colours.add((r, g, b))
        if abs(r - BACKGROUND[0]) <= 3 and abs(g - BACKGROUND[1]) <= 3 and abs(b - BACKGROUND[2]) <= 3:
            background += 1
        if is_red(r, g, b):
            red += 1
        elif max(r, g, b) - min(r, g, b) > 60:
            saturated += 1
    return {
        "width": image[0],
        "height": image[1],
        "pixels": total,
        "colours": len(colours),
        "mean": [v / max(total, 1) for v in sums],
        "background_fraction": background / max(total, 1),
        "foreground_fraction": 1.0 - background / max(total, 1),
        "red_fraction": red / max(total, 1),
        # Dynamic bodies have palette colours; ground, grid, sky and panels are greys.
        "saturated_fraction": saturated / max(total, 1),
        # Pixels of a body's colour, shaded or not (channels more than 30 apart), inside a patch of
        # them (the pixels 2 px left, right, above and below are too): bodies, not the thin grid
        # axes or text. Ground, sky, shadows and panels are greys and never count.
        "body_fraction": bodies(image, region) / max(total, 1),
    }


def diff(a, b, region):
    if a[:2] != b[:2]:
        raise ValueError("sizes differ: %dx%d and %dx%d" % (a[0], a[1], b[0], b[1]))
    total = changed = darker = brighter = 0
    box = None
    for (x, y, r1, g1, b1), (_, _, r2, g2, b2) in zip(pixels(a, region), pixels(b, region)):
        total += 1
        # Brightness change from a to b, summed over the channels.
        shift = (r2 + g2 + b2) - (r1 + g1 + b1)
        darker += shift < -30
        brighter += shift > 30
        if abs(r1 - r2) > 24 or abs(g1 - g2) > 24 or abs(b1 - b2) > 24:
            changed += 1
            if box is None:
                box = [x, y, x, y]
            else:
                box = [min(box[0], x), min(box[1], y), max(box[2], x), max(box[3], y)]
    w, h = a[0], a[1]
    return {
        "pixels": total,
        "changed_fraction": changed / max(total, 1),
        "darker": darker,
        "brighter": brighter,
        "changed_box": None if box is None else [box[0] / w, box[1] / h, (box[2] + 1) / w, (box[3] + 1) / h],
    }


def count(image, colour, tolerance, region):
    n = total = 0
    for _, _, r, g, b in pixels(image, region):
        total += 1
        if abs(r - colour[0]) <= tolerance and abs(g - colour[1]) <= tolerance and abs(b - colour[2]) <= tolerance:
            n += 1
    return {"pixels": total, "count": n, "fraction": n / max(total, 1)}


def main(argv):
    region = (0.0, 0.0, 1.0, 1.0)
    if "--region" in argv:
        i = argv.index("--region")
        region = tuple(float(v) for v in argv[i + 1:i + 5])
        argv = argv[:i] + argv[i + 5:]
    if len(argv) >= 2 and argv[0] == "stats":
        result = stats(read_png(argv[1]), region)
    elif len(argv) >= 3 and argv[0] == "diff":
        result = diff(read_png(argv[1]), read_png(argv[2]), region)
    elif len(argv) >= 6 and argv[0] == "count":
        colour = (int(argv[2]), int(argv[3]), int(argv[4]))
        result = count(read_png(argv[1]), colour, int(argv[5]), region)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
