"""Messages that point at the cause: a Java runtime that does not load names JAVA_HOME, JVM
options the JVM refuses name THRESHOLD_CHOICE_JVM_OPTIONS (neither says to install Java nor
that a JVM cannot be restarted)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("jpype")

START = ("from threshold_choice.models.jvm import ensure_jvm\n"
         "from threshold_choice.errors import UserError\n"
         "try:\n    ensure_jvm()\nexcept UserError as exc:\n    print(exc)\n")


def _start(env: dict[str, str]) -> str:
    proc = subprocess.run([sys.executable, "-c", START], capture_output=True, text=True,
                          env={**os.environ, **env})
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.strip()


def test_a_java_home_whose_runtime_does_not_load_is_named_in_the_message(tmp_path):
    (tmp_path / "lib" / "server").mkdir(parents=True)
    (tmp_path / "lib" / "server" / "libjvm.so").write_text("not a library")
    message = _start({"JAVA_HOME": str(tmp_path)})
    assert f"JAVA_HOME={tmp_path}" in message and "set JAVA_HOME to a Java installation" in message
    assert "restart" not in message and "pip install" not in message


def test_jvm_options_the_jvm_refuses_are_named_in_the_message():
    message = _start({"THRESHOLD_CHOICE_JVM_OPTIONS": "-Xno-such-option"})
    assert "THRESHOLD_CHOICE_JVM_OPTIONS='-Xno-such-option'" in message
    assert "pip install" not in message
