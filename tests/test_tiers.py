"""The tiers are given by what a test reaches: its helpers are followed, the app's code is not."""

from __future__ import annotations

import socket
import subprocess
import sys

from tests.conftest import start_server
from tests.tiers import reaches


def spawns() -> None:
    subprocess.run([sys.executable, "-c", "pass"], check=True)


def listens() -> None:
    with socket.create_server(("127.0.0.1", 0)):
        pass


def calls_a_helper_that_spawns() -> None:
    spawns()


class Starter:
    def begin(self) -> None:
        listens()


def adds(a: int, b: int) -> int:
    return a + b


def test_a_process_or_a_listening_socket_is_the_socket_tier() -> None:
    assert reaches([spawns]) == {"socket"}
    assert reaches([listens]) == {"socket"}


def test_helpers_and_their_classes_are_followed() -> None:
    assert reaches([calls_a_helper_that_spawns]) == {"socket"}
    assert reaches([Starter]) == {"socket"}
    assert reaches([lambda: start_server]) == {"socket"}  # the conftest's real server


def test_plain_code_is_in_no_tier() -> None:
    assert reaches([adds]) == set()
