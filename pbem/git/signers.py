"""git's allowed-signers files (gpg.ssh.allowedSignersFile): the SSH public keys a commit's signature is checked
against, written for a check and removed after it."""
from __future__ import annotations

import tempfile
from pathlib import Path


class AllowedSigners:
    """Temporary allowed-signers files (git checks SSH commit signatures against one), one for each set of
    {principal: SSH public key} asked for, all removed on leaving the `with`."""

    def __init__(self):
        self._tmp: tempfile.TemporaryDirectory | None = None
        self._files: dict[tuple, Path] = {}

    def __enter__(self) -> "AllowedSigners":
        return self

    def __exit__(self, *exc) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()

    def file(self, keys: dict[str, str]) -> Path | None:
        """The file listing these keys; None when there are none (no commit can be signed)."""
        if not keys:
            return None
        listed = tuple(sorted(keys.items()))
        if listed not in self._files:
            if self._tmp is None:
                self._tmp = tempfile.TemporaryDirectory(prefix="pbem-signers-")
            path = self._files[listed] = Path(self._tmp.name) / f"allowed_signers.{len(self._files)}"
            path.write_text("".join(f'{name} namespaces="git" {key}\n' for name, key in listed))
        return self._files[listed]
