"""Data files shipped inside pbem's packages (the schemas, each game's YAML), read from the package's folder.

`importlib.resources` costs milliseconds in every process that imports it (its readers import zipfile, tempfile
and shutil). A package installed as files (a wheel, an editable install) has its data in its folder on disk, so
that folder is read directly (with os, not pathlib, whose import costs milliseconds too); only a package that is
not a folder (pbem imported from a zip file) goes through importlib.resources.
"""
from __future__ import annotations

import functools
import importlib
import os


@functools.lru_cache(maxsize=None)
def _folder(package: str) -> str | None:
    locations = list(getattr(importlib.import_module(package), "__path__", ()))
    return locations[0] if len(locations) == 1 and os.path.isdir(locations[0]) else None


def file(package: str, name: str):
    """The data file `name` (a relative path with /) of `package`: a Path, or importlib.resources' Traversable."""
    folder = _folder(package)
    if folder is not None:
        from pathlib import Path
        return Path(folder).joinpath(*name.split("/"))
    from importlib import resources
    return resources.files(package).joinpath(name)


def read_bytes(package: str, name: str) -> bytes:
    folder = _folder(package)
    if folder is not None:
        with open(os.path.join(folder, *name.split("/")), "rb") as handle:
            return handle.read()
    return file(package, name).read_bytes()
