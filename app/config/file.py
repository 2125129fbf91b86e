"""tokwatch's config file: ``$XDG_CONFIG_HOME/tokwatch/config.toml`` (else ``~/.config/tokwatch/``).

It may hold notification URLs, which carry secrets (bot tokens, topics, webhook keys), so a
file that other users can read or write is refused, the way ssh refuses a private key that
others can read: ``chmod 600`` fixes it. A missing file is no error: every setting has a default.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, from PyPI
    import tomli as tomllib

CONFIG_FILE_NAME = "config.toml"


class ConfigFileError(ValueError):
    """A config file tokwatch cannot use, named with its path and what is wrong."""


def default_config_file(environ: Mapping[str, str] = os.environ, home: Path | None = None) -> Path:
    """``$XDG_CONFIG_HOME/tokwatch/config.toml``, else ``~/.config/tokwatch/config.toml``."""
    xdg = environ.get("XDG_CONFIG_HOME", "")
    # The XDG spec says to ignore a relative value.
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else (home or Path.home()) / ".config"
    return base / "tokwatch" / CONFIG_FILE_NAME


def load_config_file(path: Path) -> dict[str, Any]:
    """The file's settings as a dict ({} when there is no file); raises ConfigFileError."""
    try:
        with path.open("rb") as f:
            mode = os.fstat(f.fileno()).st_mode
            if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
                raise ConfigFileError(
                    f"{path}: other users can read or change it, and it may hold notification secrets; "
                    f"run: chmod 600 {path}"
                )
            data = f.read()
    except FileNotFoundError:
        return {}
    except IsADirectoryError as e:
        raise ConfigFileError(f"{path}: is a directory, not a config file") from e
    except OSError as e:
        raise ConfigFileError(f"{path}: cannot read ({e.strerror or e})") from e
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise ConfigFileError(f"{path}: not UTF-8 text") from e
    except tomllib.TOMLDecodeError as e:
        raise ConfigFileError(f"{path}: not valid TOML ({e})") from e
