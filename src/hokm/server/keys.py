"""The server's record-signing key, from the settings (see ``docs/deploy.md``).

``HOKM_SIGNING_KEY`` (the private key as 64 hex digits) wins; else ``HOKM_SIGNING_KEY_FILE`` (a PEM
file that must exist, so that every node of a cluster reads the same one); else
``<data-dir>/signing-key.pem``, generated on first start with mode 0600.
"""

from __future__ import annotations

import functools
import logging
import os
import stat
from pathlib import Path

from ..signing import KEY_FILE, Signer
from .config import ServerConfig

log = logging.getLogger("hokm.server")


@functools.lru_cache(maxsize=8)
def _signer(key_hex: str | None, key_file: str | None, data_dir: str) -> Signer:
    if key_hex:
        return Signer.from_hex(key_hex)
    path = Path(key_file) if key_file else Path(data_dir) / KEY_FILE
    signer = Signer.from_file(path, create=not key_file)
    if stat.S_IMODE(os.stat(path).st_mode) & 0o077:
        log.warning("the signing key %s can be read by other users: chmod 600 it", path)
    return signer


def load_signer(config: ServerConfig) -> Signer:
    """The signer these settings name (one instance per distinct setting)."""
    return _signer(config.signing_key, config.signing_key_file, config.data_dir)
