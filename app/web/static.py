"""The page's files: gzip-compressed once in memory, revalidated with an ETag so a reload costs 304s.

waitress compresses nothing, and the page's files (its modules, its stylesheet, the vendored
chart library) are about three quarters text a browser would gladly take gzipped. Each file is
read and compressed the first time it is asked for, and again only when its size or mtime
changes on disk; nothing generated is ever written next to the sources.

Caching: ``Cache-Control: no-cache`` with a strong ETag (a hash of the file's bytes), so a
browser keeps every file but asks each time whether it changed: the answer is a 304 with no
body, and a new tokwatch's files are never mixed with an old page's.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import mimetypes
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from email.utils import formatdate
from pathlib import Path

from flask import Flask, Request, Response, request
from werkzeug.security import safe_join

from . import security

# Compressed only when it pays: text formats, and only when gzip saves at least this share.
COMPRESSIBLE_TYPES = frozenset(
    {"text/javascript", "application/javascript", "text/css", "image/svg+xml", "application/manifest+json",
     "application/json", "text/html", "text/plain", "text/markdown"}
)
MIN_SAVING = 0.1
# Files this large are served from disk as Flask would, never held in memory (none of ours are).
MAX_CACHED_BYTES = 4 << 20
GZIP_LEVEL = 9
# What every static response says about caching: keep it, but ask before using it again.
CACHE_CONTROL = "no-cache"
# Our own choices where Python's table is missing or differs between versions (3.10 says
# application/javascript for .js; both are valid for a module).
TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".webmanifest": "application/manifest+json"}


@dataclass(frozen=True)
class StaticFile:
    """One file as it is served: its bytes, their gzip form when it pays, and validators."""

    mimetype: str
    body: bytes
    gzipped: bytes | None
    etag: str  # without quotes
    last_modified: str  # an HTTP date
    stamp: tuple[int, int]  # (size, mtime_ns) on disk when read

    def tags(self) -> frozenset[str]:
        """Both representations' ETags: a browser revalidating either may get a 304."""
        return frozenset({self.etag, self.etag + "-gz"})


def media_type(path: Path) -> str:
    """The media type to serve a file as."""
    return TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"


def load(path: Path, stamp: tuple[int, int]) -> StaticFile:
    """Read a file and prepare what is served for it."""
    body = path.read_bytes()
    mimetype = media_type(path)
    gzipped = None
    if mimetype in COMPRESSIBLE_TYPES:
        # mtime=0: the same bytes give the same gzip stream, whenever and wherever it is made.
        candidate = gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)
        if len(candidate) <= len(body) * (1 - MIN_SAVING):
            gzipped = candidate
    digest = hashlib.blake2b(body, digest_size=12).hexdigest()
    last_modified = formatdate(stamp[1] / 1e9, usegmt=True)
    return StaticFile(mimetype, body, gzipped, digest, last_modified, stamp)


def accepts_gzip(req: Request) -> bool:
    """True when the request's Accept-Encoding allows gzip (``gzip;q=0`` refuses it)."""
    return req.accept_encodings.quality("gzip") > 0


class StaticFiles:
    """The files under one folder, kept in memory as served; safe to share between threads."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._files: dict[str, StaticFile] = {}
        self._lock = threading.Lock()

    def get(self, filename: str) -> StaticFile | None:
        """The file at ``filename`` under the folder, fresh from disk when it changed; None if none."""
        joined = safe_join(str(self.folder), filename)
        if joined is None:
            return None
        path = Path(joined)
        try:
            info = path.stat()
        except OSError:
            return None
        if not path.is_file() or info.st_size > MAX_CACHED_BYTES:
            return None
        stamp = (info.st_size, info.st_mtime_ns)
        cached = self._files.get(filename)
        if cached is not None and cached.stamp == stamp:
            return cached
        try:
            loaded = load(path, stamp)
        except OSError:
            return None
        with self._lock:
            self._files[filename] = loaded
        return loaded

    def respond(self, filename: str) -> Response:
        """The response for GET /static/<filename>: gzip when accepted, 304 when the browser has it."""
        found = self.get(filename)
        if found is None:
            security.refuse(404, "no such file")
        use_gzip = found.gzipped is not None and accepts_gzip(request)
        etag = found.etag + "-gz" if use_gzip else found.etag
        if found.tags() & set(request.if_none_match.as_set()) or request.if_none_match.star_tag:
            response = Response(status=304)
        else:
            response = Response(found.gzipped if use_gzip else found.body, mimetype=found.mimetype)
            if use_gzip:
                response.headers["Content-Encoding"] = "gzip"
        response.headers["ETag"] = f'"{etag}"'
        response.headers["Last-Modified"] = found.last_modified
        response.headers["Cache-Control"] = CACHE_CONTROL
        if found.gzipped is not None:
            response.headers["Vary"] = "Accept-Encoding"
        return response


def compress_page(response: Response) -> Response:
    """Gzip a rendered page when the browser takes it, and let a reload revalidate it (ETag, 304).

    The page is rendered per request (its websocket port, whether the pairing card shows), so
    it is compressed per request: about 10 KB of HTML, well under a millisecond.
    """
    body = response.get_data()
    digest = hashlib.blake2b(body, digest_size=12).hexdigest()
    use_gzip = accepts_gzip(request)
    response.headers["ETag"] = f'"{digest}-gz"' if use_gzip else f'"{digest}"'
    response.headers["Cache-Control"] = CACHE_CONTROL
    response.headers["Vary"] = "Accept-Encoding"
    if {digest, digest + "-gz"} & set(request.if_none_match.as_set()):
        return _not_modified(response)
    if use_gzip:
        response.set_data(gzip.compress(body, compresslevel=6, mtime=0))
        response.headers["Content-Encoding"] = "gzip"
    return response


def _not_modified(response: Response) -> Response:
    """The same response as a bodyless 304, its validators and caching headers kept."""
    out = Response(status=304)
    for name in ("ETag", "Cache-Control", "Vary"):
        if name in response.headers:
            out.headers[name] = response.headers[name]
    return out


@dataclass(frozen=True)
class InlineStyle:
    """Stylesheets' text for one ``<style>`` in a page, and the hash the page's CSP allows it by."""

    text: str
    csp_hash: str  # "sha256-<base64>"


def inline_style(files: StaticFiles, names: Sequence[str]) -> InlineStyle:
    """The sheets under ``files`` named ``names``, joined in order for a page's ``<style>``.

    A sheet in the page's head holds its first paint until it arrives; inlined, the first paint
    needs the HTML alone (on a loaded machine each request to the server cost tens of ms). The
    text is read through the files' cache, so an edited sheet is inlined as it now is.
    """
    parts = []
    for name in names:
        found = files.get(name)
        if found is None:
            raise FileNotFoundError(f"no stylesheet {name} under {files.folder}")
        parts.append(found.body.decode("utf-8"))
    text = "\n".join(parts)
    if "</style" in text.lower():  # it would end the element early
        raise ValueError(f"a stylesheet of {', '.join(names)} holds </style")
    digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
    return InlineStyle(text, f"sha256-{digest}")


def init_app(app: Flask, folder: Path) -> None:
    """Serve ``folder`` at /static/<path> (endpoint ``static``, so ``url_for('static', …)`` works)."""
    files = StaticFiles(folder)

    def static(filename: str) -> Response:
        return files.respond(filename)

    app.add_url_rule("/static/<path:filename>", endpoint="static", view_func=static)
    app.extensions["tokwatch.static"] = files

