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
def folder(package: str) -> str | None:
    """The folder holding `package`'s files, if it is one folder on disk (None: a zip file, a namespace)."""
    locations = list(getattr(importlib.import_module(package), "__path__", ()))
    return locations[0] if len(locations) == 1 and os.path.isdir(locations[0]) else None


def file(package: str, name: str):
    """The data file `name` (a relative path with /) of `package`: a Path, or importlib.resources' Traversable."""
    where = folder(package)
    if where is not None:
        from pathlib import Path
        return Path(where).joinpath(*name.split("/"))
    from importlib import resources
    return resources.files(package).joinpath(name)


def read_bytes(package: str, name: str) -> bytes:
    where = folder(package)
    if where is not None:
        with open(os.path.join(where, *name.split("/")), "rb") as handle:
            return handle.read()
    return file(package, name).read_bytes()
