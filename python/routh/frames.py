"""Writing a film frame by frame, each frame on disk before the next is drawn: memory stays that
of one or two frames however long the film (matplotlib's PillowWriter kept every frame, 600 MB
for a 25 s run at 25 frames per second).

A GIF (Pillow, which cannot append to a GIF it has written) is streamed here: the header, then
per frame a graphic control block (its delay, kept by the viewer: disposal 1) and the part of the
image that changed since the previous frame, with its own 256-colour table (Pillow's octree
quantiser, no dithering: flat drawings keep their colours), encoded by Pillow's GIF encoder. An
MP4 is piped into ffmpeg as raw RGB frames.
"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
from PIL import GifImagePlugin, Image

_LOOP_FOREVER = 0
_KEEP_PREVIOUS = 1  # GIF disposal method: the next frame is drawn over this one


def _palette_image(rgba: np.ndarray) -> Image.Image:
    """An RGBA array (its alpha ignored) as a palette image of at most 256 colours."""
    return Image.fromarray(np.ascontiguousarray(rgba[..., :3])).quantize(
        256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


class GifWriter:
    """An animated GIF at `fps` frames per second, written as frames are added (add(rgba))."""

    def __init__(self, path, fps: float):
        self._file = open(path, "wb")
        self._fps = float(fps)
        self._count = 0
        self._previous: np.ndarray | None = None

    def _delay_ms(self) -> int:
        """This frame's delay: GIF counts hundredths of a second, so each frame gets the
        rounding that keeps the film's clock on time."""
        hundredths = round((self._count + 1) * 100 / self._fps) - round(self._count * 100 /
                                                                         self._fps)
        return 10 * max(hundredths, 1)

    def add(self, rgba: np.ndarray) -> None:
        """Appends a frame, an (height, width, 4) uint8 array of the film's size (its alpha is
        not drawn)."""
        # one 32-bit word per pixel: comparing frames costs a fraction of comparing bytes
        pixels = np.ascontiguousarray(rgba).view(np.uint32)[..., 0]
        if self._previous is None:
            offset, part = (0, 0), rgba
        else:
            changed = pixels != self._previous
            rows, columns = np.nonzero(changed.any(axis=1))[0], np.nonzero(changed.any(axis=0))[0]
            if len(rows) == 0:  # nothing moved: one unchanged pixel keeps the frame and its delay
                rows, columns = np.array([0]), np.array([0])
            offset = (int(columns[0]), int(rows[0]))
            part = rgba[rows[0]:rows[-1] + 1, columns[0]:columns[-1] + 1]
        image = _palette_image(part)
        if self._previous is None:  # the first frame: the file's header, from its image
            header, _ = GifImagePlugin.getheader(image, None, {"loop": _LOOP_FOREVER})
            for block in header:
                self._file.write(block)
        for block in GifImagePlugin.getdata(image, offset,
                                            duration=self._delay_ms(), disposal=_KEEP_PREVIOUS,
                                            include_color_table=True):
            self._file.write(block)
        self._previous = pixels.copy()
        self._count += 1

    def close(self) -> None:
        self._file.write(b";")  # the GIF trailer
        self._file.close()


class Mp4Writer:
    """An H.264 MP4 at `fps` frames per second through ffmpeg, frames piped as they are added."""

    def __init__(self, path, fps: float, width: int, height: int):
        if shutil.which("ffmpeg") is None:
            raise RuntimeError("writing .mp4 needs ffmpeg, which is not installed (apt-get "
                               "install ffmpeg), or write a .gif")
        # yuv420p halves the chroma resolution: the padding makes both sides even
        self._process = subprocess.Popen(
            ["ffmpeg", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgb24",
             "-s", f"{width}x{height}", "-r", f"{fps}", "-i", "-",
             "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-pix_fmt", "yuv420p", str(path)],
            stdin=subprocess.PIPE)

    def add(self, rgba: np.ndarray) -> None:
        self._process.stdin.write(np.ascontiguousarray(rgba[..., :3]).tobytes())

    def close(self) -> None:
        self._process.stdin.close()
        if self._process.wait() != 0:
            raise RuntimeError(f"ffmpeg failed (exit code {self._process.returncode})")


def film_writer(path, fps: float, width: int, height: int):
    """The writer of `path` by its suffix: .gif or .mp4."""
    name = str(path)
    if name.endswith(".gif"):
        return GifWriter(path, fps)
    if name.endswith(".mp4"):
        return Mp4Writer(path, fps, width, height)
    raise ValueError(f"{name}: write a .gif or an .mp4")

